package ops

import (
	"errors"
	"slices"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestWalk: a model with a layer of an op irdiv does not know (not an
// error), one whose op cannot be built, one that declares another number
// of output ports than its op has and two with an input not connected
// (one without any edge). Stopping at the first error gives that error;
// collecting gives all four, in topological order, and visits every layer once, the failed
// ones (but the one whose visit failed) as opaque.
func TestWalk(t *testing.T) {
	m := &ir.Model{Name: "walk"}
	x := m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("4"))
	unknown := m.AddLayer("Mystery", "opset1", "unknown", nil, []ir.Output{{Layer: x}}, []*ir.Port{{Type: ir.I32, Dims: []int64{4}}})
	half := m.AddLayer("Relu", "opset1", "half", nil, []ir.Output{{Layer: unknown}}, []*ir.Port{{Type: ir.I32, Dims: []int64{4}}})
	half.Inputs = append(half.Inputs, &ir.Port{ID: 99, Type: ir.I32}) // input 1: no edge
	bad := m.AddLayer("Divide", "opset1", "bad", []ir.Attr{{Name: "auto_broadcast", Value: "sideways"}}, []ir.Output{{Layer: x}, {Layer: x}}, []*ir.Port{{Type: ir.I32, Dims: []int64{4}}})
	ports := m.AddLayer("Relu", "opset1", "ports", nil, []ir.Output{{Layer: x}}, []*ir.Port{{Type: ir.I32, Dims: []int64{4}}, {Type: ir.I32, Dims: []int64{4}}})
	m.AddResult("r", ir.Output{Layer: ports})
	lone := m.AddLayer("Relu", "opset1", "lone", nil, nil, []*ir.Port{{Type: ir.I32, Dims: []int64{4}}})
	lone.Inputs = []*ir.Port{{ID: 97, Type: ir.I32}} // no edge at all

	// The visit of a caller that infers, as InferModel does.
	walk := func(o WalkOptions) (visited []*ir.Layer, opaque []*ir.Layer, err error) {
		outputs := make(map[*ir.Layer][]ValueInfo)
		err = Walk(m, o, func(s *Step) error {
			visited = append(visited, s.Layer)
			outputs[s.Layer] = DeclaredOutputs(s.Layer)
			if s.Op == nil {
				opaque = append(opaque, s.Layer)
				return nil
			}
			out, err := s.Op.Infer(s.Inputs(outputs))
			if err != nil {
				return err
			}
			if err := s.CheckOutputs(len(out)); err != nil {
				return err
			}
			outputs[s.Layer] = out
			return nil
		})
		return visited, opaque, err
	}

	want := []struct {
		layer *ir.Layer
		is    error
		text  string
	}{
		{lone, ErrUnconnected, `ops: layer "lone" (id 6): input 0 is not connected`},
		{bad, nil, `layer "bad" (id 3): shapeinfer: "sideways" is not a member of enum ov::op::AutoBroadcastType (auto_broadcast must be one of none, explicit, numpy, pdpd)`},
		{ports, ir.ErrGraph, `ops: layer "ports" (id 4): invalid graph: Relu has 1 output, but the layer declares 2 output ports`},
		{half, ErrUnconnected, `ops: layer "half" (id 2): input 1 is not connected`},
	}
	check := func(i int, err error) {
		t.Helper()
		var le *LayerError
		w := want[i]
		if !errors.As(err, &le) || le.Layer != w.layer || w.is != nil && !errors.Is(err, w.is) || err.Error() != w.text {
			t.Errorf("error %d = %v; want one of layer %s that is %v (%q)", i, err, w.layer, w.is, w.text)
		}
	}

	visited, _, err := walk(WalkOptions{})
	check(0, err)
	if !slices.Equal(visited, []*ir.Layer{x}) {
		t.Errorf("stopping at the first error visited %v", visited)
	}

	var errs []error
	visited, opaque, err := walk(WalkOptions{Error: func(err *LayerError) { errs = append(errs, err) }})
	if err != nil {
		t.Errorf("collecting the errors, Walk returned %v", err)
	}
	if len(errs) != len(want) {
		t.Fatalf("collected %d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, err := range errs {
		check(i, err)
	}
	order, _ := m.TopoOrder()
	if !slices.Equal(visited, order) {
		t.Errorf("visited %v; want every layer once, in %v", visited, order)
	}
	if !slices.Equal(opaque, []*ir.Layer{lone, unknown, bad, half}) {
		t.Errorf("opaque %v; want the unknown layer and the three that failed", opaque)
	}

	x.Inputs = []*ir.Port{{ID: 98, Type: ir.I32}}
	m.Edges = append(m.Edges, ir.Edge{FromLayer: ports.ID, FromPort: ports.Outputs[0].ID, ToLayer: x.ID, ToPort: 98})
	if _, _, err := walk(WalkOptions{Error: func(*LayerError) {}}); !errors.Is(err, ir.ErrGraph) {
		t.Errorf("a cycle: %v", err)
	}
}
