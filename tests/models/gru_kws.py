"""A keyword-spotting network with a GRU, in the form PyTorch's exporter writes one
(nn.GRU(batch_first=True) is exported at layout 0 between Transposes), with deterministic
random weights: MFCC [1, 1, 49, 10] -> Conv 3x3 (8) -> Relu -> [49, 1, 80] (Transpose,
Reshape) -> GRU (hidden 32; its Y written but unread, as torch writes it) -> Y_h ->
Gemm (12) -> Softmax.

Used by tests/e2e/test_recurrent.py and, float and quantized, by make_qdq_models.py for
the Cortex-M cases gru_kws_f32 and gru_kws_int8 (tests/cortex-m)."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FRAMES, FEATURES, CHANNELS, HIDDEN, CLASSES = 49, 10, 8, 32, 12


def gru_kws(seed=21):
    rng = np.random.RandomState(seed)
    t, f, c, hid = FRAMES, FEATURES, CHANNELS, HIDDEN

    def normal(shape, fan_in):
        return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Transpose", ["r1"], ["t1"], perm=[2, 0, 1, 3]),
        helper.make_node("Reshape", ["t1", "seq_shape"], ["seq"]),
        helper.make_node("GRU", ["seq", "W", "R", "B"], ["Y", "Y_h"], hidden_size=hid),
        helper.make_node("Reshape", ["Y_h", "flat_shape"], ["h"]),
        helper.make_node("Gemm", ["h", "wf", "bf"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], axis=-1),
    ]
    inits = [numpy_helper.from_array(normal([c, 1, 3, 3], 9 / 2), "w1"),
             numpy_helper.from_array((0.1 * rng.standard_normal(c)).astype(np.float32), "b1"),
             numpy_helper.from_array(np.array([t, 1, c * f], np.int64), "seq_shape"),
             numpy_helper.from_array(normal([1, 3 * hid, c * f], c * f), "W"),
             numpy_helper.from_array(normal([1, 3 * hid, hid], hid), "R"),
             numpy_helper.from_array((0.1 * rng.standard_normal([1, 6 * hid])).astype(np.float32),
                                     "B"),
             numpy_helper.from_array(np.array([1, hid], np.int64), "flat_shape"),
             numpy_helper.from_array(normal([CLASSES, hid], hid / 2), "wf"),
             numpy_helper.from_array(np.zeros(CLASSES, np.float32), "bf")]
    graph = helper.make_graph(nodes, "gru_kws",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                             [1, 1, t, f])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                             [1, CLASSES])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
