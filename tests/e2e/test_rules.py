"""Placement rules (`tigris compile --target T --rules R`): the three examples of
tensor-memory-attributes.txt, applied to a small model whose tensors carry the seed's
names, give the placements the seed describes (read back from the plan with `tigris
inspect --json`); every class of rule error is refused (or warned about) naming the rule
and the tensor. The target is examples/targets/tcm_sram_psram_mram.yaml (MRAM holds the
plan); the rules are examples/rules/*.yaml.

  x [1,2,8,8] -> Conv conv2d_3 (conv2d_3_weight, conv2d_3_bias) -> hot_buf_0 -> Relu
  -> hot_buf_1 -> Add(state_in) -> large_scratch_tensor -> Relu -> state_out
  -> Flatten -> Gemm fc_5 (fc_5_weight, fc_5_bias) -> y; state pair state_in=state_out.

The compiler fuses the Relu into the Conv, so hot_buf_0 is gone from the plan (and a rule
naming it gets a warning)."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import SOURCE_DIR, WORK_DIR, tigris
from qdq_helpers import onnxruntime_reference

TARGET = SOURCE_DIR / "examples" / "targets" / "tcm_sram_psram_mram.yaml"
RULES = SOURCE_DIR / "examples" / "rules"
CONSTANTS = ("conv2d_3_weight", "conv2d_3_bias", "fc_5_weight", "fc_5_bias")


def seed_net():
    rng = np.random.RandomState(3)

    def init(name, shape):
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32),
                                       name)

    nodes = [
        helper.make_node("Conv", ["x", "conv2d_3_weight", "conv2d_3_bias"], ["hot_buf_0"],
                         pads=[1, 1, 1, 1], name="conv2d_3"),
        helper.make_node("Relu", ["hot_buf_0"], ["hot_buf_1"], name="relu_4"),
        helper.make_node("Add", ["hot_buf_1", "state_in"], ["large_scratch_tensor"],
                         name="add_state"),
        helper.make_node("Relu", ["large_scratch_tensor"], ["state_out"], name="relu_state"),
        helper.make_node("Flatten", ["state_out"], ["flat"], axis=1, name="flatten"),
        helper.make_node("Gemm", ["flat", "fc_5_weight", "fc_5_bias"], ["y"], transB=1,
                         name="fc_5"),
    ]
    graph = helper.make_graph(
        nodes, "seed_net",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 8, 8]),
         helper.make_tensor_value_info("state_in", TensorProto.FLOAT, [1, 4, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]),
         helper.make_tensor_value_info("state_out", TensorProto.FLOAT, [1, 4, 8, 8])],
        [init("conv2d_3_weight", [4, 2, 3, 3]), init("conv2d_3_bias", [4]),
         init("fc_5_weight", [10, 256]), init("fc_5_bias", [10])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


@pytest.fixture(scope="module")
def model():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    path = WORK_DIR / "rules.seed_net.onnx"
    onnx.save(seed_net(), path)
    return path


def compile_with(model, rules, name, target=TARGET, check=True):
    plan = WORK_DIR / f"rules.{name}.tgrs"
    result = tigris("compile", model, "--target", target, "--rules", rules, "--state",
                    "state_in=state_out", "-o", plan, check=check)
    return plan, result


def placements(plan):
    """{kind: {tensor: [(memory, staged_from), ...]}} from the plan."""
    out = {}
    for p in json.loads(tigris("inspect", plan, "--json").stdout)["placements"]:
        out.setdefault(p["kind"], {}).setdefault(p["tensor"], []).append(
            (p["memory"], p["staged_from"]))
    return out


def memories_of(by_tensor):
    return {memory for places in by_tensor.values() for memory, _ in places}


def test_example_1_defaults_with_targeted_overrides(model):
    plan, result = compile_with(model, RULES / "defaults_with_overrides.yaml", "example1")
    placed = placements(plan)
    # "Default: everything to DTCM": scratch, and constants staged there from the plan.
    assert memories_of(placed["SCRATCH"]) == {"DTCM"}, placed["SCRATCH"]
    assert placed["CONSTANT"]["conv2d_3_weight"] == [("DTCM", "MRAM")]
    assert placed["CONSTANT"]["conv2d_3_bias"] == [("DTCM", "MRAM")]
    # "Persistent tensors (variables) to SRAM".
    assert placed["PERSISTENT"] == {"state_in": [("SRAM", None)]}
    # "Specific large weights to MRAM": the plan's memory, so read in place there.
    assert placed["CONSTANT"]["fc_5_weight"] == [("MRAM", None)]
    assert placed["CONSTANT"]["fc_5_bias"] == [("MRAM", None)]
    assert "DTCM" in result.stdout and "scratch+constants" in result.stdout, result.stdout


def test_example_2_scratch_split_over_two_memories_is_refused_naming_the_rules(model):
    _, result = compile_with(model, RULES / "scratch_to_psram.yaml", "example2", check=False)
    assert result.returncode == 1, result.stdout
    assert "rule 1 (type: SCRATCH, id: [hot_buf_0, hot_buf_1], memory: DTCM)" in result.stderr
    assert "puts 'hot_buf_1' in DTCM" in result.stderr, result.stderr
    assert "one arena" in result.stderr, result.stderr
    # Its first rule alone: every scratch tensor in PSRAM.
    rules = WORK_DIR / "rules.scratch_only.yaml"
    rules.write_text("tensors:\n  - type: SCRATCH\n    attributes: { memory: PSRAM }\n")
    plan, _ = compile_with(model, rules, "example2a")
    placed = placements(plan)
    assert memories_of(placed["SCRATCH"]) == {"PSRAM"}, placed["SCRATCH"]


def test_example_3_only_constants_to_mram(model):
    plan, _ = compile_with(model, RULES / "constants_to_mram.yaml", "example3")
    placed = placements(plan)
    assert {t: p for t, p in placed["CONSTANT"].items()} == {
        name: [("MRAM", None)] for name in CONSTANTS}
    # The others on defaults: scratch and state in the fastest memory with room.
    assert memories_of(placed["SCRATCH"]) == {"DTCM"}
    assert placed["PERSISTENT"] == {"state_in": [("DTCM", None)]}


def test_a_ruled_plan_computes_what_onnxruntime_does(model):
    plan, _ = compile_with(model, RULES / "defaults_with_overrides.yaml", "run")
    rng = np.random.RandomState(4)
    x = rng.standard_normal([1, 2, 8, 8]).astype(np.float32)
    s = rng.standard_normal([1, 4, 8, 8]).astype(np.float32)
    paths = {n: WORK_DIR / f"rules.run.{n}.npy" for n in ("x", "s", "y", "so")}
    np.save(paths["x"], x)
    np.save(paths["s"], s)
    tigris("run", plan, "--input", paths["x"], "--input", paths["s"], "--output", paths["y"],
           "--output", paths["so"])
    y_ref, s_ref = onnxruntime_reference(model, {"x": x, "state_in": s})
    np.testing.assert_allclose(np.load(paths["y"]), y_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.load(paths["so"]), s_ref, rtol=1e-5, atol=1e-6)


ERRORS = {
    "unknown_memory": ("tensors:\n  - attributes: { memory: ITCM }\n",
                       "rule 0: memory 'ITCM' is not in target"),
    "scratch_read_only": ("tensors:\n  - type: SCRATCH\n    attributes: { memory: MRAM }\n",
                          "rule 0: SCRATCH tensors are written, and MRAM is read-only"),
    "catch_all_read_only": ("tensors:\n  - attributes: { memory: MRAM }\n",
                            "puts SCRATCH tensor 'x' in MRAM, which is read-only"),
    "persistent_read_only": ("tensors:\n  - type: PERSISTENT\n    id: state_in\n"
                             "    attributes: { memory: MRAM }\n",
                             "PERSISTENT tensors are written, and MRAM is read-only"),
    "two_sources": ("tensors:\n"
                    "  - id: conv2d_3_weight\n    attributes: {memory: MRAM, "
                    "constant_destination_memory: SRAM}\n"
                    "  - id: fc_5_weight\n    attributes: {memory: PSRAM, "
                    "constant_destination_memory: SRAM}\n",
                    "two source memories for the staged destination SRAM"),
    "over_capacity": ("tensors:\n  - attributes: { memory: DTCM }\n",
                      "memory DTCM holds scratch+state+constants"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_rule_errors_name_the_rule_and_tensor(model, case):
    text, expected = ERRORS[case]
    rules = WORK_DIR / f"rules.error.{case}.yaml"
    rules.write_text(text)
    target = TARGET
    if case == "over_capacity":  # a DTCM that holds the scratch but not the constants too
        target = WORK_DIR / "rules.small_dtcm.yaml"
        target.write_text(TARGET.read_text().replace("{name: DTCM, size: 64K}",
                                                     "{name: DTCM, size: 12K}"))
    _, result = compile_with(model, rules, f"error.{case}", target=target, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert expected in result.stderr, result.stderr
    assert str(rules) in result.stderr, result.stderr  # the rules file is named


def test_an_id_that_matches_no_tensor_is_a_warning(model):
    rules = WORK_DIR / "rules.warning.yaml"
    rules.write_text("tensors:\n  - id: [hot_buf_0, nope]\n    attributes: { memory: DTCM }\n"
                     "  - type: CONSTANT\n    id: x\n    attributes: { memory: MRAM }\n")
    plan, result = compile_with(model, rules, "warning")
    assert "warning: " in result.stderr
    assert "id 'hot_buf_0' matches no tensor of the model" in result.stderr, result.stderr
    assert "id 'nope' matches no tensor of the model" in result.stderr, result.stderr
    assert "id 'x' names a tensor of another kind" in result.stderr, result.stderr
    assert plan.exists()
