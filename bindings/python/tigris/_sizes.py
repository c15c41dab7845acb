"""Byte sizes given as ints or as human text ("256K", "1.5MiB"), parsed by the library's
own tigris_parse_size so every binding and the CLI agree on the units (tigris.h)."""

from typing import Optional, Union

from . import tigris_c as _c
from ._errors import check, error_for

Size = Union[int, str]


def parse_size(size: Size) -> int:
    """Returns `size` in bytes. Accepts a positive int or a string tigris_parse_size reads."""
    if isinstance(size, bool):
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, f"size must be an int or str, not {size!r}")
    if isinstance(size, int):
        if size <= 0 or size >= 2**64:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, f"size out of range: {size}")
        return size
    if isinstance(size, str):
        status, value = _c.tigris_parse_size(size)
        check(status)
        return int(value)
    raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, f"size must be an int or str, not {size!r}")


def optional_size(size: Optional[Size]) -> int:
    """None means "not given", which the C ABI spells 0."""
    return 0 if size is None else parse_size(size)
