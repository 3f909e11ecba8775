package search

import (
	"fmt"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// TestCrossCheck: evaluating x / 2 and shape(x)[0] / 2 at the edge
// inputs finds operands of opposite signs with a remainder for the
// first, which a proof of it would be contradicted by, and none for the
// second, whose operands are never negative.
func TestCrossCheck(t *testing.T) {
	m := &ir.Model{}
	x := ir.Output{Layer: m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("[?]"))}
	two := func(ty ir.ElementType) ir.Output {
		c, err := ir.NewTensor(ty, []int64{1})
		if err != nil {
			t.Fatal(err)
		}
		c.SetInt64(0, 2)
		return ir.Output{Layer: m.AddConst("two", c)}
	}
	divide := func(name string, a, b ir.Output) *ir.Layer {
		l := m.AddLayer("Divide", "opset1", name, []ir.Attr{{Name: "m_pythondiv", Value: "true"}}, []ir.Output{a, b}, []*ir.Port{{Type: ir.Dynamic}})
		m.AddResult(name+"_out", ir.Output{Layer: l})
		return l
	}
	values := divide("values", x, two(ir.I32))
	shape := m.AddLayer("ShapeOf", "opset3", "shape", []ir.Attr{{Name: "output_type", Value: "i64"}}, []ir.Output{x}, []*ir.Port{{Type: ir.Dynamic}})
	dims := divide("dims", ir.Output{Layer: shape}, two(ir.I64))
	crossCheckFinds(t, m, values, dims, "")
}

// crossCheckFinds checks that the cross-check of m contradicts a claim on
// values, x / 2, at the edge inputs, and none on dims, shape(x) / 2
// (where says where they are, for the messages).
func crossCheckFinds(t *testing.T, m *ir.Model, values, dims *ir.Layer, where string) {
	t.Helper()
	inf, err := ops.InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	an := absint.Analyze(m, inf, absint.Options{})
	bad := func(a, b int64) bool { return b != 0 && a%b != 0 && (a < 0) != (b < 0) }
	found := New(an, Options{}).CrossCheck([]*ir.Layer{values, dims}, bad, RunOptions{Floor: func(*ir.Layer, *ops.Divide) bool { return false }, ONNX: true})
	if c := found[values]; c == nil || !bad(c.A, c.B) {
		t.Errorf("x / 2%s: no contradiction found at the edge inputs (%+v)", where, c)
	}
	if c := found[dims]; c != nil {
		t.Errorf("shape(x) / 2%s: a contradiction %+v, but dims are never negative", where, c)
	}
}

// TestCrossCheckInABody: the same two Divides inside TensorIterator
// bodies, one over x's elements, one over its shape's: the evaluation
// reads the body Divide's operands at every iteration, and contradicts a
// proof of the first only.
func TestCrossCheckInABody(t *testing.T) {
	m := &ir.Model{}
	x := ir.Output{Layer: m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("[?]"))}
	shape := ir.Output{Layer: m.AddLayer("ShapeOf", "opset3", "shape", []ir.Attr{{Name: "output_type", Value: "i32"}}, []ir.Output{x}, []*ir.Port{{Type: ir.Dynamic}})}
	// iterate adds a TensorIterator over the elements of in whose body
	// halves each; it returns the body's Divide.
	iterate := func(name string, in ir.Output) *ir.Layer {
		b := &ir.Model{}
		e := b.AddParameter("e", ir.I32, shapeinfer.MustParseShape("[1]"))
		c, err := ir.NewTensor(ir.I32, []int64{1})
		if err != nil {
			t.Fatal(err)
		}
		c.SetInt64(0, 2)
		div := b.AddLayer("Divide", "opset1", name, []ir.Attr{{Name: "m_pythondiv", Value: "true"}}, []ir.Output{{Layer: e}, {Layer: b.AddConst("two", c)}}, []*ir.Port{{Type: ir.Dynamic}})
		r := b.AddResult("half", ir.Output{Layer: div})
		ti := m.AddLayer("TensorIterator", "opset1", name+"_ti", nil, []ir.Output{in}, []*ir.Port{{Type: ir.Dynamic}})
		entry := func(tag string, ext int, id uint64) *ir.Node {
			return &ir.Node{Tag: tag, Attrs: []ir.Attr{{Name: "external_port_id", Value: fmt.Sprint(ext)}, {Name: "internal_layer_id", Value: fmt.Sprint(id)}, {Name: "axis", Value: "0"}}}
		}
		ti.Extra = []ir.Extra{{Node: &ir.Node{Tag: "port_map", Children: []*ir.Node{entry("input", 0, e.ID), entry("output", 1, r.ID)}}}, {Node: &ir.Node{Tag: "body"}, Body: b}}
		m.AddResult(name+"_out", ir.Output{Layer: ti})
		return div
	}
	values, dims := iterate("values", x), iterate("dims", shape)
	crossCheckFinds(t, m, values, dims, " in a body")
}
