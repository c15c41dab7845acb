"""Embedding lookups as text models write them: ONNX Gather on axis 0 of a constant table
by run-time int64 or int32 ids, then a mean over the tokens and a classifier, compiled and
run by `tigris` and compared with onnxruntime (graph optimizations off), float32 and
quantize_static int8 (the table int8, the Gather a byte copy that keeps its quantization).

  ids [1, T] int64 -> Gather(table [V, D]) -> emb [1, T, D] -> ReduceMean(T) -> Gemm -> y

The rank-3 emb is stored NWC by the runtime, so the kernel writes each row with a stride;
a batch of two ([2, T] ids) and rank-1 int32 ids cover the other index shapes. An id
outside [-V, V) is a run-time error naming the op, never a read outside the table; a Gather
the runtime does not execute (of an activation, along axis 1) is refused at compile time
naming the node."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

from conftest import WORK_DIR, tigris
from qdq_helpers import assert_matches_reference, onnxruntime_reference

V, D, T, K = 500, 32, 64, 4
# Index shapes and element types: the text classifier's batch of one, a batch of two, and
# rank-1 int32 ids (the mean then runs over axis 0).
FORMS = {"int64": ([1, T], TensorProto.INT64), "batch2": ([2, T], TensorProto.INT64),
         "int32_rank1": ([T], TensorProto.INT32)}


def text_classifier(ids_shape, ids_type):
    rng = np.random.RandomState(21)
    batch = ids_shape[0] if len(ids_shape) == 2 else 1
    inits = [
        numpy_helper.from_array(rng.standard_normal([V, D]).astype(np.float32), "table"),
        numpy_helper.from_array((rng.standard_normal([K, D]) * 0.3).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal([K]).astype(np.float32), "b"),
    ]
    token_axis = len(ids_shape) - 1
    nodes = [
        helper.make_node("Gather", ["table", "ids"], ["emb"], axis=0, name="embed"),
        helper.make_node("ReduceMean", ["emb"], ["mean"], axes=[token_axis],
                         keepdims=1 if token_axis == 0 else 0, name="mean"),
        helper.make_node("Gemm", ["mean", "w", "b"], ["y"], transB=1, name="classify"),
    ]
    graph = helper.make_graph(
        nodes, "text_classifier", [helper.make_tensor_value_info("ids", ids_type, ids_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, K])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def random_ids(shape, ids_type, seed):
    """Ids over the whole valid range, negative ones (counted from the end) included."""
    dtype = np.int64 if ids_type == TensorProto.INT64 else np.int32
    return np.random.RandomState(seed).randint(-V, V, size=shape).astype(dtype)


class RandomIds(CalibrationDataReader):
    def __init__(self, shape, ids_type, count=8):
        self._samples = iter([{"ids": random_ids(shape, ids_type, 100 + i)} for i in range(count)])

    def get_next(self):
        return next(self._samples, None)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {}
    for form, (shape, ids_type) in FORMS.items():
        paths[form, "float"] = WORK_DIR / f"gather.{form}.float.onnx"
        paths[form, "int8"] = WORK_DIR / f"gather.{form}.int8.onnx"
        onnx.save(text_classifier(shape, ids_type), paths[form, "float"])
        quantize_static(str(paths[form, "float"]), str(paths[form, "int8"]),
                        RandomIds(shape, ids_type), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8)
    return paths


@pytest.mark.parametrize("variant", ["float", "int8"])
@pytest.mark.parametrize("form", list(FORMS))
def test_embedding_lookup_matches_onnxruntime(models, form, variant):
    path = models[form, variant]
    shape, ids_type = FORMS[form]
    ids = random_ids(shape, ids_type, 7)
    ids_path = WORK_DIR / f"gather.{form}.ids.npy"
    np.save(ids_path, ids)
    ref = onnxruntime_reference(path, {"ids": ids})[0]
    outputs = []
    # A roomy budget, and one little above what the ids and the gathered rows need (the
    # batch of two: 17 KiB float32, 5 KiB int8).
    for budget in ("1M", "20K" if variant == "float" else "6K"):
        plan = WORK_DIR / f"gather.{form}.{variant}.{budget}.tgrs"
        y_path = WORK_DIR / f"gather.{form}.{variant}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        if variant == "int8":  # the table and the gathered rows stay int8
            listing = tigris("inspect", plan).stdout
            assert "GATHER" in listing and "QUANTIZE " not in listing, listing
        tigris("run", plan, "--input", ids_path, "--output", y_path, "--dequantize")
        y = np.load(y_path)
        assert_matches_reference(y, ref, path, variant, f"budget {budget}",
                                 float_tolerance=1e-5, max_lsb=1)
        outputs.append(y.tobytes())
    assert outputs[0] == outputs[1], "the two budgets' outputs differ"


@pytest.mark.parametrize("bad", [V, -V - 1, 2**40])
def test_an_id_outside_the_table_is_a_named_run_time_error(models, bad):
    plan = WORK_DIR / "gather.int64.bad.tgrs"
    tigris("compile", models["int64", "float"], "-m", "1M", "--xip", "-o", plan)
    ids = random_ids([1, T], TensorProto.INT64, 8)
    ids[0, 17] = bad
    ids_path = WORK_DIR / "gather.bad_ids.npy"
    np.save(ids_path, ids)
    result = tigris("run", plan, "--input", ids_path, "--output", WORK_DIR / "gather.bad.npy",
                    check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "TGRS_ERR_INDEX_OUT_OF_RANGE" in result.stderr and "'embed'" in result.stderr, \
        result.stderr


def test_a_gather_of_an_activation_is_refused_naming_the_node():
    # x[1, 8, 4] -> Relu -> Gather(axis 1, run-time index) : data computed at run time.
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]),
         helper.make_node("Gather", ["r", "i"], ["y"], axis=1, name="pick_rows")],
        "gather_activation",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 4]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = WORK_DIR / "gather_activation.onnx"
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    onnx.save(model, path)
    result = tigris("compile", path, "-m", "1M", "-o", WORK_DIR / "gather_activation.tgrs",
                    check=False)
    assert result.returncode != 0
    assert "pick_rows" in result.stderr and "computed at run time" in result.stderr, \
        result.stderr
    assert "TIGRIS_ERR_UNSUPPORTED_OP" in result.stderr, result.stderr
