// Package ops turns IR layers into typed operations: Parameter, Const,
// Result and Divide-1. Each op reads its attributes from an ir.Layer with
// OpenVINO's defaults and parsing rules, checks element types and infers
// shapes through shapeinfer, and Divide evaluates on tensors with the
// kernels of ops/internal/kernel.
//
// Divide is exact for all twelve numeric types: integers floor when
// m_pythondiv is true and truncate when it is false, floats follow IEEE 754,
// f16 and bf16 are correctly rounded. Integer division by zero and signed
// MIN / -1 are a *DivideError (ErrDivideByZero, ErrOverflow) naming the
// first offending flat output index.
//
// One division: Divide.Prepare checks the operands' types and shapes once
// (the same inference as a model's) and returns a Call, which evaluates
// into a new tensor (Evaluate) or a given one (Run) as often as needed.
package ops

import (
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// ValueInfo is what flows along an edge during inference: an element type
// and a partial shape (ONNX's name for it).
type ValueInfo struct {
	Type  ir.ElementType
	Shape shapeinfer.Shape
}

func (v ValueInfo) String() string { return v.Type.String() + v.Shape.String() }

// Op is an operation irdiv can infer and, for the four supported types,
// execute.
type Op interface {
	// Infer returns the output infos for the given input infos.
	Infer(inputs []ValueInfo) ([]ValueInfo, error)
}

// maxOpset is the newest opset irdiv accepts; Divide-1 is in every opset.
const maxOpset = 16

// New builds the op of a layer: a *Parameter, *Const, *Result or *Divide.
// Layers of other types, or from an opset that is not opset1..opset16,
// fail with ErrUnsupportedOp.
func New(l *ir.Layer) (Op, error) {
	typ := strings.ToLower(l.Type)
	builder, ok := builders[typ]
	if !ok {
		return nil, &LayerError{l, errorf("%w: irdiv cannot execute %s (%s)", ErrUnsupportedOp, l.Type, l.Version)}
	}
	if n, ok := strings.CutPrefix(l.Version, "opset"); !ok || !validOpset(n) {
		return nil, &LayerError{l, errorf("%w: Cannot create %s layer %s id:%d from unsupported opset: %s", ErrUnsupportedOp, l.Type, l.Name, l.ID, l.Version)}
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
	"result":    func(*ir.Layer) (Op, error) { return &Result{}, nil },
	"divide":    func(l *ir.Layer) (Op, error) { return divideFromLayer(l) },
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
		return nil, errorf("%w: Parameter without element_type", ErrAttribute)
	}
	t, err := ir.ParseElementType(s)
	if err != nil {
		return nil, err
	}
	shapeText, ok := l.DataAttr("shape")
	if !ok {
		return nil, errorf("%w: Parameter without shape", ErrAttribute)
	}
	shape, err := shapeinfer.ParseShape(shapeText)
	if err != nil {
		return nil, err
	}
	return &Parameter{Type: t, Shape: shape}, nil
}

// Infer returns the declared type and shape.
func (p *Parameter) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := noInputs("Parameter", in); err != nil {
		return nil, err
	}
	return []ValueInfo{{p.Type, p.Shape}}, nil
}

func noInputs(typ string, in []ValueInfo) error {
	if len(in) != 0 {
		return errorf("%w: %s has no inputs, but the layer declares %s", ir.ErrGraph, typ, count(len(in), "input port"))
	}
	return nil
}

// Const is a constant tensor. Tensor is nil when the model was read
// without its weights: the type and shape still infer, evaluation fails
// with ErrNoWeights.
type Const struct {
	Type   ir.ElementType
	Shape  []int64
	Tensor *ir.Tensor
}

func newConst(l *ir.Layer) (Op, error) {
	if l.Constant != nil {
		return &Const{Type: l.Constant.Type, Shape: l.Constant.Shape, Tensor: l.Constant}, nil
	}
	if len(l.Outputs) != 1 {
		return nil, errorf("%w: Const must have one output port", ErrAttribute)
	}
	c := &Const{Type: l.Outputs[0].Type, Shape: l.Outputs[0].Dims}
	if s, ok := l.DataAttr("element_type"); ok {
		t, err := ir.ParseElementType(s)
		if err != nil {
			return nil, err
		}
		c.Type = t
	}
	if s, ok := l.DataAttr("shape"); ok {
		shape, err := shapeinfer.ParseShape(s)
		dims, static := shape.ToStatic()
		if err != nil || !static {
			return nil, errorf("%w: Const shape %q is not static", ErrAttribute, s)
		}
		c.Shape = dims
	}
	return c, nil
}

// Infer returns the constant's type and static shape.
func (c *Const) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := noInputs("Const", in); err != nil {
		return nil, err
	}
	return []ValueInfo{{c.Type, shapeinfer.StaticShape(c.Shape...)}}, nil
}

// Result is a model output.
type Result struct{}

// Infer checks the one input; a Result has no outputs.
func (*Result) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) != 1 {
		return nil, errorf("%w: Result has 1 input, but the layer declares %s", ir.ErrGraph, count(len(in), "input port"))
	}
	return nil, nil
}
