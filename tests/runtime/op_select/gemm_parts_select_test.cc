// The runtime built with int8 GEMM and without its parts (int8_gemm_ops.h: no
// TGRS_WITH_GEMM_PARTS), on the int8 MLP 64-512-512-10 (tests/models/make_qdq_models.py).
//
// Claims: unsplit, the MLP runs with the full runtime's bytes; split by the planner's
// fdt-fan-out-fan-in (int8 GEMM parts keeping int32 sums), it fails with
// TGRS_ERR_UNSUPPORTED_OP at its first part, the first GEMM writing INT32, never misread;
// the full runtime (libtigris.so, every feature) runs that plan. A dense autoencoder
// compiled from a .tflite asks for TFLite's arithmetic at its first GEMM, which this build
// left out (TGRS_WITH_TFLITE_ROUNDING 0): refused there, never computed in ONNX's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/plan_fixture.h"
#include "runtime/reduced_runtime.h"
#include "tgrs_kernels.h" /* tgrs_rounding */
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

static_assert(TGRS_OPS_SELECTED == 1 && TGRS_WITH_GEMM_PARTS == 0 && TGRS_WITH_INT8 == 1 &&
                  TGRS_WITH_TFLITE_ROUNDING == 0,
              "built with int8_gemm_ops.h (CMakeLists.txt)");

// The first op writing an INT32 tensor: a GEMM part's raw sums; -1 when none does.
int32_t FirstPart(const tgrs_plan& plan) {
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    tgrs_plan_op op{};
    tgrs_plan_tensor out{};
    if (tgrs_plan_get_op(&plan, i, &op) == TGRS_OK && op.outputs.count == 1 &&
        tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(op.outputs.data[0]), &out) == TGRS_OK &&
        out.dtype == TGRS_DTYPE_INT32) {
      return static_cast<int32_t>(i);
    }
  }
  return -1;
}

TEST(GemmPartsSelectTest, TheUnsplitMlpRunsWithTheFullRuntimesBytes) {
  auto p = Load(Compile(TIGRIS_FDT_MLP_MODEL, uint64_t{64} << 20, TIGRIS_WEIGHTS_IN_PLACE));
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(FirstPart(p->plan), -1) << "meant to be unsplit";
  const std::vector<Bytes> inputs = Inputs(p->plan);
  const ReducedRun r = RunReduced(p->plan, inputs);
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status) << " at op " << r.stats.failed_op;
  EXPECT_EQ(r.outputs, RunFull(*p, inputs));
}

TEST(GemmPartsSelectTest, TheSplitMlpFailsAtItsFirstPart) {
  auto p = Load(Compile(TIGRIS_FDT_MLP_MODEL, 768, TIGRIS_WEIGHTS_IN_PLACE));
  ASSERT_NE(p, nullptr);
  const int32_t first = FirstPart(p->plan);
  ASSERT_GT(first, 0) << "meant to split its second layer after running its first";
  ExpectUnsupportedAt(*p, first);
}

TEST(GemmPartsSelectTest, TfliteArithmeticLeftOutIsRefusedAtTheFirstOp) {
  auto p = Load(Compile(TIGRIS_TFLITE_AUTOENCODER, uint64_t{64} << 20, TIGRIS_WEIGHTS_IN_PLACE));
  ASSERT_NE(p, nullptr);
  tgrs_plan_op op{};
  ASSERT_EQ(tgrs_plan_get_op(&p->plan, 0, &op), TGRS_OK);
  ASSERT_EQ(op.code, TGRS_OP_GEMM);
  ASSERT_EQ(op.rounding, TGRS_ROUNDING_TFLITE);
  ExpectUnsupportedAt(*p, 0);
}

}  // namespace
}  // namespace tigris::runtime_test
