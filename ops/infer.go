package ops

import (
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/ir"
)

// Inference is the result of InferModel: the ops of the layers irdiv can
// execute, the output infos of every layer, and the layers irdiv cannot
// execute, whose outputs are taken from the ports declared in the file.
type Inference struct {
	Ops         map[*ir.Layer]Op
	Outputs     map[*ir.Layer][]ValueInfo
	Unsupported []*ir.Layer
}

// InferModel infers the outputs of every layer in topological order:
// Parameter, Const, Divide and Result through their ops, other layers from
// the ports declared in the file. An op that cannot be built or whose
// inference fails stops it with a *LayerError.
func InferModel(m *ir.Model) (*Inference, error) {
	order, err := m.TopoOrder()
	if err != nil {
		return nil, err
	}
	inputs := m.Sources()
	inf := &Inference{
		Ops:     make(map[*ir.Layer]Op),
		Outputs: make(map[*ir.Layer][]ValueInfo, len(order)),
	}
	for _, l := range order {
		op, err := New(l)
		if errors.Is(err, ErrUnsupportedOp) {
			inf.Unsupported = append(inf.Unsupported, l)
			inf.Outputs[l] = DeclaredOutputs(l)
			continue
		}
		if err != nil {
			return nil, err
		}
		in, err := inf.inputs(l, inputs[l])
		if err != nil {
			return nil, err
		}
		out, err := op.Infer(in)
		if err != nil {
			return nil, &LayerError{l, err}
		}
		// Edges address output ports by their position, so a port the op
		// does not produce must not exist at all.
		if len(out) != len(l.Outputs) {
			return nil, &LayerError{l, errorf("%w: %s has %s, but the layer declares %s", ir.ErrGraph, l.Type, count(len(out), "output"), count(len(l.Outputs), "output port"))}
		}
		inf.Ops[l] = op
		inf.Outputs[l] = out
	}
	return inf, nil
}

// inputs returns the infos that feed the inputs of l, given what feeds
// each of its input ports.
func (inf *Inference) inputs(l *ir.Layer, sources []ir.Output) ([]ValueInfo, error) {
	in := make([]ValueInfo, len(l.Inputs))
	for i := range l.Inputs {
		if i >= len(sources) || sources[i].Layer == nil {
			return nil, &LayerError{l, errorf("input %d is not connected", i)}
		}
		in[i] = inf.Outputs[sources[i].Layer][sources[i].Index]
	}
	return in, nil
}

// DeclaredOutputs returns the output infos written in the file's ports.
func DeclaredOutputs(l *ir.Layer) []ValueInfo {
	out := make([]ValueInfo, len(l.Outputs))
	for i, p := range l.Outputs {
		out[i] = ValueInfo{p.Type, p.Shape()}
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
