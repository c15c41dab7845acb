// Entry points of the individual normalization passes (one file each, same name in
// kebab-case). pipeline.cc orders them; tests call them one at a time.
#ifndef TIGRIS_PASSES_PASSES_H_
#define TIGRIS_PASSES_PASSES_H_

#include "ir/graph.h"

namespace tigris::passes {

// Most inputs of one op the runtime executes (its TGRS_EXEC_MAX_OPERANDS default, checked
// equal in api/runtime_bridge.cc): concat-split keeps Concats within it, and the verifier
// refuses any other op beyond it.
inline constexpr size_t kMaxOpInputs = 16;

// The thirteen passes of tigris-compilation-pipeline.txt, stage 2.
void ConstantOpFold(ir::Graph& graph);        // 1. constant_op_fold.cc
void QdqFold(ir::Graph& graph);               // 2. qdq_fold.cc
void BatchNormFold(ir::Graph& graph);         // 3. batchnorm_fold.cc
void SiluDecompose(ir::Graph& graph);         // 4. silu_decompose.cc
void DepthwiseConvRelabel(ir::Graph& graph);  // 5. depthwise_conv_relabel.cc
void Conv1dRelabel(ir::Graph& graph);         // 6. conv1d_relabel.cc
void ClipToRelu6(ir::Graph& graph);           // 7. clip_to_relu6.cc
void ReduceMeanToGap(ir::Graph& graph);       // 8. reduce_mean_to_gap.cc
void ShapeOpFold(ir::Graph& graph);           // 9. shape_op_fold.cc
void ResizeScaleExtract(ir::Graph& graph);    // 10. resize_scale_extract.cc
void ConcatAxisNormalize(ir::Graph& graph);   // 11. concat_axis_normalize.cc
void OutputTransposeTrim(ir::Graph& graph);   // 12. output_transpose_trim.cc
void InputTransposeTrim(ir::Graph& graph);    // added: input_transpose_trim.cc
void InputReshapeTrim(ir::Graph& graph);      // added: input_reshape_trim.cc
void ConcatSplit(ir::Graph& graph);           // added: concat_split.cc
void ActivationFuse(ir::Graph& graph);        // 13. activation_fuse.cc

// Passes real models need beyond the thirteen (their place is argued in pipeline.cc).
void IdentityDropoutElim(ir::Graph& graph);     // identity_dropout_elim.cc
void ConstantOfShapeFold(ir::Graph& graph);     // constant_of_shape_fold.cc
void NormDecompose(ir::Graph& graph);           // norm_decompose.cc
void BinaryCanonicalize(ir::Graph& graph);      // binary_canonicalize.cc
void GemmNormalize(ir::Graph& graph);           // gemm_normalize.cc
void MatMulAddToGemm(ir::Graph& graph);         // matmul_add_to_gemm.cc
void ReshapeCanonicalize(ir::Graph& graph);     // reshape_canonicalize.cc: Squeeze,
                                                //   Unsqueeze, Flatten -> Reshape
void ConstantExpressionFold(ir::Graph& graph);  // constant_expression_fold.cc
void ConvBiasAddFold(ir::Graph& graph);         // conv_bias_add_fold.cc
void BiasRescale(ir::Graph& graph);             // bias_rescale.cc
void ReshapeSplit(ir::Graph& graph);            // reshape_split.cc
void IntegerOrderAnnotate(ir::Graph& graph);    // integer_order_annotate.cc
void QuantizeHoist(ir::Graph& graph);           // quantize_hoist.cc: Quantize moves
                                                //   before Reshape/Transpose
void ChannelShuffleFuse(ir::Graph& graph);      // channel_shuffle_fuse.cc: Reshape-Transpose-
                                                //   Reshape channel shuffle as one op
void RequantizeSplit(ir::Graph& graph);         // requantize_split.cc: a requantizing int8
                                                //   Reshape/Transpose copies, then a Clip table
void SoftmaxFlatten(ir::Graph& graph);          // softmax_flatten.cc: opset < 13
                                                //   Softmax over a coerced 2-D matrix
void QdqCanonicalize(ir::Graph& graph);         // qdq_canonicalize.cc: other exporters'
                                                //   QDQ forms become quantize_static's
void QuantizeConstantFold(ir::Graph& graph);    // quantize_constant_fold.cc: QuantizeLinear
                                                //   of a constant becomes the constant
void SplitToSlice(ir::Graph& graph);            // split_to_slice.cc: one Slice per output
void RecurrentOutputs(ir::Graph& graph);        // recurrent_outputs.cc: RNN/GRU/LSTM list
                                                //   the outputs read, with their roles
void GemmFlattenFold(ir::Graph& graph);         // gemm_flatten_fold.cc: a pooled map's
                                                //   Flatten folds into its Gemm
void UnitTransposeFold(ir::Graph& graph);       // unit_transpose_fold.cc: a Reshape reads
                                                //   past a Transpose of unit axes only
void Pool1dLift(ir::Graph& graph);              // pool1d_lift.cc: a 1-D pool runs as
                                                //   the 2-D pool over [N, C, 1, L]
void BroadcastRankLift(ir::Graph& graph);       // broadcast_rank_lift.cc: a lower-rank
                                                //   run-time operand of Add/Sub/Mul/Div
                                                //   is reshaped to the output's rank
void ReduceKeepdims(ir::Graph& graph);          // reduce_keepdims.cc: a keepdims = 0
                                                //   reduction whose layout would differ
                                                //   keeps its axes, then a Reshape
void FullWindowPoolToGlobal(ir::Graph& graph);  // full_window_pool_to_global.cc: a pool
                                                //   over the whole map is a global pool

}  // namespace tigris::passes

#endif  // TIGRIS_PASSES_PASSES_H_
