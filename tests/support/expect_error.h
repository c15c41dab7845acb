// ExpectLoadError: the check every bad-input test makes (a named status, a message naming
// what is at fault), shared by the ONNX and TFLite loader tests.
#ifndef TIGRIS_TESTS_SUPPORT_EXPECT_ERROR_H_
#define TIGRIS_TESTS_SUPPORT_EXPECT_ERROR_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/error.h"

namespace tigris::testing {

// Runs `load`, expecting tigris::Error with `status` and a message that contains every
// one of `needles` (the node, tensor, field or path at fault).
template <typename F>
void ExpectLoadError(F&& load, Status status, const std::vector<std::string>& needles) {
  try {
    load();
    ADD_FAILURE() << "expected an error with status " << static_cast<int>(status);
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.status()), static_cast<int>(status)) << e.what();
    for (const std::string& n : needles) {
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos)
          << "message '" << e.what() << "' does not mention '" << n << "'";
    }
  }
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_EXPECT_ERROR_H_
