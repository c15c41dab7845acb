#!/usr/bin/env python3
"""Exports the architecture zoo from torchvision, once, on a developer's machine.

CI has no PyTorch (a multi-GB install), so the graphs are exported here and committed;
CI refills their weights with materialize.py, which needs only numpy and onnx. Each
model is built with random weights (torch.manual_seed(0) before each, weights=None,
.eval()) and exported with the TorchScript exporter (dynamo=False), opset 13, batch 1,
static shapes, constant folding on (which folds BatchNormalization into Conv in eval
mode). Inputs are small (64x64 or 128x128) so compiling and running a model is fast.

Then per model: onnx.checker and strict ONNX shape inference (the inferred shapes are
kept in the file), and the weights are stripped: every floating-point initializer with
more than STRIP_ABOVE elements becomes a TensorProto with its name, dims and data_type,
no data, and doc_string materialize.STRIPPED. Integer and small float initializers stay
verbatim: they are shapes, axes, Slice bounds, Resize scales, and the model is wrong
without them. The result is <name>.graph.onnx beside this script, a few KB each.

manifest.json records, per model, the torchvision call, the input and output, the
parameter count, the op types, the node count and the file size, with the torch,
torchvision and onnx versions. The Markdown table of README.md is printed at the end.

Needs torch, torchvision and onnx, which live in their own venv (README.md):
    .venv-torch/bin/python tests/models/arch_zoo/export.py
"""
import json
import pathlib
import sys
import tempfile

import onnx
import torch
import torchvision

from materialize import STRIPPED

HERE = pathlib.Path(__file__).resolve().parent
OPSET = 13
STRIP_ABOVE = 64  # elements; a float initializer this small is kept verbatim
FLOAT_TYPES = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
               onnx.TensorProto.BFLOAT16}

# (name, torchvision function, its keyword arguments, input height = width)
MODELS = [
    ("resnet18", "models.resnet18", {}, 64),
    ("mobilenet_v2", "models.mobilenet_v2", {}, 64),
    ("mobilenet_v3_small", "models.mobilenet_v3_small", {}, 64),
    ("mobilenet_v3_large", "models.mobilenet_v3_large", {}, 64),
    ("efficientnet_b0", "models.efficientnet_b0", {}, 64),
    ("mnasnet0_5", "models.mnasnet0_5", {}, 64),
    ("shufflenet_v2_x0_5", "models.shufflenet_v2_x0_5", {}, 128),
    ("squeezenet1_1", "models.squeezenet1_1", {}, 64),
    ("regnet_x_400mf", "models.regnet_x_400mf", {}, 64),
    ("googlenet", "models.googlenet",
     {"aux_logits": False, "init_weights": True, "transform_input": False}, 64),
    ("densenet121", "models.densenet121", {}, 64),
    ("lraspp_mobilenet_v3_large", "models.segmentation.lraspp_mobilenet_v3_large",
     {"weights_backbone": None}, 128),
    ("deeplabv3_mobilenet_v3_large", "models.segmentation.deeplabv3_mobilenet_v3_large",
     {"weights_backbone": None, "aux_loss": False}, 128),
    ("fcn_resnet50", "models.segmentation.fcn_resnet50",
     {"weights_backbone": None, "aux_loss": False}, 64),
]


class SegmentationOut(torch.nn.Module):
    """torchvision's segmentation models return a dict; the ONNX graph gets its "out"."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def build(function, kwargs):
    """The torchvision model with random weights (weights=None: nothing is downloaded)."""
    torch.manual_seed(0)
    target = torchvision
    for part in function.split("."):
        target = getattr(target, part)
    model = target(weights=None, **kwargs).eval()
    return SegmentationOut(model) if ".segmentation." in function else model


def export(model, size):
    """The checked ONNX model with inferred shapes."""
    with tempfile.TemporaryDirectory() as workdir:
        path = pathlib.Path(workdir) / "model.onnx"
        torch.onnx.export(model, (torch.zeros(1, 3, size, size),), str(path), dynamo=False,
                          opset_version=OPSET, do_constant_folding=True,
                          input_names=["input"], output_names=["output"])
        exported = onnx.load(str(path))
    onnx.checker.check_model(exported, full_check=True)
    return onnx.shape_inference.infer_shapes(exported, check_type=True, strict_mode=True)


def strip(model):
    """Replaces each large float initializer by its name, dims and type; returns the count."""
    stripped = 0
    for tensor in model.graph.initializer:
        elements = 1
        for d in tensor.dims:
            elements *= d
        if tensor.data_type in FLOAT_TYPES and elements > STRIP_ABOVE:
            tensor.CopyFrom(onnx.TensorProto(name=tensor.name, dims=tensor.dims,
                                             data_type=tensor.data_type, doc_string=STRIPPED))
            stripped += 1
    return stripped


def shape_of(value):
    return [d.dim_value for d in value.type.tensor_type.shape.dim]


def main():
    entries = []
    for name, function, kwargs, size in MODELS:
        print(f"{name}: exporting at {size}x{size}", file=sys.stderr, flush=True)
        torch_model = build(function, kwargs)
        model = export(torch_model, size)
        stripped = strip(model)
        path = HERE / f"{name}.graph.onnx"
        onnx.save(model, str(path))
        source = {"function": f"torchvision.{function}", "args": {"weights": None, **kwargs}}
        if isinstance(torch_model, SegmentationOut):
            source["output"] = "out"  # the key of the dict the model returns
        entries.append({
            "name": name,
            "file": path.name,
            "source": source,
            "input": {"name": model.graph.input[0].name, "shape": shape_of(model.graph.input[0])},
            "output": {"name": model.graph.output[0].name,
                       "shape": shape_of(model.graph.output[0])},
            "parameters": sum(p.numel() for p in torch_model.parameters()),
            "nodes": len(model.graph.node),
            "ops": sorted({n.op_type for n in model.graph.node}),
            "stripped_initializers": stripped,
            "bytes": path.stat().st_size,
        })
    manifest = {
        "exported_by": "tests/models/arch_zoo/export.py",
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "onnx": onnx.__version__,
        "opset": OPSET,
        "seed": 0,
        "strip_above_elements": STRIP_ABOVE,
        "models": entries,
    }
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print("| model | input | parameters | nodes | .graph.onnx | ops |")
    print("|---|---|---|---|---|---|")
    for e in entries:
        size = "x".join(map(str, e["input"]["shape"][2:]))
        print(f"| {e['name']} | {size} | {e['parameters']:,} | {e['nodes']} | "
              f"{e['bytes'] / 1024:.1f} KB | {', '.join(e['ops'])} |")
    total = sum(e["bytes"] for e in entries)
    print(f"\ntotal {total / 1024:.1f} KB in {len(entries)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
