// The normalization pipeline: the thirteen passes of tigris-compilation-pipeline.txt
// (stage 2) in their documented order, plus the few that real exporters make necessary.
// Each entry says why it sits where it does.
#include <string>

#include "passes/pass.h"
#include "passes/passes.h"

namespace tigris::passes {

const std::vector<PassInfo>& NormalizationPipeline() {
  static const std::vector<PassInfo> kPipeline = {
      // Reference pass 1. First, so every later pass sees weights as constants rather than
      // as the outputs of Constant ops.
      {"constant-op-fold", "Constant nodes become constant tensors", ConstantOpFold},
      // Needs the constant shape input that constant-op-fold just materialized; before
      // anything that pattern-matches on constant operands (Pad values, Resize scales).
      {"constant-of-shape-fold", "ConstantOfShape with a constant shape becomes a constant",
       ConstantOfShapeFold},
      // torch exports put Identity between shared weights and their users, and Dropout is
      // a no-op at inference; removing both before the QDQ and BatchNorm folds lets those
      // see the real producer of each operand.
      {"identity-dropout-elim", "drop Identity and inference-mode Dropout", IdentityDropoutElim},
      // RNN/GRU/LSTM keep the outputs something reads, listed without gaps: after
      // identity-dropout-elim (an output read through an Identity is then read directly),
      // before every pass that takes an op's first output for its result.
      {"recurrent-outputs", "RNN/GRU/LSTM list only the outputs read, with their roles",
       RecurrentOutputs},
      // A weight computed from constants (onnxruntime writes BatchNormalization's scale as
      // Reshape(initializer) -> QuantizeLinear) must be a constant before
      // quantize-constant-fold looks at it; constant-expression-fold runs again below.
      {"constant-expression-fold", "ops over constants only become constants (early)",
       ConstantExpressionFold},
      // Float weights quantized in the graph become integer initializers, the form
      // qdq-fold reads; after constant-op-fold and identity-dropout-elim, so the weight is
      // a visible constant, before the two QDQ passes that match on it.
      {"quantize-constant-fold", "QuantizeLinear of a constant becomes the integer constant",
       QuantizeConstantFold},
      // Layer/Instance/LpNormalization become reductions and binary ops; before the QDQ
      // passes, so that in a QDQ model they form a float island as onnxruntime computes.
      {"norm-decompose", "Layer/Instance/LpNormalization become reductions and binary ops",
       NormDecompose},
      // The runtime has no Split: it becomes one Slice per output. Before the
      // QDQ passes, so each Slice folds to int8 like any single-output op; after
      // constant-op-fold, which materializes the split sizes the loader already used.
      {"split-to-slice", "Split becomes one Slice per output", SplitToSlice},
      // tf2onnx (int8 TFLite models) lets Reshape/Flatten/Transpose read a quantized
      // activation and puts Relu/Clip between an op and its QuantizeLinear; qdq-fold reads
      // quantize_static's form only, so rewrite those into it first (exactly).
      {"qdq-canonicalize", "other exporters' QDQ forms become quantize_static's", QdqCanonicalize},
      // Reference pass 2. Early, so every pattern after it matches on ops with quantized
      // operands instead of on Q/DQ islands.
      {"qdq-fold", "QuantizeLinear/DequantizeLinear pairs become tensor annotations", QdqFold},
      // After qdq-fold, so every quantized tensor is annotated and the rest of int8/uint8
      // are plain integers: those only compared, selected or moved become scale-1 int8.
      {"integer-order-annotate",
       "int8/uint8 integers that are only compared, selected or moved run as scale-1 int8",
       IntegerOrderAnnotate},
      // Ops computed from constants only (a Reshape of an initializer, as mnist8 feeds its
      // MatMul) become constants, so the Gemm and BatchNorm folds below see weights. After
      // qdq-fold, which turns DequantizeLinear(int8 initializer) into a constant.
      {"constant-expression-fold", "ops over constants only become constants",
       ConstantExpressionFold},
      // Sum of two is Add (Max, Min, Mean alike: chains of binary ops), and binary ops get
      // operands of one dtype; before MatMul+Add fusion and activation fusion so they match
      // the Adds.
      {"binary-canonicalize",
       "variadic Sum/Max/Min/Mean become chains of binary ops; Pow's integer exponent float32",
       BinaryCanonicalize},
      // MatMul + bias Add is a Gemm; before gemm-normalize canonicalizes Gemm and before
      // batchnorm-fold, which folds BatchNormalization into Gemm only.
      {"matmul-add-to-gemm", "MatMul followed by a bias Add becomes Gemm", MatMulAddToGemm},
      // One Gemm form (transB=1, alpha=beta=1, bias as a vector) for batchnorm-fold and the
      // emitter; after matmul-add-to-gemm so the Gemms it made are canonical too.
      {"gemm-normalize", "fold transA/transB/alpha/beta into the weights", GemmNormalize},
      // Reference pass 3 (extended to Gemm). After the Gemm passes so it sees canonical
      // Gemm weights, before relabeling so it matches plain Conv.
      {"batchnorm-fold", "BatchNormalization after Conv/Gemm folds into its weights",
       BatchNormFold},
      // A constant per-channel Add after a bias-less Conv (CNTK and Keras exports) is the
      // Conv's bias; folding it lets activation-fuse absorb the Relu that follows.
      // After batchnorm-fold, which may have given the Conv a bias to add into.
      {"conv-bias-add-fold", "Add of a per-channel constant after Conv folds into its bias",
       ConvBiasAddFold},
      // After every pass that gives an int8 layer its bias (gemm-normalize reshapes a Gemm's
      // C): the int32 codes the kernels add to the accumulator must be on its grid.
      {"bias-rescale", "an int8 layer's int32 bias moves to the accumulator's scale", BiasRescale},
      // Reference pass 4.
      {"silu-decompose", "Silu becomes Sigmoid + Mul", SiluDecompose},
      // Reference passes 5-6: pick the kernel family from the Conv's shape.
      {"depthwise-conv-relabel", "Conv with group == C_in becomes DepthwiseConv",
       DepthwiseConvRelabel},
      {"conv1d-relabel", "Conv with a 1-D kernel becomes Conv1D", Conv1dRelabel},
      // Beside it, the pools' 1-D form; before full-window-pool-to-global, which then sees a
      // 1-D pool over the whole signal as the global pool it is.
      {"pool1d-lift", "a 1-D MaxPool/AveragePool runs as the 2-D pool over [N, C, 1, L]",
       Pool1dLift},
      // Reference pass 7.
      {"clip-to-relu6", "Clip(0, 6) becomes Relu6 (Clip(0, inf) becomes Relu)", ClipToRelu6},
      // Reference pass 8.
      {"reduce-mean-to-gap", "ReduceMean over H and W becomes GlobalAveragePool", ReduceMeanToGap},
      // Beside it: a pool whose window is the whole map is the global pool the planner
      // can reduce band by band.
      {"full-window-pool-to-global", "a pool over the whole map becomes a global pool",
       FullWindowPoolToGlobal},
      // Softmax before opset 13 normalizes a coerced 2-D matrix; the runtime kernel one
      // axis. Writes Reshapes in the attribute form, as reduce-mean-to-gap does, and needs
      // only the loader's shapes.
      {"softmax-flatten", "opset < 13 Softmax over a non-last axis runs on its 2-D coercion",
       SoftmaxFlatten},
      // Reference pass 9: resolve Shape/Gather/Unsqueeze/Concat chains into static Reshape
      // targets. It needs every constant folded (passes 1-2).
      {"shape-op-fold", "static shape chains fold into Reshape targets", ShapeOpFold},
      // After shape-op-fold, which consumes the Unsqueeze nodes of shape chains: what is
      // left of Squeeze/Unsqueeze/Flatten only reshapes data.
      {"reshape-canonicalize", "Squeeze, Unsqueeze and Flatten become Reshape",
       ReshapeCanonicalize},
      // ShuffleNet's rank-5 Reshape/Transpose/Reshape: after reshape-canonicalize, when every
      // Reshape's target is its output's shape, and after qdq-fold, so the intermediates'
      // quantization can be compared.
      {"channel-shuffle-fuse", "Reshape-Transpose-Reshape channel shuffle becomes one op",
       ChannelShuffleFuse},
      // After the two above (every data relabeling a Reshape, shuffles fused), before
      // requantize-split, which then sees each half as the one-step Reshape it splits.
      {"reshape-split",
       "a Reshape between two channels-last layouts goes through the flat row of its elements",
       ReshapeSplit},
      // After every pass that makes or fuses Reshape/Transpose (the two above), before
      // output-transpose-trim moves a trailing Transpose to the host: the host would drop a
      // requantization, the Clip table this adds keeps it.
      {"requantize-split", "an int8 Reshape/Transpose that requantizes becomes copy + table",
       RequantizeSplit},
      // After qdq-fold (it acts on the runtime Quantize) and reshape-canonicalize (every
      // data relabeling is then a Reshape): a float Reshape/Transpose of the input ahead of
      // the first Quantize runs on int8 instead, and the host quantizes the input.
      {"quantize-hoist", "Quantize moves before the Reshape/Transpose it reads", QuantizeHoist},
      // After requantize-split and quantize-hoist (a Transpose left then relabels only) and
      // before gemm-flatten-fold, which then sees the classifier's Flatten read the pooled
      // map itself.
      {"unit-transpose-fold", "a Reshape reads past a Transpose that moves only unit axes",
       UnitTransposeFold},
      // After reshape-canonicalize (every Flatten is then a Reshape), requantize-split (a
      // Reshape left in an int8 graph keeps its quantization) and quantize-hoist (which
      // moves a Quantize ahead of a Reshape of the input): a classifier's Flatten of a
      // [N, C, 1, 1] map is a copy the Gemm does not need.
      {"gemm-flatten-fold", "Gemm reads a pooled [N, C, 1, 1] map without its Flatten",
       GemmFlattenFold},
      // Reference pass 10.
      {"resize-scale-extract", "constant Resize scales become attributes", ResizeScaleExtract},
      // Before concat-axis-normalize, so the axis is still ONNX's when the partial
      // Concats' shapes are summed along it.
      {"concat-split", "Concats of more than 16 inputs become chains of Concats", ConcatSplit},
      // Reference pass 11.
      {"concat-axis-normalize", "Concat axis moves to the runtime's NHWC convention",
       ConcatAxisNormalize},
      // Reference pass 12.
      {"output-transpose-trim", "trailing Transposes before outputs move to the host",
       OutputTransposeTrim},
      // After every pass that makes or rewires a binary op (binary-canonicalize, silu-decompose)
      // and before input-reshape-trim, which moves the Reshape it puts on a graph input to
      // the host.
      {"broadcast-rank-lift",
       "a lower-rank run-time operand of a binary op (Add, Max, ...) gets the output's rank",
       BroadcastRankLift},
      // After reduce-mean-to-gap (the pool it makes has no keepdims); before
      // input-reshape-trim.
      {"reduce-keepdims",
       "a keepdims = 0 reduction whose output layout would differ keeps its axes, then a Reshape",
       ReduceKeepdims},
      {"input-transpose-trim", "leading Transposes of graph inputs move to the host",
       InputTransposeTrim},
      // After input-transpose-trim (one trim per input, the Transpose first).
      {"input-reshape-trim", "leading Reshapes that keep the runtime's bytes move to the host",
       InputReshapeTrim},
      // Reference pass 13. Last, so all relabeling and rewiring is done.
      {"activation-fuse", "Relu/Relu6 after Conv/DepthwiseConv/Gemm/Conv1D fuse into it",
       ActivationFuse},
  };
  return kPipeline;
}

void Normalize(ir::Graph& graph) {
  for (const PassInfo& pass : NormalizationPipeline()) {
    pass.run(graph);
    graph.Compact();
  }
  Verify(graph);
}

}  // namespace tigris::passes
