package ops

import (
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Inference is the result of InferModel: the layers in the order of the
// walk and what feeds each, the ops of the layers irdiv knows, the output
// infos of every layer (with the values folded from constants), and the
// layers irdiv does not know, whose outputs are taken from the ports
// declared in the file.
type Inference struct {
	Order       []*ir.Layer
	Sources     map[*ir.Layer][]ir.Output
	Ops         map[*ir.Layer]Op
	Outputs     map[*ir.Layer][]ValueInfo
	Unsupported []*ir.Layer
}

// InferModel infers the outputs of every layer in topological order
// (Walk): the layers whose op irdiv knows through the op (New), the others
// from the ports declared in the file. An op that cannot be built or
// whose inference fails stops it with a *LayerError.
//
// Like OpenVINO's constant folding, it also computes values: a Const's
// output has its weights as Value, and a layer whose inputs all have a
// Value gets a Value on each output when its op evaluates and each output
// has at most FoldMaxBytes; a ShapeOf of a static shape gets one whatever
// its input. An evaluation that fails there (an integer division by zero,
// a shrunk index out of range...) is a *LayerError; an op that cannot
// evaluate its types just keeps its outputs without values.
func InferModel(m *ir.Model) (*Inference, error) { return InferModelWith(m, WalkOptions{}) }

// InferModelWith is InferModel walking as o says: with o.Error set, a
// layer that fails is left out of Ops and keeps the outputs its ports
// declare, and the inference goes on.
func InferModelWith(m *ir.Model, o WalkOptions) (*Inference, error) {
	return inferModel(m, nil, o)
}

// InferModelAt infers m as InferModelWith does, but its Parameters have
// the infos params (in m.Parameters() order) instead of those they
// declare: a body as the layer that holds it feeds it (Body.Params).
func InferModelAt(m *ir.Model, params []ValueInfo, o WalkOptions) (*Inference, error) {
	at := make(map[*ir.Layer]ValueInfo, len(params))
	for i, l := range m.Parameters() {
		if i < len(params) {
			at[l] = params[i]
		}
	}
	return inferModel(m, at, o)
}

func inferModel(m *ir.Model, params map[*ir.Layer]ValueInfo, o WalkOptions) (*Inference, error) {
	inf := &Inference{
		Sources: make(map[*ir.Layer][]ir.Output),
		Ops:     make(map[*ir.Layer]Op),
		Outputs: make(map[*ir.Layer][]ValueInfo, len(m.Layers)),
	}
	err := Walk(m, o, func(s *Step) error {
		l := s.Layer
		inf.Order = append(inf.Order, l)
		if s.Sources != nil {
			inf.Sources[l] = s.Sources
		}
		inf.Outputs[l] = DeclaredOutputs(l)
		if s.Op == nil {
			if errors.Is(s.Err, ErrUnsupportedOp) {
				inf.Unsupported = append(inf.Unsupported, l)
			}
			return nil
		}
		if info, ok := params[l]; ok {
			inf.Ops[l] = s.Op
			inf.Outputs[l] = []ValueInfo{info}
			return nil
		}
		out, err := InferFold(s.Op, s.Inputs(inf.Outputs))
		if err != nil {
			return err
		}
		if err := s.CheckOutputs(len(out)); err != nil {
			return err
		}
		inf.Ops[l] = s.Op
		inf.Outputs[l] = out
		return nil
	})
	if err != nil {
		return nil, err
	}
	return inf, nil
}

// DeclaredOutputs returns the output infos written in the file's ports.
// A port without <dim> is of dynamic rank: OpenVINO's serializer writes a
// scalar and a port of dynamic rank alike, without dims (it writes the
// dims of a shape, and one of dynamic rank has none), so the rank of such
// a port of an op irdiv does not know is not known either. Taking it for
// a scalar, as OpenVINO's reader makes the port of a FrameworkNode,
// failed every op after it that needs a rank, in models irdiv converted
// itself.
func DeclaredOutputs(l *ir.Layer) []ValueInfo {
	out := make([]ValueInfo, len(l.Outputs))
	for i, p := range l.Outputs {
		out[i] = ValueInfo{Type: p.Type, Shape: p.Shape()}
		if len(p.Dims) == 0 {
			out[i].Shape = shapeinfer.DynamicRankShape()
		}
	}
	return out
}

// count writes "1 input", "2 inputs", "0 output ports".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FoldMaxBytes bounds each output that inference computes from constant
// inputs (InferModel, Layer): larger outputs keep their type and shape
// only, as they would rarely feed a shape.
const FoldMaxBytes = 1 << 20

// FoldMaxBodyRuns bounds the body runs of an If or Loop that inference
// computes from constant inputs.
const FoldMaxBodyRuns = 1 << 14

// shapeFolder is implemented by ops whose output is known from their
// inputs' shapes alone (ShapeOf of a static shape).
type shapeFolder interface {
	foldShape(in []ValueInfo) []*ir.Tensor
}

// InferFold is op.Infer followed by the folding InferModel does: when the
// outputs can be computed from the inputs' values (or, for a ShapeOf, from
// a static input shape), each gets its Value. An evaluation error is
// returned as an inference error would be.
func InferFold(op Op, in []ValueInfo) ([]ValueInfo, error) {
	out, err := op.Infer(in)
	if err != nil {
		return nil, err
	}
	if f, ok := op.(shapeFolder); ok {
		if values := f.foldShape(in); values != nil {
			for i := range out {
				out[i].Value = values[i]
			}
			return out, nil
		}
	}
	if _, ok := op.(*Const); ok || !Evaluable(op) || len(out) == 0 {
		return out, nil
	}
	values := make([]*ir.Tensor, len(in))
	for i, v := range in {
		if v.Value == nil {
			return out, nil
		}
		values[i] = v.Value
	}
	for _, o := range out {
		dims, ok := o.Shape.ToStatic()
		if !ok || checkSize(o.Type, dims, FoldMaxBytes) != nil || evaluable(o.Type) != nil {
			return out, nil
		}
	}
	results, err := Evaluate(op, values, Options{MaxTensorBytes: FoldMaxBytes, MaxBodyRuns: FoldMaxBodyRuns})
	switch {
	case errors.Is(err, ErrUnsupportedOp) || errors.Is(err, ErrType):
		return out, nil
	case errors.Is(err, ir.ErrLimit) || errors.Is(err, ir.ErrTooLarge):
		// A Loop of constants too long, or whose values grow too large,
		// to fold: it runs with the model, under the caps of its run.
		return out, nil
	case err != nil:
		return nil, err
	}
	for i := range out {
		out[i].Value = results[i]
	}
	return out, nil
}

// Layer appends to m a layer for op fed by ins, whose infos are in (the
// infos the caller tracks for those outputs, with their values when
// known), and returns it with its output infos. The layer takes op's IR
// type, version and attributes (op.OpType, op.Attrs); its output ports
// are typed and shaped by inference (a non-static dimension is written
// -1; a port cannot hold a dynamic rank, which is then written as no
// dims), and the output infos carry values folded from constant inputs as
// InferModel computes them. Port tensor names are left to the caller
// (l.Outputs[i].Names). Inference and folding errors are returned as they
// are, before m is changed.
func Layer(m *ir.Model, name string, op Op, ins []ir.Output, in []ValueInfo) (*ir.Layer, []ValueInfo, error) {
	if len(ins) != len(in) {
		return nil, nil, errorf("%s: %d inputs but %d infos", name, len(ins), len(in))
	}
	out, err := InferFold(op, in)
	if err != nil {
		return nil, nil, err
	}
	ports := make([]*ir.Port, len(out))
	for i, o := range out {
		ports[i] = &ir.Port{Type: o.Type, Dims: ir.PortDims(o.Shape)}
	}
	typ, version := op.OpType()
	return m.AddLayer(typ, version, name, op.Attrs(), ins, ports), out, nil
}
