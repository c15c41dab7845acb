#include "ir/op.h"

namespace tigris::ir {

std::string_view ActivationName(Activation activation) {
  switch (activation) {
    case Activation::kNone:
      return "none";
    case Activation::kRelu:
      return "relu";
    case Activation::kRelu6:
      return "relu6";
  }
  return "none";
}

}  // namespace tigris::ir
