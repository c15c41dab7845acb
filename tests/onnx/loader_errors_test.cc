// Every kind of bad input gets its own status and a message naming what is at fault
// (onnx_loader.h; util/error.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "loader_test_util.h"
#include "support/test_env.h"

namespace tigris::testing {
namespace {

using onnx_import::LoadOnnxBytes;
using onnx_import::LoadOnnxFile;
using onnx_import::LoadOptions;

ir::Graph LoadString(const std::string& bytes, const std::string& hint = "bytes") {
  return LoadOnnxBytes(bytes.data(), bytes.size(), LoadOptions{}, hint);
}

std::string TempPath(const std::string& leaf) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "tigris_onnx_tests";
  std::filesystem::create_directories(dir);
  return (dir / leaf).string();
}

// x -> Relu -> y: the smallest valid model, for tests that break one thing in it.
OnnxModelBuilder TinyModel(const std::string& name = "tiny") {
  OnnxModelBuilder b(name, 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y");
  return b;
}

TEST(LoaderErrors, EmptyFileIsEmptyModel) {
  std::string path = TempPath("empty.onnx");
  std::ofstream(path, std::ios::binary).close();
  ExpectLoadError([&] { LoadOnnxFile(path, {}); }, Status::kEmptyModel, {path});
}

TEST(LoaderErrors, EmptyBytesAreEmptyModel) {
  ExpectLoadError([&] { LoadString("", "mem"); }, Status::kEmptyModel, {"mem"});
}

TEST(LoaderErrors, MissingFileIsIoErrorNamingPath) {
  std::string path = TempPath("does_not_exist.onnx");
  ExpectLoadError([&] { LoadOnnxFile(path, {}); }, Status::kIoError, {path});
}

TEST(LoaderErrors, DirectoryIsIoError) {
  std::string dir = std::filesystem::temp_directory_path().string();
  ExpectLoadError([&] { LoadOnnxFile(dir, {}); }, Status::kIoError, {dir});
}

TEST(LoaderErrors, TextIsNotOnnx) {
  // 'n' = 0x6E = field 13, wire type 6: no such wire type exists.
  ExpectLoadError([&] { LoadString("not an onnx model\n"); }, Status::kNotOnnx,
                  {"wire type 6", "byte 0"});
}

TEST(LoaderErrors, FieldNumberZeroIsNotOnnx) {
  ExpectLoadError([&] { LoadString(std::string("\x00\x01", 2)); }, Status::kNotOnnx,
                  {"field number 0"});
}

TEST(LoaderErrors, GraphFieldWithWrongWireTypeIsNotOnnx) {
  // 0x38 = field 7 (graph), wire type 0 (varint); graph must be length-delimited (2).
  ExpectLoadError([&] { LoadString("\x38\x01"); }, Status::kNotOnnx, {"field 7"});
}

TEST(LoaderErrors, WellFormedProtobufWithoutGraphIsNotOnnx) {
  // 0x08 0x07 = field 1 (ir_version) = 7, and nothing else.
  ExpectLoadError([&] { LoadString("\x08\x07"); }, Status::kNotOnnx, {"graph"});
}

TEST(LoaderErrors, RandomBytesNeverCrash) {
  // Whatever random bytes look like, the answer is one of the two "not a model" statuses.
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 200; ++trial) {
    std::string bytes(1 + rng() % 300, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
    try {
      LoadString(bytes);
      ADD_FAILURE() << "random bytes loaded as a model (trial " << trial << ")";
    } catch (const Error& e) {
      EXPECT_TRUE(e.status() == Status::kNotOnnx || e.status() == Status::kTruncatedModel)
          << "trial " << trial << ": " << static_cast<int>(e.status()) << " " << e.what();
    }
  }
}

// mnist8.onnx's top level (read with a protobuf dump): ir_version at byte 0,
// producer_name at 2 (4 bytes of data from 4), producer_version at 8, domain at 15,
// model_version at 24, graph key at 26 with a 3-byte length (26418) so its data spans
// bytes 30..26447, opset_import at 26448..26453 (26454 bytes in all).
TEST(LoaderErrors, TruncatedRealModel) {
  std::string bytes = ReadFile(SharedOnnxModel("mnist8.onnx"));
  ASSERT_EQ(bytes.size(), 26454u);
  for (size_t cut : {size_t{1}, size_t{5}, size_t{27}, size_t{13227}, size_t{26447}}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    ExpectLoadError([&] { LoadString(bytes.substr(0, cut), "mnist8"); }, Status::kTruncatedModel,
                    {"mnist8", "truncated"});
  }
  // Cut exactly before the graph: well-formed protobuf, no graph.
  ExpectLoadError([&] { LoadString(bytes.substr(0, 26)); }, Status::kNotOnnx, {"graph"});
  // Cut exactly after the graph: a model that lost its opset_import.
  ExpectLoadError([&] { LoadString(bytes.substr(0, 26448)); }, Status::kInvalidModel,
                  {"opset_import"});
}

TEST(LoaderErrors, GraphWithoutNodesIsInvalidModel) {
  OnnxModelBuilder b("hollow", 13);
  b.Input("x", {1});
  b.Output("x");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kInvalidModel, {"hollow", "no nodes"});
}

TEST(LoaderErrors, MissingDefaultOpsetIsInvalidModel) {
  OnnxModelBuilder b = TinyModel();
  b.model().clear_opset_import();
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kInvalidModel, {"opset_import"});
}

TEST(LoaderErrors, UnknownOpIsUnsupportedOpNamingNodeAndModel) {
  OnnxModelBuilder b("foo", 14);
  b.Input("x", {1, 2, 3});
  b.Node("Trilu", {"x"}, {"y"}, "trilu_1").Attr("upper", 0);
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kUnsupportedOp,
                  {"unsupported op 'Trilu' at node 'trilu_1' in model 'foo'"});
}

TEST(LoaderErrors, CustomDomainOpIsUnsupported) {
  OnnxModelBuilder b("foo", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"}, "fused", "com.microsoft");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kUnsupportedOp,
                  {"'Relu'", "com.microsoft", "node 'fused'", "model 'foo'"});
}

TEST(LoaderErrors, IrOnlyOpNameIsUnsupported) {
  OnnxModelBuilder b("foo", 13);
  b.Input("x", {1, 4});
  b.Node("Relu6", {"x"}, {"y"}, "r6");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kUnsupportedOp, {"Relu6", "r6"});
}

TEST(LoaderErrors, CycleNamesANodeOnIt) {
  // a = Relu(x + c), c = Relu(a): a and c feed each other.
  OnnxModelBuilder b("loop", 13);
  b.Input("x", {1, 4});
  b.Node("Add", {"x", "c"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"a"}, "relu_a");
  b.Node("Relu", {"a"}, {"c"}, "relu_c");
  b.Output("a");
  try {
    LoadBuilt(b);
    ADD_FAILURE() << "cycle not detected";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kGraphCycle);
    std::string m = e.what();
    bool names_cycle_node = m.find("'add'") != std::string::npos ||
                            m.find("'relu_a'") != std::string::npos ||
                            m.find("'relu_c'") != std::string::npos;
    EXPECT_TRUE(names_cycle_node) << m;
  }
}

TEST(LoaderErrors, CycleBehindAValidPrefixIsDetected) {
  // relu0 is fine; add/relu_c form a cycle downstream of it.
  OnnxModelBuilder b("loop2", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"r"}, "relu0");
  b.Node("Add", {"r", "c"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"c"}, "relu_c");
  b.Output("s");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kGraphCycle, {"loop2", "cycle"});
}

TEST(LoaderErrors, DanglingInputNamesNodeAndTensor) {
  OnnxModelBuilder b("dangle", 13);
  b.Input("x", {1, 4});
  b.Node("Add", {"x", "ghost"}, {"y"}, "adder");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kDanglingInput, {"'adder'", "'ghost'"});
}

TEST(LoaderErrors, DanglingGraphOutput) {
  OnnxModelBuilder b = TinyModel();
  b.Output("nowhere");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kDanglingInput, {"'nowhere'"});
}

TEST(LoaderErrors, DuplicateProducerIsInvalidModel) {
  OnnxModelBuilder b("dup", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"}, "first");
  b.Node("Sigmoid", {"x"}, {"y"}, "second");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kInvalidModel, {"'y'", "'first'", "'second'"});
}

TEST(LoaderErrors, NodeOverwritingAnInitializerIsInvalidModel) {
  OnnxModelBuilder b = TinyModel();
  b.Initializer("y", {1}, Floats{1.0f});
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kInvalidModel, {"'y'", "'relu'"});
}

TEST(LoaderErrors, SymbolicDimWithoutDefaultIsDynamicShape) {
  OnnxModelBuilder b("dyn", 13);
  b.Input("x", {"batch", 4});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y");
  LoadOptions options;
  options.default_dim = 0;
  ExpectLoadError([&] { LoadBuilt(b, options); }, Status::kDynamicShape,
                  {"input 'x'", "dimension 0", "'batch'"});
}

TEST(LoaderErrors, InputWithoutShapeIsDynamicShape) {
  OnnxModelBuilder b("noshape", 13);
  b.InputWithoutShape("x");
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kDynamicShape, {"input 'x'"});
}

TEST(LoaderErrors, UnknownInputShapesNameIsInvalidArgument) {
  LoadOptions options;
  options.input_shapes["not_an_input"] = {1, 4};
  ExpectLoadError([&] { LoadBuilt(TinyModel(), options); }, Status::kInvalidArgument,
                  {"'not_an_input'", "'x'"});
}

TEST(LoaderErrors, NegativeDefaultDimIsInvalidArgument) {
  LoadOptions options;
  options.default_dim = -1;
  ExpectLoadError([&] { LoadBuilt(TinyModel(), options); }, Status::kInvalidArgument,
                  {"default_dim"});
}

TEST(LoaderErrors, UnsupportedInputDType) {
  OnnxModelBuilder b("strings", 13);
  b.Input("x", {1}, onnx::TensorProto::STRING);
  b.Node("Identity", {"x"}, {"y"}, "id");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kUnsupportedDType, {"'x'", "STRING"});
}

TEST(LoaderErrors, InitializerWithWrongByteCountIsInvalidModel) {
  OnnxModelBuilder b = TinyModel();
  b.Initializer("w", {2, 2}, Floats{1.0f, 2.0f, 3.0f});  // 4 elements declared, 3 given
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kInvalidModel, {"'w'", "16 bytes"});
}

TEST(LoaderErrors, UnresolvableReshapeNamesNode) {
  // The target comes from a graph input: no static value exists.
  OnnxModelBuilder b("dynreshape", 13);
  b.Input("x", {2, 6});
  b.Input("target", {2}, onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kShapeInference, {"'reshape'", "target"});
}

TEST(LoaderErrors, ConvChannelMismatchNamesNode) {
  OnnxModelBuilder b("badconv", 13);
  b.Input("x", {1, 3, 8, 8});
  b.Initializer("w", {4, 2, 3, 3}, Floats(72, 0.0f));  // 2 input channels, input has 3
  b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kShapeInference, {"'conv'", "channels"});
}

TEST(LoaderErrors, DeclaredShapeMismatchNamesTensorAndBothShapes) {
  // Relu keeps 1x4; the model claims 1x5 for its output.
  OnnxModelBuilder b("liar", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y", {1, 5});
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kShapeInference, {"'y'", "1x4", "1x5"});
}

TEST(LoaderErrors, DeclaredSymbolicDimIsCheckedAfterPinning) {
  // batch is pinned to 2 via dims; the output declares "batch" too, which must be 2.
  OnnxModelBuilder b("sym", 13);
  b.Input("x", {"batch", 4});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y", {"batch", 4});
  LoadOptions options;
  options.dims["batch"] = 2;
  ir::Graph g = LoadBuilt(b, options);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{2, 4}));
  // An override of the input to 3x4 while the output still says 'batch' = 2: mismatch.
  options.input_shapes["x"] = {3, 4};
  ExpectLoadError([&] { LoadBuilt(b, options); }, Status::kShapeInference, {"'y'", "3x4", "2x4"});
}

}  // namespace
}  // namespace tigris::testing

namespace tigris::testing {
namespace {

// Found by fuzz_onnx (fuzz/regressions/onnx/shape-product-overflow.onnx): extents whose
// product overflows int64 reached the shape arithmetic. Every shape the loader stores is now
// held to 2^32 elements (ir::WithinTensorLimits), wherever it comes from.
TEST(LoaderErrors, ShapesBeyondTwoToThe32ElementsAreRejected) {
  OnnxModelBuilder declared("huge_input", 13);
  declared.Input("x", {1, int64_t{1} << 20, int64_t{1} << 20, 8});
  declared.Node("Relu", {"x"}, {"y"}, "relu");
  declared.Output("y");
  ExpectLoadError([&] { LoadString(declared.Bytes()); }, Status::kInvalidModel,
                  {"input 'x'", "more than 2^32 elements"});

  // A zero extent does not excuse the others: their partial products still overflow.
  OnnxModelBuilder zero("zero_and_huge", 13);
  zero.Input("x", {0, int64_t{1} << 40, int64_t{1} << 40});
  zero.Node("Relu", {"x"}, {"y"}, "relu");
  zero.Output("y");
  ExpectLoadError([&] { LoadString(zero.Bytes()); }, Status::kInvalidModel,
                  {"more than 2^32 elements"});

  // A computed shape: Reshape to a constant 2^40 x 2^40 target.
  OnnxModelBuilder reshape("huge_reshape", 13);
  reshape.Input("x", {1, 4});
  reshape.Initializer("t", {2}, Ints{int64_t{1} << 40, int64_t{1} << 40});
  reshape.Node("Reshape", {"x", "t"}, {"y"}, "reshape");
  reshape.Output("y");
  ExpectLoadError([&] { LoadString(reshape.Bytes()); }, Status::kShapeInference,
                  {"reshape", "more than 2^32 elements"});
}

// Found by fuzz_onnx (fuzz/regressions/onnx/split-sizes-sum-overflow.onnx): Split sizes
// near 2^62 overflowed their sum. They are held to the axis extent as they are added.
TEST(LoaderErrors, SplitSizesBeyondTheAxisAreRejectedWithoutOverflow) {
  OnnxModelBuilder b("huge_split", 13);
  b.Input("x", {1, 6});
  b.Initializer("sizes", Ints{2}, Ints{int64_t{6052837899185946625}, int64_t{7310309148916081010}});
  b.Node("Split", {"x", "sizes"}, {"a", "c"}, "split").Attr("axis", 1);
  b.Output("a");
  b.Output("c");
  ExpectLoadError([&] { LoadString(b.Bytes()); }, Status::kShapeInference,
                  {"split", "add up to more than the 6 entries of axis 1"});
}

// Found by fuzz_onnx (fuzz/regressions/onnx/shape-value-mul-overflow.onnx): static shape
// arithmetic (Shape -> Mul -> Reshape) overflowed int64. An overflowing value is no shape
// value, so the Reshape's target is not known statically.
TEST(LoaderErrors, ShapeArithmeticThatOverflowsIsNotAStaticShape) {
  OnnxModelBuilder b("huge_shape_math", 13);
  b.Input("x", {1, 4});
  b.Initializer("k", Ints{2}, Ints{int64_t{1} << 62, int64_t{1} << 62});
  b.Node("Shape", {"x"}, {"s"}, "shape");
  b.Node("Mul", {"s", "k"}, {"t"}, "times");
  b.Node("Reshape", {"x", "t"}, {"y"}, "reshape");
  b.Output("y");
  ExpectLoadError([&] { LoadString(b.Bytes()); }, Status::kShapeInference,
                  {"reshape", "known statically"});
}

}  // namespace
}  // namespace tigris::testing
