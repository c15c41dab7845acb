// Every tgrs_status (tigris_runtime.h), the reader's, the LZ4 decoder's and the executor's:
// its pinned value, and a name from tgrs_status_name() that is the enumerator's own
// spelling, distinct from every other and never "TGRS_ERR_UNKNOWN". The expected names come
// from the preprocessor's # of each enumerator, not from the code under test.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace {

struct StatusRow {
  tgrs_status status;
  int pinned;
  const char* spelling;
};

#define TGRS_STATUS_ROW(name, value) \
  { name, value, #name }

// The table of docs/runtime.md and docs/runtime-executor.md "Status codes".
const std::vector<StatusRow>& AllStatuses() {
  static const std::vector<StatusRow> rows = {
      TGRS_STATUS_ROW(TGRS_OK, 0),
      TGRS_STATUS_ROW(TGRS_ERR_NULL_ARGUMENT, 1),
      TGRS_STATUS_ROW(TGRS_ERR_PLAN_TOO_SMALL, 2),
      TGRS_STATUS_ROW(TGRS_ERR_PLAN_MISALIGNED, 3),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_IDENTIFIER, 4),
      TGRS_STATUS_ROW(TGRS_ERR_UNSUPPORTED_VERSION, 5),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_OFFSET, 6),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_VTABLE, 7),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_VECTOR, 8),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_STRING, 9),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_INDEX, 10),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_ALIGNMENT, 11),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_ENUM, 12),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_SIZE, 13),
      TGRS_STATUS_ROW(TGRS_ERR_MISSING_FIELD, 14),
      TGRS_STATUS_ROW(TGRS_ERR_BAD_VALUE, 15),
      TGRS_STATUS_ROW(TGRS_ERR_PLAN_TOO_LARGE, 16),
      TGRS_STATUS_ROW(TGRS_ERR_TOO_COMPLEX, 17),
      TGRS_STATUS_ROW(TGRS_ERR_PLAN_CORRUPT, 18),
      TGRS_STATUS_ROW(TGRS_ERR_NO_CHECKSUM, 19),
      TGRS_STATUS_ROW(TGRS_ERR_LZ4_CORRUPT, 32),
      TGRS_STATUS_ROW(TGRS_ERR_LZ4_DST_TOO_SMALL, 33),
      TGRS_STATUS_ROW(TGRS_ERR_ARENA_TOO_SMALL, 48),
      TGRS_STATUS_ROW(TGRS_ERR_ARENA_MISALIGNED, 49),
      TGRS_STATUS_ROW(TGRS_ERR_SLOW_ARENA_TOO_SMALL, 50),
      TGRS_STATUS_ROW(TGRS_ERR_SLOW_ARENA_MISALIGNED, 51),
      TGRS_STATUS_ROW(TGRS_ERR_PLAN_NOT_VERIFIED, 52),
      TGRS_STATUS_ROW(TGRS_ERR_INPUT_COUNT, 53),
      TGRS_STATUS_ROW(TGRS_ERR_INPUT_SIZE, 54),
      TGRS_STATUS_ROW(TGRS_ERR_OUTPUT_COUNT, 55),
      TGRS_STATUS_ROW(TGRS_ERR_OUTPUT_SIZE, 56),
      TGRS_STATUS_ROW(TGRS_ERR_UNSUPPORTED_OP, 57),
      TGRS_STATUS_ROW(TGRS_ERR_INCONSISTENT_PLAN, 58),
      TGRS_STATUS_ROW(TGRS_ERR_KERNEL_REJECTED, 59),
      TGRS_STATUS_ROW(TGRS_ERR_INDEX_OUT_OF_RANGE, 60),
      TGRS_STATUS_ROW(TGRS_ERR_UNKNOWN_MEMORY, 61),
      TGRS_STATUS_ROW(TGRS_ERR_HYDRATION_REQUIRED, 62),
      TGRS_STATUS_ROW(TGRS_ERR_ARENA_NOT_BOUND, 63),
      TGRS_STATUS_ROW(TGRS_ERR_ARENA_OVERLAP, 64),
  };
  return rows;
}

TEST(StatusNames, EveryStatusHasItsPinnedValueAndOwnDistinctName) {
  std::set<std::string> names;
  for (const StatusRow& r : AllStatuses()) {
    EXPECT_EQ(static_cast<int>(r.status), r.pinned) << r.spelling;
    const std::string name = tgrs_status_name(r.status);
    EXPECT_NE(name, "TGRS_ERR_UNKNOWN") << r.spelling;
    EXPECT_EQ(name, r.spelling);
    EXPECT_TRUE(names.insert(name).second) << name << " names two values";
    // The executor's old entry point is an alias, not a second table.
    EXPECT_STREQ(tgrs_executor_status_name(r.status), name.c_str());
  }
}

// No other value has a name, so the table above is the whole enum: a value added to
// tigris_runtime.h and named but not listed here fails this test. The scan stops at 127,
// the largest value C++ lets a tgrs_status hold while its largest enumerator is 64 (7 bits).
TEST(StatusNames, ValuesOutsideTheEnumAreUnknown) {
  std::set<int> listed;
  for (const StatusRow& r : AllStatuses()) listed.insert(r.pinned);
  for (int v = 0; v <= 127; ++v) {
    if (listed.count(v) != 0) continue;
    EXPECT_STREQ(tgrs_status_name(static_cast<tgrs_status>(v)), "TGRS_ERR_UNKNOWN") << v;
  }
}

}  // namespace
