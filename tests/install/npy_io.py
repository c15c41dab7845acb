"""The .npy side of install_test.cmake, kept out of CMake (whose lists split on ';').

usage: npy_io.py input X.npy        the consumers' input pattern (consumer/input_pattern.h)
                                    for mnist8's 1x1x28x28 input
       npy_io.py raw Y.npy OUT.bin  the array's bytes, to compare with the consumers' output
"""
import sys

import numpy as np

if sys.argv[1] == "input":
    i = np.arange(28 * 28)
    x = (((i * 7) % 23) / 8.0 - 1.25).astype(np.float32).reshape(1, 1, 28, 28)
    np.save(sys.argv[2], x)
elif sys.argv[1] == "raw":
    with open(sys.argv[3], "wb") as f:
        f.write(np.load(sys.argv[2]).tobytes())
else:
    sys.exit(__doc__)
