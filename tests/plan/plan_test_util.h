// Small helpers of the plan tests.
#ifndef TIGRIS_TESTS_PLAN_PLAN_TEST_UTIL_H_
#define TIGRIS_TESTS_PLAN_PLAN_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace tigris::testing {

// Runs `fn`, expecting tigris::Error with `status` whose message contains every needle.
template <typename Fn>
void ExpectError(Fn fn, Status status, std::initializer_list<std::string> needles) {
  try {
    fn();
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    for (const std::string& n : needles) {
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what() << " lacks " << n;
    }
  }
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_PLAN_PLAN_TEST_UTIL_H_
