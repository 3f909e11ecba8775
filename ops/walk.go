package ops

import (
	"errors"

	"github.com/irdiv/irdiv/ir"
)

// WalkOptions configure Walk.
type WalkOptions struct {
	// Error, when not nil, is called with each error of a layer, and the
	// walk goes on (as go/types.Config.Error does): a layer whose op
	// cannot be built or that has an input not connected (one error for
	// each) is visited as opaque, and an error a visit returns is passed
	// on too. When nil, the walk stops at the first error and returns it.
	// A cycle always stops the walk.
	Error func(err *LayerError)

	depth int // the bodies that hold the model (newProgram)
}

// Step is one layer of a walk, as Walk hands it to the visit.
type Step struct {
	Layer *ir.Layer
	// Op is the layer's op; nil for an opaque layer, with the reason in
	// Err: an error wrapping ErrUnsupportedOp for a layer irdiv does not
	// know, or, in a walk that goes on after errors, the (first) error
	// reported for it.
	Op  Op
	Err error
	// Sources are the outputs that feed the layer's inputs, by input
	// position, as ir.Model.Sources gives them; when Op is not nil, every
	// input is connected.
	Sources []ir.Output
}

// Inputs returns the infos of the outputs that feed the step, from
// the infos of the layers visited before it.
func (s *Step) Inputs(outputs map[*ir.Layer][]ValueInfo) []ValueInfo {
	in := make([]ValueInfo, len(s.Sources))
	for i, src := range s.Sources {
		in[i] = outputs[src.Layer][src.Index]
	}
	return in
}

// CheckOutputs returns an error when the op computes n outputs but the
// layer declares another number of output ports.
func (s *Step) CheckOutputs(n int) error { return checkOutputs(s.Layer, n) }

// checkOutputs is CheckOutputs for the layer l. Edges address output
// ports by their position, so a port the op does not produce must not
// exist at all.
func checkOutputs(l *ir.Layer, n int) error {
	if n == len(l.Outputs) {
		return nil
	}
	return &LayerError{l, errorf("%w: %s has %s, but the layer declares %s", ir.ErrGraph, l.Type, count(n, "output"), count(len(l.Outputs), "output port"))}
}

// ErrUnconnected: an input port of a layer that no edge feeds.
var ErrUnconnected = errors.New("not connected")

// Walk visits the layers of m in topological order (file order among
// independent layers), once each. For each layer it builds the op and
// checks that every input is connected; visit then does the work of the
// caller (infers, evaluates, plans), typically reading the inputs from
// what it kept of the layers before (Step.Inputs) and checking the
// outputs it computes (Step.CheckOutputs). A layer irdiv does not know is
// visited with a nil Op: it is not an error of the walk.
//
// An error stops the walk and is returned, unless o.Error is set; then
// it goes there and the walk goes on, and a visit that fails must leave
// its layer as it leaves an opaque one.
func Walk(m *ir.Model, o WalkOptions, visit func(s *Step) error) error {
	order, err := m.TopoOrder()
	if err != nil {
		return err
	}
	sources := m.Sources()
	for _, l := range order {
		s := &Step{Layer: l, Sources: sources[l]}
		s.Op, s.Err = newAt(l, o.depth)
		var errs []*LayerError
		switch {
		case errors.Is(s.Err, ErrUnsupportedOp):
			// Opaque, which is not an error.
		case s.Err != nil:
			errs = append(errs, layerError(l, s.Err))
		default:
			for i := range l.Inputs {
				if i >= len(s.Sources) || s.Sources[i].Layer == nil {
					errs = append(errs, &LayerError{l, errorf("input %d is %w", i, ErrUnconnected)})
				}
			}
		}
		for _, err := range errs {
			if o.Error == nil {
				return err
			}
			o.Error(err)
		}
		if len(errs) > 0 {
			s.Op, s.Err = nil, errs[0]
		}
		if err := visit(s); err != nil {
			err := layerError(l, err)
			if o.Error == nil {
				return err
			}
			o.Error(err)
		}
	}
	return nil
}

// layerError is err as an error of layer l.
func layerError(l *ir.Layer, err error) *LayerError {
	if le, ok := err.(*LayerError); ok && le.Layer == l {
		return le
	}
	return &LayerError{l, err}
}
