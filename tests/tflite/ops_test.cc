// The .tflite ops computed as TFLite defines them, in its channels-last layout, by plain
// loops here (the reference), against the plan the front end compiles, run by the C99
// runtime. Float32, so every difference is a layout, padding, axis or order mistake of the
// importer, not rounding. The int8 path is held to tf2onnx + onnxruntime and TFLM on the
// shared models (tests/e2e/test_tflite.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "support/tflite_builder.h"
#include "tigris.h"

namespace tigris::testing {
namespace {

namespace fb = ::tigris_tflite;
using Shape = std::vector<int32_t>;

// An NHWC (or any row-major) float tensor.
struct T {
  Shape shape;
  std::vector<float> v;
  float& at(int n, int h, int w, int c) {
    return v[((static_cast<size_t>(n) * shape[1] + h) * shape[2] + w) * shape[3] + c];
  }
  float at(int n, int h, int w, int c) const {
    return v[((static_cast<size_t>(n) * shape[1] + h) * shape[2] + w) * shape[3] + c];
  }
};

T Random(const Shape& shape, uint32_t seed) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  T t{shape, std::vector<float>(n)};
  for (float& x : t.v) x = u(rng);
  return t;
}

T Zeros(const Shape& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return T{shape, std::vector<float>(n, 0.0f)};
}

// TFLite's SAME: ceil(in / stride) outputs, padding before = total / 2.
int PadBefore(bool same, int in, int k, int s, int d) {
  if (!same) return 0;
  const int out = (in + s - 1) / s;
  return std::max((out - 1) * s + (k - 1) * d + 1 - in, 0) / 2;
}
int OutSize(bool same, int in, int k, int s, int d) {
  return same ? (in + s - 1) / s : (in - ((k - 1) * d + 1)) / s + 1;
}

// groups = 1: w [O, KH, KW, I]; depthwise: w [1, KH, KW, C * M].
T Conv(const T& x, const T& w, const std::vector<float>& b, int s, int d, bool same, bool depthwise,
       float lo, float hi) {
  const int kh = w.shape[1], kw = w.shape[2], c = x.shape[3];
  const int oc = depthwise ? w.shape[3] : w.shape[0];
  const int oh = OutSize(same, x.shape[1], kh, s, d), ow = OutSize(same, x.shape[2], kw, s, d);
  const int ph = PadBefore(same, x.shape[1], kh, s, d), pw = PadBefore(same, x.shape[2], kw, s, d);
  T y = Zeros({1, oh, ow, oc});
  for (int o = 0; o < oc; ++o) {
    for (int i = 0; i < oh; ++i) {
      for (int j = 0; j < ow; ++j) {
        double acc = b[static_cast<size_t>(o)];
        for (int p = 0; p < kh; ++p) {
          for (int q = 0; q < kw; ++q) {
            const int r = i * s - ph + p * d, col = j * s - pw + q * d;
            if (r < 0 || r >= x.shape[1] || col < 0 || col >= x.shape[2]) continue;
            if (depthwise) {
              acc += x.at(0, r, col, o / (oc / c)) * w.at(0, p, q, o);
            } else {
              for (int ci = 0; ci < c; ++ci) acc += x.at(0, r, col, ci) * w.at(o, p, q, ci);
            }
          }
        }
        y.at(0, i, j, o) = std::min(hi, std::max(lo, static_cast<float>(acc)));
      }
    }
  }
  return y;
}

T Pool(const T& x, int k, int s, bool same, bool max) {
  const int oh = OutSize(same, x.shape[1], k, s, 1), ow = OutSize(same, x.shape[2], k, s, 1);
  const int ph = PadBefore(same, x.shape[1], k, s, 1), pw = PadBefore(same, x.shape[2], k, s, 1);
  T y = Zeros({1, oh, ow, x.shape[3]});
  for (int c = 0; c < x.shape[3]; ++c) {
    for (int i = 0; i < oh; ++i) {
      for (int j = 0; j < ow; ++j) {
        double acc = max ? -INFINITY : 0.0;
        int count = 0;
        for (int p = 0; p < k; ++p) {
          for (int q = 0; q < k; ++q) {
            const int r = i * s - ph + p, col = j * s - pw + q;
            if (r < 0 || r >= x.shape[1] || col < 0 || col >= x.shape[2]) continue;
            acc = max ? std::max<double>(acc, x.at(0, r, col, c)) : acc + x.at(0, r, col, c);
            ++count;
          }
        }
        y.at(0, i, j, c) = static_cast<float>(max ? acc : acc / count);  // TFLite: valid taps
      }
    }
  }
  return y;
}

// Loads the bytes, plans at 64 MiB, emits, runs once with `inputs` (file layout).
std::vector<std::vector<float>> CompileAndRun(const std::string& bytes, std::vector<T> inputs,
                                              const std::vector<size_t>& output_sizes) {
  tigris_model* model = nullptr;
  EXPECT_EQ(tigris_load_from_memory(&model, bytes.data(), bytes.size(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  if (!model) return {};
  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  options.fast_bytes = 64 << 20;
  tigris_execution_plan* plan = nullptr;
  EXPECT_EQ(tigris_plan(&plan, model, &options), TIGRIS_OK) << tigris_last_error();
  void* plan_bytes = nullptr;
  size_t plan_size = 0;
  EXPECT_EQ(tigris_emit(&plan_bytes, &plan_size, plan), TIGRIS_OK) << tigris_last_error();
  std::vector<tigris_run_io> in, out;
  for (T& t : inputs) {
    in.push_back({TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, t.v.data(), t.v.size() * 4});
  }
  std::vector<std::vector<float>> results;
  for (size_t n : output_sizes) results.emplace_back(n, NAN);
  for (auto& r : results) {
    out.push_back({TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, r.data(), r.size() * 4});
  }
  EXPECT_EQ(tigris_run_plan(plan_bytes, plan_size, nullptr, in.data(), in.size(), out.data(),
                            out.size(), nullptr),
            TIGRIS_OK)
      << tigris_last_error();
  tigris_free(plan_bytes);
  tigris_plan_free(plan);
  tigris_model_free(model);
  return results;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::fabs(want[i])))
        << what << " element " << i;
  }
}

flatbuffers::Offset<void> ConvOptions(flatbuffers::FlatBufferBuilder& b, fb::Padding padding, int s,
                                      int d, fb::ActivationFunctionType act) {
  return fb::CreateConv2DOptions(b, padding, s, s, act, d, d).Union();
}

// CONV_2D (SAME, stride 2, dilation 2, RELU6) -> DEPTHWISE_CONV_2D (VALID, multiplier 2)
// -> AVERAGE_POOL_2D (SAME: the edge windows divide by their valid taps) -> MAX_POOL_2D
// -> FULLY_CONNECTED over the channels-last flattening (RELU) -> SOFTMAX.
TEST(TfliteOps, ConvolutionsPoolsAndDenseFollowTflitesLayout) {
  const T x = Random({1, 11, 10, 3}, 1);
  const T w1 = Random({4, 3, 3, 3}, 2), w2 = Random({1, 3, 3, 8}, 3), w3 = Random({5, 16}, 4);
  const std::vector<float> b1 = Random({4}, 5).v, b2 = Random({8}, 6).v, b3 = Random({5}, 7).v;

  const T h1 = Conv(x, w1, b1, 2, 2, true, false, 0.0f, 6.0f);            // [1, 6, 5, 4]
  const T h2 = Conv(h1, w2, b2, 1, 1, false, true, -INFINITY, INFINITY);  // [1, 4, 3, 8]
  const T h3 = Pool(h2, 2, 1, true, false);                               // [1, 4, 3, 8]
  const T h4 = Pool(h3, 3, 1, false, true);                               // [1, 2, 1, 8]
  std::vector<float> logits(5);
  float top = -INFINITY;
  for (int o = 0; o < 5; ++o) {
    double acc = b3[static_cast<size_t>(o)];
    for (int i = 0; i < 16; ++i)
      acc += h4.v[static_cast<size_t>(i)] * w3.v[static_cast<size_t>(o * 16 + i)];
    logits[static_cast<size_t>(o)] = std::max(0.0f, static_cast<float>(acc));
    top = std::max(top, logits[static_cast<size_t>(o)]);
  }
  double sum = 0;
  for (float& l : logits) sum += (l = std::exp(l - top));
  for (float& l : logits) l = static_cast<float>(l / sum);

  TfliteModelBuilder b;
  const int tx = b.Tensor("x", fb::TensorType::FLOAT32, x.shape);
  const int tw1 = b.FloatConstant("w1", w1.shape, w1.v);
  const int tb1 = b.FloatConstant("b1", {4}, b1);
  const int th1 = b.Tensor("h1", fb::TensorType::FLOAT32, {1, 6, 5, 4});
  const int tw2 = b.FloatConstant("w2", w2.shape, w2.v);
  const int tb2 = b.FloatConstant("b2", {8}, b2);
  const int th2 = b.Tensor("h2", fb::TensorType::FLOAT32, h2.shape);
  const int th3 = b.Tensor("h3", fb::TensorType::FLOAT32, h3.shape);
  const int th4 = b.Tensor("h4", fb::TensorType::FLOAT32, h4.shape);
  const int tw3 = b.FloatConstant("w3", w3.shape, w3.v);
  const int tb3 = b.FloatConstant("b3", {5}, b3);
  const int th5 = b.Tensor("h5", fb::TensorType::FLOAT32, {1, 5});
  const int ty = b.Tensor("y", fb::TensorType::FLOAT32, {1, 5});
  b.Op(fb::BuiltinOperator::CONV_2D, {tx, tw1, tb1}, {th1}, fb::BuiltinOptions::Conv2DOptions,
       [](auto& fbb) {
         return ConvOptions(fbb, fb::Padding::SAME, 2, 2, fb::ActivationFunctionType::RELU6);
       });
  b.Op(fb::BuiltinOperator::DEPTHWISE_CONV_2D, {th1, tw2, tb2}, {th2},
       fb::BuiltinOptions::DepthwiseConv2DOptions, [](auto& fbb) {
         return fb::CreateDepthwiseConv2DOptions(fbb, fb::Padding::VALID, 1, 1, 2).Union();
       });
  b.Op(fb::BuiltinOperator::AVERAGE_POOL_2D, {th2}, {th3}, fb::BuiltinOptions::Pool2DOptions,
       [](auto& fbb) {
         return fb::CreatePool2DOptions(fbb, fb::Padding::SAME, 1, 1, 2, 2).Union();
       });
  b.Op(fb::BuiltinOperator::MAX_POOL_2D, {th3}, {th4}, fb::BuiltinOptions::Pool2DOptions,
       [](auto& fbb) {
         return fb::CreatePool2DOptions(fbb, fb::Padding::VALID, 1, 1, 3, 3).Union();
       });
  b.Op(fb::BuiltinOperator::FULLY_CONNECTED, {th4, tw3, tb3}, {th5},
       fb::BuiltinOptions::FullyConnectedOptions, [](auto& fbb) {
         return fb::CreateFullyConnectedOptions(fbb, fb::ActivationFunctionType::RELU).Union();
       });
  b.Op(fb::BuiltinOperator::SOFTMAX, {th5}, {ty}, fb::BuiltinOptions::SoftmaxOptions,
       [](auto& fbb) { return fb::CreateSoftmaxOptions(fbb, 1.0f).Union(); });
  b.Inputs({tx});
  b.Outputs({ty, th2});
  const auto got = CompileAndRun(b.Bytes(), {x}, {5, h2.v.size()});
  ASSERT_EQ(got.size(), 2u);
  ExpectNear(got[1], h2.v, "depthwise output (channels-last)");
  ExpectNear(got[0], logits, "softmax output");
}

// A rank-4 tensor whose element (n, h, w, c) is f(h, w, c) (n = 0).
template <typename F>
T Make4(const Shape& shape, F f) {
  T t = Zeros(shape);
  for (int h = 0; h < shape[1]; ++h) {
    for (int w = 0; w < shape[2]; ++w) {
      for (int c = 0; c < shape[3]; ++c) t.at(0, h, w, c) = f(h, w, c);
    }
  }
  return t;
}

float HardSwish(float v) { return v * std::min(6.0f, std::max(0.0f, v + 3.0f)) / 6.0f; }

// TRANSPOSE -> RESHAPE (which reorders differently in the two layouts) -> PAD -> STRIDED_SLICE
// -> MUL by a [C] constant -> CONCATENATION on C -> SPLIT on C -> ADD (RELU), LEAKY_RELU ->
// RESIZE_NEAREST_NEIGHBOR (asymmetric; half-pixel at a non-integer scale) -> MEAN over H, W
// -> LOGISTIC, and a STRIDED_SLICE that drops an axis -> HARD_SWISH. Four outputs of ranks
// 2, 3 and 4.
TEST(TfliteOps, DataMovementAxesFollowTflitesLayout) {
  const T x = Random({1, 4, 5, 6}, 11);
  const std::vector<float> scale = Random({6}, 12).v;
  const T t1 = Make4({1, 5, 4, 6}, [&](int a, int b, int c) { return x.at(0, b, a, c); });
  const T t2{{1, 10, 2, 6}, t1.v};  // a reshape keeps the row-major order of the file's layout
  const T t3 = Make4({1, 11, 4, 8}, [&](int h, int w, int c) {
    return h >= 1 && w < 2 && c >= 1 && c < 7 ? t2.at(0, h - 1, w, c - 1) : 0.0f;
  });
  const T t4 =
      Make4({1, 5, 4, 6}, [&](int h, int w, int c) { return t3.at(0, 1 + 2 * h, w, 2 + c); });
  const T t5 =
      Make4({1, 5, 4, 6}, [&](int h, int w, int c) { return t4.at(0, h, w, c) * scale[c]; });
  const T t6 = Make4({1, 5, 4, 12}, [&](int h, int w, int c) {
    return c < 6 ? t5.at(0, h, w, c) : t4.at(0, h, w, c - 6);
  });
  auto part = [&](int k) {
    return Make4({1, 5, 4, 4}, [&](int h, int w, int c) { return t6.at(0, h, w, 4 * k + c); });
  };
  const T p0 = part(0), p1 = part(1), p2 = part(2);
  const T t8 = Make4({1, 5, 4, 4}, [&](int h, int w, int c) {
    return std::max(0.0f, p0.at(0, h, w, c) + p2.at(0, h, w, c));
  });
  const T t9 = Make4({1, 5, 4, 4}, [&](int h, int w, int c) {
    const float v = p1.at(0, h, w, c);
    return v < 0 ? 0.2f * v : v;
  });
  const T t10 =
      Make4({1, 10, 8, 4}, [&](int h, int w, int c) { return t8.at(0, h / 2, w / 2, c); });
  // half_pixel_centers: source floor((y + 0.5) * in / out), clamped.
  const T t11 = Make4({1, 7, 6, 4}, [&](int h, int w, int c) {
    const int sh = std::min(4, static_cast<int>(std::floor((h + 0.5f) * 5.0f / 7.0f)));
    const int sw = std::min(3, static_cast<int>(std::floor((w + 0.5f) * 4.0f / 6.0f)));
    return t9.at(0, sh, sw, c);
  });
  std::vector<float> t14(4, 0.0f);
  for (int c = 0; c < 4; ++c) {
    double sum = 0;
    for (int h = 0; h < 10; ++h) {
      for (int w = 0; w < 8; ++w) sum += t10.at(0, h, w, c);
    }
    t14[static_cast<size_t>(c)] = static_cast<float>(1.0 / (1.0 + std::exp(-sum / 80.0)));
  }
  std::vector<float> t16;  // t10[0, 3, :, :], hard-swished
  for (int w = 0; w < 8; ++w) {
    for (int c = 0; c < 4; ++c) t16.push_back(HardSwish(t10.at(0, 3, w, c)));
  }

  using BO = fb::BuiltinOptions;
  using Op = fb::BuiltinOperator;
  const auto F32 = fb::TensorType::FLOAT32;
  TfliteModelBuilder b;
  const int tx = b.Tensor("x", F32, x.shape);
  const int n1 = b.Tensor("t1", F32, t1.shape), n2 = b.Tensor("t2", F32, t2.shape);
  const int n3 = b.Tensor("t3", F32, t3.shape), n4 = b.Tensor("t4", F32, t4.shape);
  const int n5 = b.Tensor("t5", F32, t5.shape), n6 = b.Tensor("t6", F32, t6.shape);
  const int q0 = b.Tensor("p0", F32, p0.shape), q1 = b.Tensor("p1", F32, p1.shape);
  const int q2 = b.Tensor("p2", F32, p2.shape);
  const int n8 = b.Tensor("t8", F32, t8.shape), n9 = b.Tensor("t9", F32, t9.shape);
  const int n10 = b.Tensor("t10", F32, t10.shape), n11 = b.Tensor("t11", F32, t11.shape);
  const int n12 = b.Tensor("t12", F32, {1, 4}), n14 = b.Tensor("t14", F32, {1, 4});
  const int n13 = b.Tensor("t13", F32, {1, 8, 4}), n16 = b.Tensor("t16", F32, {1, 8, 4});
  b.Op(Op::TRANSPOSE, {tx, b.Int32Constant("perm", {4}, {0, 2, 1, 3})}, {n1});
  b.Op(Op::RESHAPE, {n1, b.Int32Constant("shape", {4}, {1, -1, 2, 6})}, {n2});
  b.Op(Op::PAD, {n2, b.Int32Constant("pads", {4, 2}, {0, 0, 1, 0, 0, 2, 1, 1})}, {n3});
  b.Op(Op::STRIDED_SLICE,
       {n3, b.Int32Constant("begin", {4}, {0, 1, 0, 2}), b.Int32Constant("end", {4}, {1, 11, 4, 8}),
        b.Int32Constant("strides", {4}, {1, 2, 1, 1})},
       {n4}, BO::StridedSliceOptions,
       [](auto& fbb) { return fb::CreateStridedSliceOptions(fbb).Union(); });
  b.Op(Op::MUL, {n4, b.FloatConstant("scale", {6}, scale)}, {n5});
  b.Op(Op::CONCATENATION, {n5, n4}, {n6}, BO::ConcatenationOptions,
       [](auto& fbb) { return fb::CreateConcatenationOptions(fbb, -1).Union(); });
  b.Op(Op::SPLIT, {b.Int32Constant("axis", {}, {3}), n6}, {q0, q1, q2}, BO::SplitOptions,
       [](auto& fbb) { return fb::CreateSplitOptions(fbb, 3).Union(); });
  b.Op(Op::ADD, {q0, q2}, {n8}, BO::AddOptions, [](auto& fbb) {
    return fb::CreateAddOptions(fbb, fb::ActivationFunctionType::RELU).Union();
  });
  b.Op(Op::LEAKY_RELU, {q1}, {n9}, BO::LeakyReluOptions,
       [](auto& fbb) { return fb::CreateLeakyReluOptions(fbb, 0.2f).Union(); });
  b.Op(Op::RESIZE_NEAREST_NEIGHBOR, {n8, b.Int32Constant("size10", {2}, {10, 8})}, {n10});
  b.Op(Op::RESIZE_NEAREST_NEIGHBOR, {n9, b.Int32Constant("size7", {2}, {7, 6})}, {n11},
       BO::ResizeNearestNeighborOptions,
       [](auto& fbb) { return fb::CreateResizeNearestNeighborOptions(fbb, false, true).Union(); });
  b.Op(Op::MEAN, {n10, b.Int32Constant("hw", {2}, {1, 2})}, {n12}, BO::ReducerOptions,
       [](auto& fbb) { return fb::CreateReducerOptions(fbb, false).Union(); });
  b.Op(Op::LOGISTIC, {n12}, {n14});
  b.Op(Op::STRIDED_SLICE,
       {n10, b.Int32Constant("begin3", {4}, {0, 3, 0, 0}),
        b.Int32Constant("end3", {4}, {1, 4, 8, 4}), b.Int32Constant("ones", {4}, {1, 1, 1, 1})},
       {n13}, BO::StridedSliceOptions,
       [](auto& fbb) { return fb::CreateStridedSliceOptions(fbb, 0, 0, 0, 0, 2).Union(); });
  b.Op(Op::HARD_SWISH, {n13}, {n16});
  b.Inputs({tx});
  b.Outputs({n14, n16, n11, n3});
  const auto got = CompileAndRun(b.Bytes(), {x}, {4, t16.size(), t11.v.size(), t3.v.size()});
  ASSERT_EQ(got.size(), 4u);
  ExpectNear(got[3], t3.v, "TRANSPOSE -> RESHAPE -> PAD");
  ExpectNear(got[2], t11.v, "... -> RESIZE_NEAREST_NEIGHBOR (half-pixel centers)");
  ExpectNear(got[1], t16, "... -> STRIDED_SLICE (shrink) -> HARD_SWISH");
  ExpectNear(got[0], t14, "... -> MEAN -> LOGISTIC");
}

// Elementwise math (ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE, FLOOR, CEIL, ROUND, SIGN, SIN,
// COS, ELU), MAXIMUM / MINIMUM / DIV / PRELU with a [C] operand, SUM and REDUCE_MAX over
// channels-last axes, SQUEEZE, EXPAND_DIMS and LOG_SOFTMAX.
TEST(TfliteOps, MathReductionsAndShapeOpsFollowTflitesDefinitions) {
  const T x = Random({1, 3, 4, 5}, 21);
  const std::vector<float> alpha = Random({5}, 22).v;
  std::vector<float> ew(x.v.size()), pr(x.v.size()), rounding(x.v.size());
  for (size_t i = 0; i < x.v.size(); ++i) {
    const float v = x.v[i], a = std::fabs(v), ap = a + 1.0f;
    const float big = std::max(1.0f / std::sqrt(ap), std::exp(-a));
    const float q = std::min(std::log(ap), big) / ap;
    ew[i] = q * q + std::sqrt(a) + std::sin(v) * std::cos(v) + (v < 0 ? std::exp(v) - 1 : v);
    pr[i] = v < 0 ? v * alpha[i % 5] : v;
    const float t = v * 3.0f;
    rounding[i] = std::floor(t) + std::ceil(t) * 10 + std::nearbyint(t) * 100 +
                  static_cast<float>((t > 0) - (t < 0)) * 1000;
  }
  std::vector<float> sums(5, 0.0f), maxima(12, -INFINITY);
  for (int h = 0; h < 3; ++h) {
    for (int w = 0; w < 4; ++w) {
      for (int c = 0; c < 5; ++c) {
        sums[static_cast<size_t>(c)] += x.at(0, h, w, c);
        maxima[static_cast<size_t>(h * 4 + w)] =
            std::max(maxima[static_cast<size_t>(h * 4 + w)], x.at(0, h, w, c));
      }
    }
  }
  std::vector<float> log_softmax(5);
  const float top = *std::max_element(sums.begin(), sums.end());
  double z = 0;
  for (float v : sums) z += std::exp(v - top);
  for (size_t c = 0; c < 5; ++c) log_softmax[c] = sums[c] - top - static_cast<float>(std::log(z));

  using Op = fb::BuiltinOperator;
  const auto F32 = fb::TensorType::FLOAT32;
  const Shape s4 = x.shape;
  TfliteModelBuilder b;
  int next = 0;
  const auto t = [&](const Shape& shape) {
    return b.Tensor("t" + std::to_string(next++), F32, shape);
  };
  const int tx = b.Tensor("x", F32, s4);
  const int one = b.FloatConstant("one", {1}, {1.0f});
  const int three = b.FloatConstant("three", {1}, {3.0f});
  const int a = t(s4), ap = t(s4), rs = t(s4), ng = t(s4), ex = t(s4), big = t(s4), lg = t(s4);
  const int mn = t(s4), q = t(s4), q2 = t(s4), sq = t(s4), sn = t(s4), cs = t(s4), sc = t(s4);
  const int el = t(s4), e1 = t(s4), e2 = t(s4), e3 = t(s4), y1 = t(s4);
  b.Op(Op::ABS, {tx}, {a});
  b.Op(Op::ADD, {a, one}, {ap});
  b.Op(Op::RSQRT, {ap}, {rs});
  b.Op(Op::NEG, {a}, {ng});
  b.Op(Op::EXP, {ng}, {ex});
  b.Op(Op::MAXIMUM, {rs, ex}, {big});
  b.Op(Op::LOG, {ap}, {lg});
  b.Op(Op::MINIMUM, {lg, big}, {mn});
  b.Op(Op::DIV, {mn, ap}, {q});
  b.Op(Op::SQUARE, {q}, {q2});
  b.Op(Op::SQRT, {a}, {sq});
  b.Op(Op::SIN, {tx}, {sn});
  b.Op(Op::COS, {tx}, {cs});
  b.Op(Op::MUL, {sn, cs}, {sc});
  b.Op(Op::ELU, {tx}, {el});
  b.Op(Op::ADD, {q2, sq}, {e1});
  b.Op(Op::ADD, {e1, sc}, {e2});
  b.Op(Op::ADD, {e2, el}, {e3});
  b.Op(Op::ADD, {e3, b.FloatConstant("zero", {1}, {0.0f})}, {y1});
  const int y2 = t(s4);
  b.Op(Op::PRELU, {tx, b.FloatConstant("alpha", {5}, alpha)}, {y2});
  const int x3 = t(s4), fl = t(s4), ce = t(s4), rn = t(s4), sg = t(s4);
  b.Op(Op::MUL, {tx, three}, {x3});
  b.Op(Op::FLOOR, {x3}, {fl});
  b.Op(Op::CEIL, {x3}, {ce});
  b.Op(Op::ROUND, {x3}, {rn});
  b.Op(Op::SIGN, {x3}, {sg});
  const int c10 = t(s4), c100 = t(s4), c1000 = t(s4), r1 = t(s4), r2 = t(s4), y3 = t(s4);
  b.Op(Op::MUL, {ce, b.FloatConstant("ten", {1}, {10.0f})}, {c10});
  b.Op(Op::MUL, {rn, b.FloatConstant("hundred", {1}, {100.0f})}, {c100});
  b.Op(Op::MUL, {sg, b.FloatConstant("thousand", {1}, {1000.0f})}, {c1000});
  b.Op(Op::ADD, {fl, c10}, {r1});
  b.Op(Op::ADD, {r1, c100}, {r2});
  b.Op(Op::ADD, {r2, c1000}, {y3});
  const int sum4 = t({1, 1, 1, 5}), sum2 = t({1, 5}), y4 = t({1, 5});
  const auto keep = [](bool k) {
    return [k](flatbuffers::FlatBufferBuilder& fbb) {
      return fb::CreateReducerOptions(fbb, k).Union();
    };
  };
  b.Op(Op::SUM, {tx, b.Int32Constant("hw", {2}, {1, 2})}, {sum4},
       fb::BuiltinOptions::ReducerOptions, keep(true));
  b.Op(Op::SQUEEZE, {sum4}, {sum2});
  b.Op(Op::LOG_SOFTMAX, {sum2}, {y4});
  const int mx = t({1, 3, 4}), y5 = t({1, 3, 4, 1});
  b.Op(Op::REDUCE_MAX, {tx, b.Int32Constant("c", {1}, {3})}, {mx},
       fb::BuiltinOptions::ReducerOptions, keep(false));
  b.Op(Op::EXPAND_DIMS, {mx, b.Int32Constant("last", {}, {3})}, {y5});
  b.Inputs({tx});
  b.Outputs({y1, y2, y3, y4, y5});
  const auto got = CompileAndRun(b.Bytes(), {x}, {ew.size(), pr.size(), rounding.size(), 5, 12});
  ASSERT_EQ(got.size(), 5u);
  ExpectNear(got[0], ew, "elementwise math");
  ExpectNear(got[1], pr, "PRELU with a [C] slope");
  ExpectNear(got[2], rounding, "FLOOR, CEIL, ROUND, SIGN");
  ExpectNear(got[3], log_softmax, "SUM (keep_dims) -> SQUEEZE -> LOG_SOFTMAX");
  ExpectNear(got[4], maxima, "REDUCE_MAX over C -> EXPAND_DIMS");
}

}  // namespace
}  // namespace tigris::testing
