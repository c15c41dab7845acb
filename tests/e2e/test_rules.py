"""Placement rules (`tigris compile --target T --rules R`): the three examples of
tensor-memory-attributes.txt, applied to a small model whose tensors carry the seed's
names, give the placements the seed describes (read back from the plan with `tigris
inspect --json`); every class of rule error is refused (or warned about) naming the rule
and the tensor. The target is examples/targets/tcm_sram_psram_mram.yaml (MRAM holds the
plan); the rules are examples/rules/*.yaml.

  x [1,2,8,8] -> Conv conv2d_3 (conv2d_3_weight, conv2d_3_bias) -> hot_buf_0 -> Relu
  -> hot_buf_1 -> Add(state_in) -> large_scratch_tensor -> Add(hot_buf_0) -> skip_sum
  -> Relu -> state_out -> Flatten -> Gemm fc_5 (fc_5_weight, fc_5_bias) -> y;
  state pair state_in=state_out.

hot_buf_0 feeds two ops, so the compiler cannot fuse the Relu into the Conv: both hot
buffers exist in the plan, for example 2 to pin."""
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
        helper.make_node("Add", ["large_scratch_tensor", "hot_buf_0"], ["skip_sum"],
                         name="add_skip"),
        helper.make_node("Relu", ["skip_sum"], ["state_out"], name="relu_state"),
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


def test_example_2_all_scratch_to_psram_except_two_hot_buffers(model):
    plan, result = compile_with(model, RULES / "scratch_to_psram.yaml", "example2")
    placed = placements(plan)
    hot = {"hot_buf_0", "hot_buf_1"}
    # "Push all scratch to PSRAM, except two hot buffers" (to DTCM): every buffer of the two
    # in DTCM (the pinned arena), every other scratch buffer in PSRAM (the scratch arena).
    for tensor, places in placed["SCRATCH"].items():
        assert {m for m, _ in places} == ({"DTCM"} if tensor in hot else {"PSRAM"}), (tensor,
                                                                                      places)
    assert hot <= set(placed["SCRATCH"]), placed["SCRATCH"]
    # The two are live together (hot_buf_0 feeds add_skip), so they do not share bytes.
    homes = sorted((p["offset"], p["offset"] + p["size"])
                   for p in json.loads(tigris("inspect", plan, "--json").stdout)["placements"]
                   if p["tensor"] in hot)
    assert homes[0][1] <= homes[1][0], homes
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    assert "pinned" in lines["DTCM"] and "scratch" in lines["PSRAM"], result.stdout
    text = tigris("inspect", plan).stdout
    assert ("memories   scratch in PSRAM (2048 B), plan in MRAM, state in DTCM (1024 B), "
            "pinned in DTCM (2048 B)\n") in text, text


def test_pinning_frees_the_scratch_arena(model):
    """The two hot buffers leave the scratch arena: it needs less than with every scratch
    tensor in PSRAM (the first rule alone)."""
    rules = WORK_DIR / "rules.scratch_only.yaml"
    rules.write_text("tensors:\n  - type: SCRATCH\n    attributes: { memory: PSRAM }\n")
    alone, _ = compile_with(model, rules, "example2a")
    assert memories_of(placements(alone)["SCRATCH"]) == {"PSRAM"}
    pinned, _ = compile_with(model, RULES / "scratch_to_psram.yaml", "example2b")

    def arena(plan, name):
        memories = json.loads(tigris("inspect", plan, "--json").stdout)["plan"]["memories"]
        return memories[{"fast": 0, "pinned": 6}[name]]["size"]

    assert arena(pinned, "fast") < arena(alone, "fast")
    assert arena(pinned, "pinned") == 2048  # two [1,4,8,8] float tensors, live together


def test_example_3_only_constants_to_mram(model):
    plan, _ = compile_with(model, RULES / "constants_to_mram.yaml", "example3")
    placed = placements(plan)
    assert {t: p for t, p in placed["CONSTANT"].items()} == {
        name: [("MRAM", None)] for name in CONSTANTS}
    # The others on defaults: scratch and state in the fastest memory with room.
    assert memories_of(placed["SCRATCH"]) == {"DTCM"}
    assert placed["PERSISTENT"] == {"state_in": [("DTCM", None)]}


@pytest.mark.parametrize("example", ["defaults_with_overrides", "scratch_to_psram"])
def test_a_ruled_plan_computes_what_onnxruntime_does(model, example):
    plan, _ = compile_with(model, RULES / f"{example}.yaml", f"run.{example}")
    rng = np.random.RandomState(4)
    x = rng.standard_normal([1, 2, 8, 8]).astype(np.float32)
    s = rng.standard_normal([1, 4, 8, 8]).astype(np.float32)
    paths = {n: WORK_DIR / f"rules.run.{example}.{n}.npy" for n in ("x", "s", "y", "so")}
    np.save(paths["x"], x)
    np.save(paths["s"], s)
    # --target first checks that the plan fits the part it was compiled for.
    result = tigris("run", plan, "--target", TARGET, "--input", paths["x"], "--input",
                    paths["s"], "--output", paths["y"], "--output", paths["so"])
    assert "every memory the plan uses fits" in result.stdout, result.stdout
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
                      "what it holds beside the scratch arena alone is "),
    "pinned_to_two_memories": ("tensors:\n  - type: SCRATCH\n    attributes: { memory: PSRAM }\n"
                               "  - id: hot_buf_0\n    attributes: { memory: DTCM }\n"
                               "  - id: hot_buf_1\n    attributes: { memory: SRAM }\n",
                               "a plan pins tensors to one memory besides its scratch arena's"),
    # With a 700-byte DTCM the planner tiles relu_4, so hot_buf_1 never exists whole.
    "pinned_inside_a_tile_loop": ("tensors:\n  - type: SCRATCH\n    id: hot_buf_1\n"
                                  "    attributes: { memory: SRAM }\n",
                                  "rule 0 (type: SCRATCH, id: hot_buf_1, memory: SRAM) at "),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_rule_errors_name_the_rule_and_tensor(model, case):
    text, expected = ERRORS[case]
    rules = WORK_DIR / f"rules.error.{case}.yaml"
    rules.write_text(text)
    target = TARGET
    if case in ("over_capacity", "pinned_inside_a_tile_loop"):
        # A DTCM smaller than the constants and state it would hold (the scratch is tiled
        # to leave room for them, but not below nothing); one that makes it tile.
        size = "8K" if case == "over_capacity" else "700"
        target = WORK_DIR / f"rules.dtcm_{size}.yaml"
        target.write_text(TARGET.read_text().replace("{name: DTCM, size: 64K}",
                                                     f"{{name: DTCM, size: {size}}}"))
    _, result = compile_with(model, rules, f"error.{case}", target=target, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert expected in result.stderr, result.stderr
    assert str(rules) in result.stderr, result.stderr  # the rules file is named
    if case == "pinned_inside_a_tile_loop":
        assert ("tensor 'hot_buf_1' cannot be pinned to a memory of its own: stage 1 (ops "
                "relu_4) computes it in tiles") in result.stderr, result.stderr


def test_an_id_that_matches_no_tensor_is_a_warning(model):
    rules = WORK_DIR / "rules.warning.yaml"
    rules.write_text("tensors:\n  - id: [hot_buf_0, nope]\n    attributes: { memory: DTCM }\n"
                     "  - type: CONSTANT\n    id: x\n    attributes: { memory: MRAM }\n")
    plan, result = compile_with(model, rules, "warning")
    assert "warning: " in result.stderr
    assert "id 'hot_buf_0'" not in result.stderr, result.stderr  # it exists: pinned to DTCM
    assert "id 'nope' matches no tensor of the model" in result.stderr, result.stderr
    assert "id 'x' names a tensor of another kind" in result.stderr, result.stderr
    assert plan.exists()


def test_run_target_refuses_a_plan_the_part_cannot_hold(model):
    """`tigris run --target` checks the plan against a part before running: a DTCM too
    small for what the plan keeps there, and a part without the plan's memories."""
    plan, _ = compile_with(model, RULES / "scratch_to_psram.yaml", "run_target")
    x = WORK_DIR / "rules.run_target.x.npy"
    s = WORK_DIR / "rules.run_target.s.npy"
    np.save(x, np.zeros([1, 2, 8, 8], np.float32))
    np.save(s, np.zeros([1, 4, 8, 8], np.float32))
    io = ["--input", x, "--input", s, "--output", WORK_DIR / "rules.run_target.y.npy",
          "--output", WORK_DIR / "rules.run_target.so.npy"]
    # DTCM holds the state (1,024 bytes) and the two pinned buffers (2,048).
    small = WORK_DIR / "rules.run_target.small.yaml"
    small.write_text(TARGET.read_text().replace("{name: DTCM, size: 64K}",
                                                "{name: DTCM, size: 3000}"))
    result = tigris("run", plan, "--target", small, *io, check=False)
    assert result.returncode == 1, result.stdout
    assert "memory DTCM holds state+pinned, 3072 bytes, but has 3000" in result.stderr, \
        result.stderr
    other = SOURCE_DIR / "examples" / "targets" / "stm32h7.yaml"
    result = tigris("run", plan, "--target", other, *io, check=False)
    assert result.returncode == 1, result.stdout
    assert "lives in memory 'MRAM', which the target does not have" in result.stderr, \
        result.stderr


DTCM_128K = ("memories:\n  - {name: DTCM, size: 128K}\n  - {name: SRAM, size: 512K}\n"
             "  - {name: PSRAM, size: 8M}\n  - {name: MRAM, size: 4M, read_only: true}\n")


def test_rule_example_1_tiles_the_scratch_around_the_constants_it_stages():
    """Example 1 stages every constant into DTCM beside the scratch arena (issue 39): the
    planner gives the scratch what the constants leave of a 128 KiB DTCM, where planning
    it as if it had all of DTCM overflowed it, and the plan runs to the untiled bytes."""
    from test_equivalence import model_path, reference, untiled_bytes
    from plan_checks import inspect

    target = WORK_DIR / "rules.dtcm_128k.yaml"
    target.write_text(DTCM_128K)
    model = model_path("vww_small_cnn", "float")
    plan = WORK_DIR / "rules.example1.dtcm_128k.tgrs"
    result = tigris("compile", model, "--target", target, "--rules",
                    RULES / "defaults_with_overrides.yaml", "-o", plan)
    dtcm = [line.split() for line in result.stdout.splitlines() if line.startswith("DTCM ")]
    assert dtcm and dtcm[0][4] == "scratch+constants", result.stdout
    used = int(dtcm[0][2])
    assert used <= 128 * 1024, result.stdout
    header = inspect(plan)["plan"]
    staged = used - header["fast_arena_bytes"]
    # Meaningful: the untiled scratch beside the same constants would not fit.
    untiled = json.loads(tigris("analyze", model, "-m", "64M", "--json").stdout)
    assert untiled["scheduled_peak_bytes"] + staged > 128 * 1024
    x_path, _ = reference("vww_small_cnn", "float")
    out = WORK_DIR / "rules.example1.dtcm_128k.out.npy"
    tigris("run", plan, "--target", target, "--input", x_path, "--output", out)
    assert np.load(out).tobytes() == untiled_bytes("vww_small_cnn", "float")
