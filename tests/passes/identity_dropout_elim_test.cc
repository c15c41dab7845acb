// identity-dropout-elim: Identity and inference Dropout disappear; public names stay.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(IdentityDropoutElim, ReadersAreRewiredToTheInput) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(ir::OpType::kRelu, "relu", {x}, "a", {4});
  ir::TensorId i = b.Op(ir::OpType::kIdentity, "id", {a}, "i", {4});
  ir::TensorId d = b.Op(ir::OpType::kDropout, "drop", {i}, "d", {4});
  b.Output(b.Op(ir::OpType::kSigmoid, "sig", {d}, "y", {4}));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Sigmoid"}));
  EXPECT_EQ(g.ops[1].inputs[0], a);
}

TEST(IdentityDropoutElim, GraphOutputKeepsItsNameWhenTheProducerIsAnOp) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(ir::OpType::kRelu, "relu", {x}, "a", {4});
  b.Output(b.Op(ir::OpType::kIdentity, "id", {a}, "out", {4}));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).name, "out");
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "out");
}

TEST(IdentityDropoutElim, GraphInputToGraphOutputBecomesACopy) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {2, 3});
  b.Output(b.Op(ir::OpType::kIdentity, "id", {x}, "out", {2, 3}));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  // Both public names survive: a Reshape to the same shape copies x into out.
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Reshape"});
  EXPECT_EQ(g.tensor(g.inputs[0]).name, "x");
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "out");
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{2, 3}));
}

TEST(IdentityDropoutElim, ConstantToGraphOutputBecomesAConstantOutput) {
  GraphBuilder b;
  ir::TensorId c = b.Floats("c", {2}, {1.0f, 2.0f});
  b.Output(b.Op(ir::OpType::kIdentity, "id", {c}, "out", {2}));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  EXPECT_TRUE(g.ops.empty());
  const ir::Tensor& out = g.tensor(g.outputs[0]);
  EXPECT_EQ(out.name, "out");
  EXPECT_TRUE(out.is_constant);
  EXPECT_EQ(out.DataAs<float>(), (std::vector<float>{1.0f, 2.0f}));
}

TEST(IdentityDropoutElim, DropoutWhoseMaskIsReadIsRejected) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId y = b.Activation("y", {4});
  ir::TensorId mask = b.Activation("mask", {4}, ir::DType::kBool);
  b.OpWithOutputs(ir::OpType::kDropout, "drop", {x}, {y, mask});
  b.Output(y);
  b.Output(mask);
  ir::Graph g = b.Take();
  try {
    IdentityDropoutElim(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp);
    EXPECT_NE(std::string(e.what()).find("drop"), std::string::npos) << e.what();
  }
}

TEST(IdentityDropoutElim, DropoutInTrainingModeIsRejected) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId ratio = b.Floats("ratio", {}, {0.5f});
  ir::TensorId training = b.Const<uint8_t>("training", {}, ir::DType::kBool, {1});
  b.Output(b.Op(ir::OpType::kDropout, "drop", {x, ratio, training}, "y", {4}));
  ir::Graph g = b.Take();
  EXPECT_THROW(IdentityDropoutElim(g), Error);
}

TEST(IdentityDropoutElim, DropoutWithUnusedMaskAndFalseTrainingModeIsRemoved) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(ir::OpType::kRelu, "relu", {x}, "a", {4});
  ir::TensorId ratio = b.Floats("ratio", {}, {0.5f});
  ir::TensorId training = b.Const<uint8_t>("training", {}, ir::DType::kBool, {0});
  ir::TensorId y = b.Activation("y", {4});
  ir::TensorId mask = b.Activation("mask", {4}, ir::DType::kBool);
  b.OpWithOutputs(ir::OpType::kDropout, "drop", {a, ratio, training}, {y, mask});
  b.Output(b.Op(ir::OpType::kTanh, "tanh", {y}, "z", {4}, Attrs({})));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Tanh"}));
  EXPECT_EQ(g.ops[1].inputs[0], a);
}

TEST(IdentityDropoutElim, CastToItsOwnDtypeIsRemovedAndOtherCastsStay) {
  // Relu -> a -> CastLike(a, like: float32) -> b -> Cast(to int32) -> y: the CastLike is an
  // Identity; the Cast changes the dtype and stays (constant folding or the verifier decide).
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(ir::OpType::kRelu, "relu", {x}, "a", {4});
  ir::TensorId like = b.Floats("like", {}, {0.0f});
  ir::TensorId c = b.Op(ir::OpType::kCastLike, "castlike", {a, like}, "c", {4});
  b.Output(b.Op(ir::OpType::kCast, "cast", {c}, "y", {4}, Attrs({}), ir::DType::kInt32));
  ir::Graph g = b.Take();

  IdentityDropoutElim(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Cast"}));
  EXPECT_EQ(g.ops[1].inputs[0], a);
}

}  // namespace
}  // namespace tigris::passes
