#!/usr/bin/env python3
"""Writes the two streaming models of the Cortex-M three-memory test (memories.c): recurrent
cells (tests/models/recurrent_cell.py) with the state pair h=h_next, of different sizes, so
two plans share one scratch arena and keep their own state.

  state_cells.py OUT_DIR   ->  OUT_DIR/cell_a.onnx, OUT_DIR/cell_b.onnx"""
import sys
from pathlib import Path

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))
from recurrent_cell import recurrent_cell  # noqa: E402

# name: (inputs, hidden, outputs, seed). three_memories.yaml's DTCM (800 B) holds either
# cell's scratch (768 B, 672 B) but not its state too, so state goes to SRAM.
CELLS = {"cell_a": (16, 64, 8, 1), "cell_b": (8, 56, 4, 2)}


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, (n_in, hidden, n_out, seed) in CELLS.items():
        onnx.save(recurrent_cell(name, n_in, hidden, n_out, seed), out / f"{name}.onnx")


if __name__ == "__main__":
    main()
