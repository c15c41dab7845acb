package tigris

import "fmt"

// Status is a tigris_status of include/tigris.h; the values are pinned forever.
type Status int

const (
	StatusOK                      Status = 0
	StatusInvalidArgument         Status = 1
	StatusIO                      Status = 2
	StatusEmptyModel              Status = 3
	StatusNotONNX                 Status = 4
	StatusTruncatedModel          Status = 5
	StatusInvalidModel            Status = 6
	StatusGraphCycle              Status = 7
	StatusDanglingInput           Status = 8
	StatusUnsupportedOp           Status = 9
	StatusDynamicShape            Status = 10
	StatusShapeInference          Status = 11
	StatusExternalData            Status = 12
	StatusUnsupportedDType        Status = 13
	StatusUnsupportedQuantization Status = 14
	StatusOutOfMemory             Status = 15
	StatusInternal                Status = 16
	StatusInvalidBudget           Status = 17
	StatusSlowBudgetTooSmall      Status = 18
	StatusFlashBudgetTooSmall     Status = 19
	StatusVersionMismatch         Status = 20
	StatusDoesNotFit              Status = 21
	StatusInvalidPlan             Status = 22
)

// String is the stable name, e.g. "TIGRIS_ERR_IO".
func (s Status) String() string { return statusName(s) }

// Error is a failed libtigris call: its status and the library's message (which names the
// file, op, tensor or field at fault). Use errors.As to read it, errors.Is to test a status:
// errors.Is(err, &tigris.Error{Status: tigris.StatusIO}).
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Status, e.Message) }

// Is matches any *Error with the same status.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status
}
