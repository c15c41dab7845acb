"""A small transformer encoder block with deterministic random weights, in the form
PyTorch's exporter writes one: x [1, T, D] -> LayerNormalization -> Q, K, V (MatMul by
[D, D] weights) -> Reshape to [1, T, H, D / H] and Transpose to heads -> Q K^T (a MatMul of
two run-time rank-4 operands) -> scale -> Softmax -> times V -> heads back to [1, T, D] ->
output projection -> residual Add -> LayerNormalization -> MatMul [D, F] + bias -> Gelu ->
MatMul [F, D] + bias -> residual Add.

Used by tests/e2e/test_matmul_batched.py and, for the Cortex-M case tiny_encoder_f32, by
make_qdq_models.py."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

T, D, HEADS, FF = 8, 16, 2, 32


def tiny_encoder(seed=3):
    rng = np.random.RandomState(seed)
    d = D // HEADS

    def weight(name, shape):
        values = rng.standard_normal(shape) / np.sqrt(shape[0])
        return numpy_helper.from_array(values.astype(np.float32), name)

    def vector(name, values):
        return numpy_helper.from_array(np.asarray(values, np.float32), name)

    inits = [weight("wq", [D, D]), weight("wk", [D, D]), weight("wv", [D, D]),
             weight("wo", [D, D]), weight("w1", [D, FF]), weight("w2", [FF, D]),
             vector("b1", 0.1 * rng.standard_normal(FF)), vector("b2", 0.1 * rng.standard_normal(D)),
             vector("g1", rng.uniform(0.5, 1.5, D)), vector("be1", 0.1 * rng.standard_normal(D)),
             vector("g2", rng.uniform(0.5, 1.5, D)), vector("be2", 0.1 * rng.standard_normal(D)),
             numpy_helper.from_array(np.array([1, T, HEADS, d], np.int64), "heads"),
             numpy_helper.from_array(np.array([1, T, D], np.int64), "flat"),
             vector("scale", 1 / np.sqrt(d))]
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "g1", "be1"], ["ln1"], axis=-1),
        n("MatMul", ["ln1", "wq"], ["q"]), n("MatMul", ["ln1", "wk"], ["k"]),
        n("MatMul", ["ln1", "wv"], ["v"]),
        n("Reshape", ["q", "heads"], ["qh"]), n("Reshape", ["k", "heads"], ["kh"]),
        n("Reshape", ["v", "heads"], ["vh"]),
        n("Transpose", ["qh"], ["qt"], perm=[0, 2, 1, 3]),
        n("Transpose", ["kh"], ["kt"], perm=[0, 2, 3, 1]),
        n("Transpose", ["vh"], ["vt"], perm=[0, 2, 1, 3]),
        n("MatMul", ["qt", "kt"], ["s"]), n("Mul", ["s", "scale"], ["ss"]),
        n("Softmax", ["ss"], ["p"], axis=-1), n("MatMul", ["p", "vt"], ["o"]),
        n("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "flat"], ["of"]),
        n("MatMul", ["of", "wo"], ["proj"]), n("Add", ["x", "proj"], ["r1"]),
        n("LayerNormalization", ["r1", "g2", "be2"], ["ln2"], axis=-1),
        n("MatMul", ["ln2", "w1"], ["f1"]), n("Add", ["f1", "b1"], ["f1b"]),
        n("Gelu", ["f1b"], ["g"]),
        n("MatMul", ["g", "w2"], ["f2"]), n("Add", ["f2", "b2"], ["f2b"]),
        n("Add", ["r1", "f2b"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "tiny_encoder",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, T, D])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, T, D])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
