// Package ops turns IR layers into typed OpenVINO operations: it reads
// each op's attributes from an ir.Layer with OpenVINO's defaults and
// parsing rules, infers output types and shapes as OpenVINO's shape
// inference does (src/core/shape_inference), and computes outputs as
// OpenVINO's reference evaluate does (src/core/reference), for constant
// folding and for confirming counter-examples.
//
// New builds the op of a layer; its version is the newest one the layer's
// opset contains (Gather in opset8 and later is Gather-8), per OpenVINO's
// opset tables, opset16 included (which holds only Parameter, Convert,
// ShapeOf and its new ops). Layers irdiv does not know fail with
// ErrUnsupportedOp and stay opaque, with the ports their file declares.
//
// Catalog lists every op and version irdiv knows, and whether Evaluate
// computes it or only its types and shapes are known (the convolutions,
// poolings, MatMul, Interpolate, Softmax and the float activations, which
// also give their output dimensions as SpatialRules); docs/ops.md is
// generated from it, so that the list cannot drift from the registry.
// If-8 and Loop-5 run their bodies (models of their own) as a Program
// does, every body run of one evaluation counted against
// Options.MaxBodyRuns.
//
// Evaluation is exact where OpenVINO's reference defines one answer:
// integers wrap around (two's complement), f32 and f64 are computed one
// IEEE operation at a time as the reference C++ is written, f16 and bf16
// in f32 and rounded to nearest even. Where C++ leaves the answer to the
// compiler (a float converted to an integer out of range, the integer ops
// that go through a double), irdiv gives what GCC's x86-64 build of
// OpenVINO gives (see Convert). Integer division by zero (Divide, FloorMod,
// Mod) and signed MIN / -1 (Divide) are a *DivideError (ErrDivideByZero,
// ErrOverflow) naming the first offending flat output index.
//
// Walk is the one walk of a model: its layers in topological order, each
// with its op and its inputs checked, stopping at the first error or
// collecting them all. Evaluate computes any op irdiv evaluates;
// InferModel infers a whole model on that walk and, like OpenVINO's
// constant folding, gives every output it can compute from constants its
// Value; InferFold and Layer do the same for one op, Layer also appending
// it to a model under construction.
//
// Divide evaluates with the SIMD kernels of ops/internal/kernel: one
// division, Divide.Prepare checks the operands' types and shapes once (the
// same inference as a model's) and returns a Call, which evaluates into a
// new tensor (Evaluate) or a given one (Run) as often as needed. Divide is
// exact for all twelve numeric types: integers floor when m_pythondiv is
// true and truncate when it is false, floats follow IEEE 754, f16 and bf16
// are correctly rounded.
package ops

import (
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// ValueInfo is what flows along an edge during inference: an element type
// and a partial shape (ONNX's name for it), and the tensor's value when
// inference knows it: a Const's weights, or an op folded from constant
// inputs (InferModel, Layer). Infer may read the inputs' values, as
// OpenVINO's shape inference reads constant inputs (a Reshape pattern, the
// axes of a reduction...); it never sets them on its outputs.
type ValueInfo struct {
	Type  ir.ElementType
	Shape shapeinfer.Shape
	Value *ir.Tensor
}

func (v ValueInfo) String() string { return v.Type.String() + v.Shape.String() }

// Op is an operation irdiv knows: it infers output types and shapes, and
// most ops also compute them (Evaluate).
type Op interface {
	// Infer returns the output infos for the given input infos.
	Infer(inputs []ValueInfo) ([]ValueInfo, error)
	// OpType returns the IR type and version of the op: "Gather", "opset8".
	OpType() (typ, version string)
	// Attrs returns the <data> attributes in OpenVINO's serializer order.
	Attrs() []ir.Attr
}

// Broadcaster is implemented by the element-wise ops of two or more
// inputs that broadcast them: the binary arithmetic, comparison and logic
// ops, Divide and Select.
type Broadcaster interface {
	AutoBroadcast() shapeinfer.Broadcast
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
	return []ValueInfo{{Type: p.Type, Shape: p.Shape}}, nil
}

func (*Parameter) OpType() (string, string) { return "Parameter", "opset1" }

// Attrs writes shape and element_type, as the serializer does.
func (p *Parameter) Attrs() []ir.Attr {
	return []ir.Attr{attr("shape", strings.Trim(p.Shape.String(), "[]")), attr("element_type", p.Type.String())}
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
	return []ValueInfo{{Type: c.Type, Shape: shapeinfer.StaticShape(c.Shape...), Value: c.Tensor}}, nil
}

func (*Const) OpType() (string, string) { return "Const", "opset1" }

// Attrs writes element_type and shape; offset and size belong to the
// weights file and are written by ir.Model.AddConst.
func (c *Const) Attrs() []ir.Attr {
	return []ir.Attr{attr("element_type", c.Type.String()), attr("shape", formatInts(c.Shape))}
}

func (c *Const) evaluate(_, out []*ir.Tensor, _ Options) error {
	if c.Tensor == nil {
		return errorf("%w", ErrNoWeights)
	}
	copy(out[0].Data, c.Tensor.Data)
	return nil
}

// Result is a model output.
type Result struct{}

func (*Result) OpType() (string, string) { return "Result", "opset1" }
func (*Result) Attrs() []ir.Attr         { return nil }

func (*Result) evaluate(_, _ []*ir.Tensor, _ Options) error { return nil }

// Infer checks the one input; a Result has no outputs.
func (*Result) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) != 1 {
		return nil, errorf("%w: Result has 1 input, but the layer declares %s", ir.ErrGraph, count(len(in), "input port"))
	}
	return nil, nil
}
