"""tigris.Error and one subclass per status code of include/tigris.h.

Status values are pinned forever in the C ABI, so the table below is too; a status this
table does not know (a newer library) still raises the base class tigris.Error.
"""

from . import tigris_c as _c


class Error(Exception):
    """A libtigris call failed. ``status`` is the tigris_status value (e.g. 2 for
    TIGRIS_ERR_IO), ``status_name`` its stable name, ``message`` the library's message."""

    def __init__(self, status, message):
        self.status = int(status)
        self.status_name = _c.tigris_status_name(self.status)
        self.message = message
        super().__init__(f"{self.status_name}: {message}")


# (status value, class name): the status names of tigris.h in CamelCase.
_STATUS_CLASSES = [
    (1, "InvalidArgumentError"),
    (2, "IOError"),
    (3, "EmptyModelError"),
    (4, "NotOnnxError"),
    (5, "TruncatedModelError"),
    (6, "InvalidModelError"),
    (7, "GraphCycleError"),
    (8, "DanglingInputError"),
    (9, "UnsupportedOpError"),
    (10, "DynamicShapeError"),
    (11, "ShapeInferenceError"),
    (12, "ExternalDataError"),
    (13, "UnsupportedDtypeError"),
    (14, "UnsupportedQuantizationError"),
    (15, "OutOfMemoryError"),
    (16, "InternalError"),
    (17, "InvalidBudgetError"),
    (18, "SlowBudgetTooSmallError"),
    (19, "FlashBudgetTooSmallError"),
    (20, "VersionMismatchError"),
    (21, "DoesNotFitError"),
    (22, "InvalidPlanError"),
]

_BY_STATUS = {}
for _status, _name in _STATUS_CLASSES:
    _BY_STATUS[_status] = type(_name, (Error,), {"__doc__": f"Raised for status {_status}."})
    globals()[_name] = _BY_STATUS[_status]


__all__ = ["Error", "error_for"] + [name for _, name in _STATUS_CLASSES]


def error_for(status, message):
    """The Error subclass instance for `status` (tigris.Error for an unknown one)."""
    return _BY_STATUS.get(int(status), Error)(status, message)


def check(status, message_source=None):
    """Raises the matching Error when `status` is not TIGRIS_OK. The message comes from
    the handle's last error when one is given, else from tigris_last_error()."""
    if status == _c.TIGRIS_OK:
        return
    message = message_source() if message_source else _c.tigris_last_error()
    raise error_for(status, message)
