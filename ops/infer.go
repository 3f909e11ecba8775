package ops

import (
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/ir"
)

// Inference is the result of InferModel: the ops of the supported layers,
// the output values of every layer, and the layers irdiv cannot execute.
type Inference struct {
	Ops         map[*ir.Layer]Op
	Outputs     map[*ir.Layer][]Value
	Unsupported []*ir.Layer
	// Inferred tells, per layer, whether its outputs were inferred (true)
	// or taken from the ports declared in the file.
	Inferred map[*ir.Layer]bool
}

// InferModel infers the outputs of every layer in topological order:
// Parameter, Const, Divide and Result through their ops, other layers from
// the ports declared in the file. An op that cannot be built or whose
// inference fails stops it with a *LayerError.
func InferModel(m *ir.Model) (*Inference, error) {
	order, err := m.TopoOrder()
	if err != nil {
		return nil, fmt.Errorf("ops: %w", err)
	}
	inf := &Inference{
		Ops:      make(map[*ir.Layer]Op),
		Outputs:  make(map[*ir.Layer][]Value, len(order)),
		Inferred: make(map[*ir.Layer]bool),
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
		in, err := inf.Inputs(m, l)
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
			return nil, &LayerError{l, fmt.Errorf("%w: %s has %s, but the layer declares %s", ir.ErrGraph, l.Type, count(len(out), "output"), count(len(l.Outputs), "output port"))}
		}
		inf.Ops[l] = op
		inf.Outputs[l] = out
		inf.Inferred[l] = true
	}
	return inf, nil
}

// Inputs returns the values that feed the inputs of l.
func (inf *Inference) Inputs(m *ir.Model, l *ir.Layer) ([]Value, error) {
	in := make([]Value, len(l.Inputs))
	for i := range l.Inputs {
		src, ok := m.Input(l, i)
		if !ok {
			return nil, &LayerError{l, fmt.Errorf("input %d is not connected", i)}
		}
		in[i] = inf.Outputs[src.Layer][src.Index]
	}
	return in, nil
}

// DeclaredOutputs returns the output values written in the file's ports.
func DeclaredOutputs(l *ir.Layer) []Value {
	out := make([]Value, len(l.Outputs))
	for i, p := range l.Outputs {
		out[i] = Value{p.Type, p.Shape()}
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
