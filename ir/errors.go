package ir

import (
	"errors"
	"strconv"

	"github.com/irdiv/irdiv/internal/pkgerr"
)

// Sentinel error classes; test them with errors.Is.
var (
	// ErrFormat: the file is not an IR v10/v11 model or is malformed.
	ErrFormat = errors.New("malformed IR")
	// ErrWeights: the weights file is missing, short or inconsistent.
	ErrWeights = errors.New("invalid weights")
	// ErrGraph is the class of structural errors: duplicate ids, dangling
	// edges, ports that do not match, cycles.
	ErrGraph = errors.New("invalid graph")
	// ErrLimit: the file exceeds a cap of ReadOptions: it may be valid, but
	// reading it would take more memory than allowed.
	ErrLimit = errors.New("limit exceeded")
	// ErrTooLarge: a tensor's size overflows or exceeds MaxTensorBytes.
	ErrTooLarge = errors.New("tensor too large")
)

// ParseError is an error found while reading a model: the file, the line
// of its XML text when the fault is at one place in it, the layer when
// there is one, and the cause, as encoding/csv.ParseError. The cause is
// this package's (its text then follows the "ir: " prefix and the
// context) or, for a shape or a broadcast rule, shapeinfer's (the context
// then comes first). The context reads "file:line: " when Line is known.
type ParseError struct {
	File string // path of the .xml, or "<memory>"
	// Line is the line of the XML text (from 1) where malformed XML or
	// the element that breaks a cap of ReadOptions is; 0 when the error
	// is not about one place in the text (a layer's attributes, the
	// graph, the weights: Layer names the layer then, when there is one).
	Line  int
	Layer *Layer // the layer at fault, or nil
	Err   error
}

func (e *ParseError) Error() string {
	context := e.File
	if e.Line > 0 {
		context += ":" + strconv.Itoa(e.Line)
	}
	context += ": "
	if e.Layer != nil {
		context += e.Layer.String() + ": "
	}
	if local, ok := pkgerr.Detail("ir", e.Err); ok {
		return "ir: " + context + local.Error()
	}
	return context + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

func errorf(format string, args ...any) error { return pkgerr.Errorf("ir", format, args...) }

// inner returns an error of this package without the package's name, to
// wrap it in another of its messages.
func inner(err error) error {
	detail, _ := pkgerr.Detail("ir", err)
	return detail
}
