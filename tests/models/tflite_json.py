"""A .tflite stated as FlatBuffers JSON against our schema subset (format/tflite.fbs) and
compiled to binary by flatc: small models written by hand, with no TensorFlow, for the fuzz
seeds (fuzz/make_tflite_seeds.py) and the single-op cases (make_tflite_op_cases.py). Field
ids are TFLite's, so TFLM's interpreter reads the result as any converter's file."""
import json
import pathlib
import struct
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "format" / "tflite.fbs"


class Model:
    def __init__(self):
        self.tensors, self.buffers, self.ops, self.codes = [], [{}], [], []

    def tensor(self, name, shape, type_="FLOAT32", data=None, quant=None):
        t = {"name": name, "shape": shape, "type": type_}
        if data is not None:
            t["buffer"] = len(self.buffers)
            self.buffers.append({"data": list(data)})
        if quant is not None:
            scales, zero_points, axis = quant
            t["quantization"] = {"scale": scales, "zero_point": zero_points,
                                 "quantized_dimension": axis}
        self.tensors.append(t)
        return len(self.tensors) - 1

    def int32(self, name, values, shape=None):
        data = struct.pack(f"<{len(values)}i", *values)
        return self.tensor(name, [len(values)] if shape is None else shape, "INT32", data)

    def op(self, code, inputs, outputs, options_type=None, **options):
        if code not in self.codes:
            self.codes.append(code)
        op = {"opcode_index": self.codes.index(code), "inputs": inputs, "outputs": outputs}
        if options_type:
            op["builtin_options_type"] = options_type
            op["builtin_options"] = options
        self.ops.append(op)

    def json(self, inputs, outputs, description="tigris test model"):
        return {"version": 3,
                "operator_codes": [{"deprecated_builtin_code": 0, "builtin_code": c}
                                   for c in self.codes],
                "subgraphs": [{"tensors": self.tensors, "inputs": inputs, "outputs": outputs,
                               "operators": self.ops, "name": "main"}],
                "description": description, "buffers": self.buffers}


def compile_tflite(model_json, flatc="flatc"):
    """The .tflite bytes of a model given as Model.json()."""
    with tempfile.TemporaryDirectory() as tmp:
        source = pathlib.Path(tmp) / "model.json"
        source.write_text(json.dumps(model_json))
        subprocess.run([flatc, "-b", "-o", tmp, str(SCHEMA), str(source)], check=True)
        # flatc names the binary after the schema's file_extension.
        return (pathlib.Path(tmp) / "model.tflite").read_bytes()
