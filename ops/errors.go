package ops

import (
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Sentinel error classes; test them with errors.Is.
var (
	// ErrUnsupportedOp: irdiv cannot execute the layer's type or opset.
	ErrUnsupportedOp = errors.New("unsupported operation")
	// ErrType: element types that do not fit the operation.
	ErrType = errors.New("invalid element type")
	// ErrDivideByZero: an integer divisor is zero.
	ErrDivideByZero = errors.New("integer division by zero")
	// ErrOverflow: a signed MIN / -1, whose quotient does not fit.
	ErrOverflow = errors.New("integer division overflow")
	// ErrAttribute: an attribute value OpenVINO rejects.
	ErrAttribute = errors.New("invalid attribute")
	// ErrNoWeights: a Const whose value is needed was read without its
	// weights (OpenVINO's words for it).
	ErrNoWeights = errors.New("Empty weights data in bin file or bin file cannot be found!")
)

// ErrShape is shapeinfer's class of shape errors ("Argument shapes are inconsistent.").
var ErrShape = shapeinfer.ErrShape

// LayerError is an error that belongs to one layer. An error of this
// package reads "ops: layer "div" (id 2): ..."; a cause from another
// package keeps that package's name after the layer: "layer "div" (id 2):
// shapeinfer: Argument shapes are inconsistent. ...".
type LayerError struct {
	Layer *ir.Layer
	Err   error
}

func (e *LayerError) Error() string {
	if local, ok := pkgerr.Detail("ops", e.Err); ok {
		return fmt.Sprintf("ops: %s: %s", e.Layer, local)
	}
	if d, ok := e.Err.(*DivideError); ok {
		return fmt.Sprintf("ops: %s: %s", e.Layer, d.detail())
	}
	return fmt.Sprintf("%s: %v", e.Layer, e.Err)
}

func (e *LayerError) Unwrap() error { return e.Err }

// DivideError is an integer division without a quotient: a zero divisor
// (Err is ErrDivideByZero) or signed MIN / -1 (ErrOverflow), at the lowest
// offending flat index of the broadcast output.
type DivideError struct {
	Index int
	Err   error
}

func (e *DivideError) Error() string { return "ops: " + e.detail() }
func (e *DivideError) detail() string {
	return fmt.Sprintf("%v at flat output index %d", e.Err, e.Index)
}
func (e *DivideError) Unwrap() error { return e.Err }

func errorf(format string, args ...any) error { return pkgerr.Errorf("ops", format, args...) }
