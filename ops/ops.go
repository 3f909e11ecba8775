// Package ops turns IR layers into typed operations: Parameter, Const,
// Result and Divide-1. Each op reads its attributes from an ir.Layer with
// OpenVINO's defaults and parsing rules, checks element types and infers
// shapes through shapeinfer, and Divide evaluates on tensors with the
// kernels of ops/internal/kernel.
//
// Divide is exact for all twelve numeric types: integers floor when
// m_pythondiv is true and truncate when it is false, floats follow IEEE 754,
// f16 and bf16 are correctly rounded. Integer division by zero and signed
// MIN / -1 are errors (ErrDivideByZero, ErrOverflow) that name the first
// offending flat output index.
package ops

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops/internal/kernel"
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
	// ErrWeights: a Const has no data.
	ErrWeights = errors.New("missing weights")
)

// ErrShape is shapeinfer's class of shape errors ("Argument shapes are inconsistent.").
var ErrShape = shapeinfer.ErrShape

// LayerError is an error that belongs to one layer.
type LayerError struct {
	Layer *ir.Layer
	Err   error
}

func (e *LayerError) Error() string { return fmt.Sprintf("ops: %s: %v", e.Layer, e.Err) }

func (e *LayerError) Unwrap() error { return e.Err }

// Value is what flows along an edge during inference: an element type and
// a partial shape.
type Value struct {
	Type  ir.ElementType
	Shape shapeinfer.Shape
}

func (v Value) String() string { return v.Type.String() + v.Shape.String() }

// Op is an operation irdiv can infer and, for the four supported types,
// execute.
type Op interface {
	// Infer returns the output values for the given input values.
	Infer(inputs []Value) ([]Value, error)
}

// maxOpset is the newest opset irdiv accepts; Divide-1 is in every opset.
const maxOpset = 16

// New builds the op of a layer. Layers of other types, or from an opset
// that is not opset1..opset16, fail with ErrUnsupportedOp.
func New(l *ir.Layer) (Op, error) {
	typ := strings.ToLower(l.Type)
	builder, ok := builders[typ]
	if !ok {
		return nil, &LayerError{l, fmt.Errorf("%w: irdiv cannot execute %s (%s)", ErrUnsupportedOp, l.Type, l.Version)}
	}
	if n, ok := strings.CutPrefix(l.Version, "opset"); !ok || !validOpset(n) {
		return nil, &LayerError{l, fmt.Errorf("%w: Cannot create %s layer %s id:%d from unsupported opset: %s", ErrUnsupportedOp, l.Type, l.Name, l.ID, l.Version)}
	}
	op, err := builder(l)
	if err != nil {
		return nil, &LayerError{l, err}
	}
	return op, nil
}

func validOpset(n string) bool {
	v, err := strconv.Atoi(n)
	return err == nil && v >= 1 && v <= maxOpset
}

var builders = map[string]func(*ir.Layer) (Op, error){
	"parameter": newParameter,
	"const":     newConst,
	"constant":  newConst,
	"result":    func(*ir.Layer) (Op, error) { return Result{}, nil },
	"divide":    func(l *ir.Layer) (Op, error) { return DivideFromLayer(l) },
}

// Supported reports whether irdiv can execute the layer.
func Supported(l *ir.Layer) bool {
	_, err := New(l)
	return err == nil
}

// Parameter is a model input.
type Parameter struct {
	Type  ir.ElementType
	Shape shapeinfer.Shape
}

func newParameter(l *ir.Layer) (Op, error) {
	s, ok := l.DataAttr("element_type")
	if !ok {
		return nil, fmt.Errorf("%w: Parameter without element_type", ErrAttribute)
	}
	t, err := ir.ParseElementType(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAttribute, err)
	}
	shapeText, ok := l.DataAttr("shape")
	if !ok {
		return nil, fmt.Errorf("%w: Parameter without shape", ErrAttribute)
	}
	shape, err := shapeinfer.ParseShape(shapeText)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAttribute, err)
	}
	return &Parameter{Type: t, Shape: shape}, nil
}

// Infer returns the declared type and shape.
func (p *Parameter) Infer(in []Value) ([]Value, error) {
	if err := noInputs("Parameter", in); err != nil {
		return nil, err
	}
	return []Value{{p.Type, p.Shape}}, nil
}

func noInputs(typ string, in []Value) error {
	if len(in) != 0 {
		return fmt.Errorf("%w: %s has no inputs, but the layer declares %s", ir.ErrGraph, typ, count(len(in), "input port"))
	}
	return nil
}

// Const is a constant tensor. Value is nil when the model was read
// without its weights: the type and shape still infer, evaluation fails.
type Const struct {
	Type  ir.ElementType
	Shape []int64
	Value *ir.Tensor
}

func newConst(l *ir.Layer) (Op, error) {
	if l.Value != nil {
		return &Const{Type: l.Value.Type, Shape: l.Value.Shape, Value: l.Value}, nil
	}
	if len(l.Outputs) != 1 {
		return nil, fmt.Errorf("%w: Const must have one output port", ErrAttribute)
	}
	c := &Const{Type: l.Outputs[0].Type, Shape: l.Outputs[0].Dims}
	if s, ok := l.DataAttr("element_type"); ok {
		t, err := ir.ParseElementType(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrAttribute, err)
		}
		c.Type = t
	}
	if s, ok := l.DataAttr("shape"); ok {
		shape, err := shapeinfer.ParseShape(s)
		dims, static := shape.ToStatic()
		if err != nil || !static {
			return nil, fmt.Errorf("%w: Const shape %q", ErrAttribute, s)
		}
		c.Shape = dims
	}
	return c, nil
}

// ErrNoWeights is the OpenVINO message for a Const whose data is needed
// but was not loaded.
var ErrNoWeights = fmt.Errorf("%w: Empty weights data in bin file or bin file cannot be found!", ErrWeights)

// Tensor returns the constant's value, or ErrNoWeights.
func (c *Const) Tensor() (*ir.Tensor, error) {
	if c.Value == nil {
		return nil, ErrNoWeights
	}
	return c.Value, nil
}

// Infer returns the constant's type and static shape.
func (c *Const) Infer(in []Value) ([]Value, error) {
	if err := noInputs("Const", in); err != nil {
		return nil, err
	}
	return []Value{{c.Type, shapeinfer.StaticShape(c.Shape...)}}, nil
}

// Result is a model output.
type Result struct{}

// Infer passes its input through.
func (Result) Infer(in []Value) ([]Value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%w: Result has 1 input, but the layer declares %s", ir.ErrGraph, count(len(in), "input port"))
	}
	return nil, nil
}

// SIMDLevel is a kernel level: generic (pure Go) or avx2.
type SIMDLevel = kernel.Level

// SIMDLevels returns the levels this machine and build can run, lowest first.
func SIMDLevels() []SIMDLevel { return kernel.Levels() }

// ParseSIMDLevel parses "auto", "avx2" or "generic" and checks that the
// level can run here.
func ParseSIMDLevel(s string) (SIMDLevel, error) {
	l, err := kernel.ParseLevel(s)
	if err != nil {
		return 0, fmt.Errorf("ops: %w", err)
	}
	if _, err := kernel.Lookup(l); err != nil {
		return 0, fmt.Errorf("ops: %w", err)
	}
	return l, nil
}
