// Errors inside libtigris.
//
// The C++ implementation reports failures by throwing tigris::Error, which carries the
// status code the C ABI will return and a message that names the node, tensor or field at
// fault. Exceptions never cross the ABI: api/ catches everything at the boundary
// (docs/errors.md explains the choice).
#ifndef TIGRIS_UTIL_ERROR_H_
#define TIGRIS_UTIL_ERROR_H_

#include <stdexcept>
#include <string>

namespace tigris {

// Mirrors tigris_status in include/tigris.h value for value (api/status.cc checks it at
// compile time). Values are pinned forever; retired ones are never reused.
enum class Status : int {
  kOk = 0,
  kInvalidArgument = 1,
  kIoError = 2,
  kEmptyModel = 3,
  kNotOnnx = 4,
  kTruncatedModel = 5,
  kInvalidModel = 6,
  kGraphCycle = 7,
  kDanglingInput = 8,
  kUnsupportedOp = 9,
  kDynamicShape = 10,
  kShapeInference = 11,
  kExternalData = 12,
  kUnsupportedDType = 13,
  kUnsupportedQuantization = 14,
  kOutOfMemory = 15,
  kInternal = 16,
  kInvalidBudget = 17,
  kSlowBudgetTooSmall = 18,
  kFlashBudgetTooSmall = 19,
  kVersionMismatch = 20,
  kDoesNotFit = 21,
  kInvalidPlan = 22,
};

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

}  // namespace tigris

#endif  // TIGRIS_UTIL_ERROR_H_
