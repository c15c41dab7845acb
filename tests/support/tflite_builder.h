// Builds small .tflite files for tests, with flatc's generated writer for our schema
// subset (format/tflite.fbs): the bytes are what TFLite's converter writes for the same
// tensors and ops, minus the tables we do not read.
#ifndef TIGRIS_TESTS_SUPPORT_TFLITE_BUILDER_H_
#define TIGRIS_TESTS_SUPPORT_TFLITE_BUILDER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "format/tflite_generated.h"

namespace tigris::testing {

class TfliteModelBuilder {
 public:
  using Options = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

  struct Quant {
    std::vector<float> scales;
    std::vector<int64_t> zero_points;
    int32_t axis = 0;
  };

  // Adds a tensor; returns its index. `data` empty = an activation.
  int Tensor(const std::string& name, tigris_tflite::TensorType type,
             const std::vector<int32_t>& shape, const std::vector<uint8_t>& data = {},
             const Quant* quant = nullptr);
  int FloatConstant(const std::string& name, const std::vector<int32_t>& shape,
                    const std::vector<float>& values);
  int Int32Constant(const std::string& name, const std::vector<int32_t>& shape,
                    const std::vector<int32_t>& values);

  // Adds an operator (in execution order). `options_type` names the union member that
  // `options` builds (NONE: no options).
  void Op(tigris_tflite::BuiltinOperator code, const std::vector<int32_t>& inputs,
          const std::vector<int32_t>& outputs,
          tigris_tflite::BuiltinOptions options_type = tigris_tflite::BuiltinOptions::NONE,
          Options options = nullptr);
  // A custom op (BuiltinOperator CUSTOM with a custom_code).
  void CustomOp(const std::string& custom_code, const std::vector<int32_t>& inputs,
                const std::vector<int32_t>& outputs);

  void Inputs(std::vector<int32_t> inputs) { inputs_ = std::move(inputs); }
  void Outputs(std::vector<int32_t> outputs) { outputs_ = std::move(outputs); }
  // Number of subgraphs written (the extra ones are copies: control-flow bodies).
  void Subgraphs(int count) { subgraphs_ = count; }

  std::string Bytes() const;

 private:
  struct TensorSpec {
    std::string name;
    tigris_tflite::TensorType type;
    std::vector<int32_t> shape;
    int buffer;
    bool quantized;
    Quant quant;
  };
  struct OpSpec {
    int32_t code;
    std::string custom_code;
    std::vector<int32_t> inputs, outputs;
    tigris_tflite::BuiltinOptions options_type;
    Options options;
  };
  std::vector<TensorSpec> tensors_;
  std::vector<std::vector<uint8_t>> buffers_ = {{}};  // buffer 0: the empty sentinel
  std::vector<OpSpec> ops_;
  std::vector<int32_t> inputs_, outputs_;
  int subgraphs_ = 1;
};

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_TFLITE_BUILDER_H_
