#include <gtest/gtest.h>

#include <string>

#include "tigris.h"

namespace {

TEST(VersionTest, RuntimeVersionMatchesHeader) {
  EXPECT_EQ(tigris_version_number(), static_cast<unsigned>(TIGRIS_VERSION_NUMBER));
  std::string expected = std::to_string(TIGRIS_VERSION_MAJOR) + "." +
                         std::to_string(TIGRIS_VERSION_MINOR) + "." +
                         std::to_string(TIGRIS_VERSION_PATCH);
  EXPECT_EQ(tigris_version(), expected);
}

TEST(StatusTest, PinnedValuesNeverMove) {
  // These numbers are ABI: bindings and user code compare against them. A change here is
  // a breaking change and must not happen.
  EXPECT_EQ(TIGRIS_OK, 0);
  EXPECT_EQ(TIGRIS_ERR_INVALID_ARGUMENT, 1);
  EXPECT_EQ(TIGRIS_ERR_EMPTY_MODEL, 3);
  EXPECT_EQ(TIGRIS_ERR_GRAPH_CYCLE, 7);
  EXPECT_EQ(TIGRIS_ERR_UNSUPPORTED_OP, 9);
  EXPECT_EQ(TIGRIS_ERR_DYNAMIC_SHAPE, 10);
  EXPECT_EQ(TIGRIS_ERR_EXTERNAL_DATA, 12);
  EXPECT_EQ(TIGRIS_ERR_VERSION_MISMATCH, 20);
}

TEST(StatusTest, EveryStatusHasItsOwnName) {
  for (int s = TIGRIS_OK; s <= TIGRIS_ERR_INVALID_PLAN; ++s) {
    std::string name = tigris_status_name(static_cast<tigris_status>(s));
    EXPECT_EQ(name.rfind("TIGRIS_", 0), 0u) << s;
    EXPECT_NE(name, "TIGRIS_ERR_UNKNOWN") << s;
  }
  EXPECT_STREQ(tigris_status_name(static_cast<tigris_status>(999)), "TIGRIS_ERR_UNKNOWN");
  EXPECT_STREQ(tigris_status_name(TIGRIS_ERR_GRAPH_CYCLE), "TIGRIS_ERR_GRAPH_CYCLE");
}

TEST(LoadOptionsTest, InitFillsDefaultsAndRejectsUnknownVersions) {
  tigris_load_options opts;
  ASSERT_EQ(tigris_load_options_init(&opts, TIGRIS_LOAD_OPTIONS_VERSION), TIGRIS_OK);
  EXPECT_EQ(opts.version, TIGRIS_LOAD_OPTIONS_VERSION);
  EXPECT_EQ(opts.default_dim, 1);
  EXPECT_EQ(opts.num_dims, 0u);
  EXPECT_EQ(tigris_load_options_init(&opts, 99), TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(tigris_load_options_init(nullptr, 1), TIGRIS_ERR_INVALID_ARGUMENT);
}

}  // namespace
