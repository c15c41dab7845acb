// The comparison, logic, Where and Cast kernels (runtime/kernels/logical.c) against values
// written out by hand: ONNX's definitions (and C's for NaN), broadcasting as for Add.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tgrs_kernels.h"

namespace tigris {
namespace {

using Bytes = std::vector<uint8_t>;

TEST(CompareKernel, FloatAgainstABroadcastScalarIncludingNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {-1.0f, 0.0f, 0.5f, 1.0f, nan, 2.0f};
  const std::vector<float> b = {0.5f};
  const tgrs_dims ad = {1, 1, 2, 3}, bd = {1, 1, 1, 1}, od = {1, 1, 2, 3};
  const struct {
    tgrs_compare_op op;
    Bytes want;
  } cases[] = {
      {TGRS_COMPARE_EQ, {0, 0, 1, 0, 0, 0}}, {TGRS_COMPARE_GT, {0, 0, 0, 1, 0, 1}},
      {TGRS_COMPARE_LT, {1, 1, 0, 0, 0, 0}}, {TGRS_COMPARE_GE, {0, 0, 1, 1, 0, 1}},
      {TGRS_COMPARE_LE, {1, 1, 1, 0, 0, 0}},
  };
  for (const auto& c : cases) {
    Bytes out(6, 7);
    ASSERT_EQ(tgrs_compare(c.op, TGRS_ELEM_F32, &ad, a.data(), &bd, b.data(), &od, out.data()),
              TGRS_KERNEL_OK);
    EXPECT_EQ(out, c.want) << "op " << c.op;
  }
}

TEST(CompareKernel, Int64RowAgainstColumnBroadcastsBothWays) {
  // a [2, 1] vs b [1, 3] -> [2, 3]: out[i][j] = a[i] < b[j].
  const std::vector<int64_t> a = {INT64_MIN, 5};
  const std::vector<int64_t> b = {4, 5, INT64_MAX};
  const tgrs_dims ad = {1, 1, 2, 1}, bd = {1, 1, 1, 3}, od = {1, 1, 2, 3};
  Bytes out(6);
  ASSERT_EQ(
      tgrs_compare(TGRS_COMPARE_LT, TGRS_ELEM_I64, &ad, a.data(), &bd, b.data(), &od, out.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{1, 1, 1, 0, 0, 1}));
  ASSERT_EQ(
      tgrs_compare(TGRS_COMPARE_EQ, TGRS_ELEM_I64, &ad, a.data(), &bd, b.data(), &od, out.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{0, 0, 0, 0, 1, 0}));
}

TEST(CompareKernel, BoolEqualityComparesTruthValuesAndOrderingIsRefused) {
  const Bytes a = {0, 1, 2, 0};  // 2: a true NumPy writes only by a view, still true
  const Bytes b = {0, 1, 1, 1};
  const tgrs_dims d = {1, 1, 1, 4};
  Bytes out(4);
  ASSERT_EQ(
      tgrs_compare(TGRS_COMPARE_EQ, TGRS_ELEM_BOOL, &d, a.data(), &d, b.data(), &d, out.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{1, 1, 1, 0}));
  EXPECT_EQ(
      tgrs_compare(TGRS_COMPARE_GT, TGRS_ELEM_BOOL, &d, a.data(), &d, b.data(), &d, out.data()),
      TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(CompareKernel, ShapesThatDoNotBroadcastAreRefused) {
  const std::vector<float> a(6), b(6);
  const tgrs_dims ad = {1, 1, 2, 3}, bd = {1, 1, 3, 2}, od = {1, 1, 2, 3};
  Bytes out(6);
  EXPECT_EQ(
      tgrs_compare(TGRS_COMPARE_EQ, TGRS_ELEM_F32, &ad, a.data(), &bd, b.data(), &od, out.data()),
      TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(LogicKernel, TruthTablesAndNot) {
  const Bytes p = {0, 0, 1, 1};
  const Bytes q = {0, 1, 0, 3};
  const tgrs_dims d = {1, 1, 1, 4};
  Bytes out(4);
  ASSERT_EQ(tgrs_logic(TGRS_LOGIC_AND, &d, p.data(), &d, q.data(), &d, out.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{0, 0, 0, 1}));
  ASSERT_EQ(tgrs_logic(TGRS_LOGIC_OR, &d, p.data(), &d, q.data(), &d, out.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{0, 1, 1, 1}));
  ASSERT_EQ(tgrs_logic(TGRS_LOGIC_XOR, &d, p.data(), &d, q.data(), &d, out.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{0, 1, 1, 0}));
  ASSERT_EQ(tgrs_not(4, q.data(), out.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(out, (Bytes{1, 0, 1, 0}));
}

TEST(WhereKernel, AllThreeOperandsBroadcast) {
  // cond [2, 1], x [1, 3], y scalar -> [2, 3].
  const Bytes cond = {1, 0};
  const std::vector<float> x = {1.0f, 2.0f, 3.0f};
  const std::vector<float> y = {-9.0f};
  const tgrs_dims cd = {1, 1, 2, 1}, xd = {1, 1, 1, 3}, yd = {1, 1, 1, 1}, od = {1, 1, 2, 3};
  std::vector<float> out(6);
  ASSERT_EQ(
      tgrs_where(TGRS_ELEM_F32, &cd, cond.data(), &xd, x.data(), &yd, y.data(), &od, out.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(out, (std::vector<float>{1, 2, 3, -9, -9, -9}));
}

TEST(WhereKernel, Int64AndBoolElements) {
  const Bytes cond = {1, 0, 1};
  const std::vector<int64_t> x = {INT64_MAX, 1, -2};
  const std::vector<int64_t> y = {7, INT64_MIN, 8};
  const tgrs_dims d = {1, 1, 1, 3};
  std::vector<int64_t> out(3);
  ASSERT_EQ(tgrs_where(TGRS_ELEM_I64, &d, cond.data(), &d, x.data(), &d, y.data(), &d, out.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(out, (std::vector<int64_t>{INT64_MAX, INT64_MIN, -2}));
  const Bytes bx = {1, 1, 0}, by = {0, 0, 1};
  Bytes bout(3);
  ASSERT_EQ(
      tgrs_where(TGRS_ELEM_BOOL, &d, cond.data(), &d, bx.data(), &d, by.data(), &d, bout.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(bout, (Bytes{1, 0, 0}));
}

TEST(WhereKernel, Int8CopiesCodesOrMovesThemThroughTheirTables) {
  const Bytes cond = {1, 0, 1, 0};
  const std::vector<int8_t> x = {-128, 5, 127, 0};
  const std::vector<int8_t> y = {1, -128, 2, 127};
  const tgrs_dims d = {1, 1, 1, 4};
  std::vector<int8_t> out(4);
  ASSERT_EQ(
      tgrs_where_s8(&d, cond.data(), &d, x.data(), &d, y.data(), nullptr, nullptr, &d, out.data()),
      TGRS_KERNEL_OK);
  EXPECT_EQ(out, (std::vector<int8_t>{-128, -128, 127, 127}));
  // Tables: X's negates (saturating), Y's adds 1 (saturating); entry i is code i - 128.
  std::vector<int8_t> tx(256), ty(256);
  for (int i = 0; i < 256; ++i) {
    tx[i] = static_cast<int8_t>(std::min(127, 128 - i));
    ty[i] = static_cast<int8_t>(std::min(127, i - 127));
  }
  ASSERT_EQ(tgrs_where_s8(&d, cond.data(), &d, x.data(), &d, y.data(), tx.data(), ty.data(), &d,
                          out.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(out, (std::vector<int8_t>{127, -127, -127, 127}));
  EXPECT_EQ(tgrs_where_s8(&d, cond.data(), &d, x.data(), &d, y.data(), tx.data(), nullptr, &d,
                          out.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(CastKernel, FloatToIntegersTruncatesTowardZeroAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {2.9f, -2.9f, 0.5f, -0.5f, 3e9f, -3e9f, 1e30f, nan};
  std::vector<int32_t> i32(in.size());
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_F32, TGRS_ELEM_I32, in.size(), in.data(), i32.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(i32, (std::vector<int32_t>{2, -2, 0, 0, INT32_MAX, INT32_MIN, INT32_MAX, 0}));
  std::vector<int64_t> i64(in.size());
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_F32, TGRS_ELEM_I64, in.size(), in.data(), i64.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(i64, (std::vector<int64_t>{2, -2, 0, 0, 3000000000LL, -3000000000LL, INT64_MAX, 0}));
  // Beyond int32 the kernel reads the float's bits (no libgcc __fixsfdi): whole numbers with
  // mantissas reaching either end of the 24 bits.
  const std::vector<float> big = {1099511758848.0f /* 2^40 + 2^17 */, -4611686018427387904.0f,
                                  2147483648.0f, -2147483648.0f, 16777215.0f * 274877906944.0f};
  std::vector<int64_t> big64(big.size());
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_F32, TGRS_ELEM_I64, big.size(), big.data(), big64.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(big64, (std::vector<int64_t>{1099511758848LL, -4611686018427387904LL, 2147483648LL,
                                         -2147483648LL, 16777215LL << 38}));
  Bytes b(in.size());
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_F32, TGRS_ELEM_BOOL, in.size(), in.data(), b.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(b, (Bytes{1, 1, 1, 1, 1, 1, 1, 1}));
  const std::vector<float> zeros = {0.0f, -0.0f};
  Bytes bz(2, 9);
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_F32, TGRS_ELEM_BOOL, 2, zeros.data(), bz.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(bz, (Bytes{0, 0}));
}

TEST(CastKernel, IntegersAndBools) {
  // int64 -> int32 keeps the low 32 bits (two's complement), as onnxruntime and NumPy.
  const std::vector<int64_t> wide = {1, -1, 0x100000005LL, 0x80000000LL, INT64_MIN};
  std::vector<int32_t> narrow(wide.size());
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_I64, TGRS_ELEM_I32, wide.size(), wide.data(), narrow.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(narrow, (std::vector<int32_t>{1, -1, 5, INT32_MIN, 0}));
  // int32 -> float rounds to nearest even: 2^24 + 1 is not a float.
  const std::vector<int32_t> ints = {16777217, -3};
  std::vector<float> f(2);
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_I32, TGRS_ELEM_F32, 2, ints.data(), f.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(f, (std::vector<float>{16777216.0f, -3.0f}));
  // bool -> numbers: 0 or 1 whatever the nonzero byte.
  const Bytes bools = {0, 1, 5};
  std::vector<int64_t> as64(3);
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_BOOL, TGRS_ELEM_I64, 3, bools.data(), as64.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(as64, (std::vector<int64_t>{0, 1, 1}));
  std::vector<float> asf(3);
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_BOOL, TGRS_ELEM_F32, 3, bools.data(), asf.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(asf, (std::vector<float>{0.0f, 1.0f, 1.0f}));
  const std::vector<int32_t> mixed = {0, -7, 1};
  Bytes truth(3);
  ASSERT_EQ(tgrs_cast(TGRS_ELEM_I32, TGRS_ELEM_BOOL, 3, mixed.data(), truth.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(truth, (Bytes{0, 1, 1}));
  EXPECT_EQ(tgrs_cast(static_cast<tgrs_elem_type>(9), TGRS_ELEM_F32, 3, mixed.data(), asf.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris
