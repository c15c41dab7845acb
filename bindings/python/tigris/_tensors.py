"""Graph inputs and outputs as the C ABI describes them (tigris_tensor_info, tigris.h), and
the mapping between tigris_dtype values and NumPy dtypes."""

from __future__ import annotations

from typing import Callable, Dict, List, TypedDict

import numpy as np

from . import tigris_c as _c
from ._errors import check

# tigris_dtype (pinned values) -> NumPy dtype; TIGRIS_DTYPE_UNKNOWN has none.
_TO_NUMPY: Dict[int, np.dtype] = {
    _c.TIGRIS_DTYPE_FLOAT32: np.dtype(np.float32),
    _c.TIGRIS_DTYPE_INT8: np.dtype(np.int8),
    _c.TIGRIS_DTYPE_UINT8: np.dtype(np.uint8),
    _c.TIGRIS_DTYPE_INT16: np.dtype(np.int16),
    _c.TIGRIS_DTYPE_INT32: np.dtype(np.int32),
    _c.TIGRIS_DTYPE_INT64: np.dtype(np.int64),
    _c.TIGRIS_DTYPE_FLOAT16: np.dtype(np.float16),
    _c.TIGRIS_DTYPE_FLOAT64: np.dtype(np.float64),
    _c.TIGRIS_DTYPE_BOOL: np.dtype(np.bool_),
    _c.TIGRIS_DTYPE_UINT16: np.dtype(np.uint16),
}
_FROM_NUMPY: Dict[np.dtype, int] = {v: k for k, v in _TO_NUMPY.items()}


class TensorInfo(TypedDict):
    """One graph input or output: ``{"name", "shape", "dtype", "scales", "zero_points"}``.
    ``dtype`` is a NumPy dtype name ("float32", "int8", ...); ``scales`` and
    ``zero_points`` are empty unless the tensor is quantized."""

    name: str
    shape: List[int]
    dtype: str
    scales: List[float]
    zero_points: List[int]


def numpy_dtype(tigris_dtype: int) -> np.dtype:
    """The NumPy dtype of a tigris_dtype value (ValueError for UNKNOWN)."""
    try:
        return _TO_NUMPY[int(tigris_dtype)]
    except KeyError:
        raise ValueError(f"tigris_dtype {tigris_dtype} has no NumPy equivalent") from None


def tigris_dtype(dtype: np.dtype) -> int:
    """The tigris_dtype value of a NumPy dtype (TIGRIS_DTYPE_UNKNOWN if it has none)."""
    return _FROM_NUMPY.get(np.dtype(dtype), _c.TIGRIS_DTYPE_UNKNOWN)


def describe(fill: Callable[[object], int], last_error: Callable[[], str]) -> TensorInfo:
    """Calls ``fill(info)`` (tigris_plan_input, tigris_model_tensor, ...) on a fresh
    tigris_tensor_info and converts what it filled into a TensorInfo."""
    info = _c.tigris_tensor_info()
    info.version = _c.TIGRIS_TENSOR_INFO_VERSION
    check(fill(info), last_error)
    try:
        dtype = numpy_dtype(info.dtype).name
    except ValueError:
        dtype = "unknown"
    return TensorInfo(
        name=info.name,
        shape=[int(_c.tigris_tensor_info_dim(info, i)) for i in range(info.rank)],
        dtype=dtype,
        scales=[float(_c.tigris_tensor_info_scale(info, i)) for i in range(info.num_scales)],
        zero_points=[int(_c.tigris_tensor_info_zero_point(info, i))
                     for i in range(info.num_scales)],
    )
