package search

import (
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
	inf, err := ops.InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	an := absint.Analyze(m, inf, absint.Options{})
	bad := func(a, b int64) bool { return b != 0 && a%b != 0 && (a < 0) != (b < 0) }
	found := New(an, Options{}).CrossCheck([]*ir.Layer{values, dims}, bad, RunOptions{Floor: func(*ir.Layer, *ops.Divide) bool { return false }, ONNX: true})
	if c := found[values]; c == nil || !bad(c.A, c.B) {
		t.Errorf("x / 2: no contradiction found at the edge inputs (%+v)", c)
	}
	if c := found[dims]; c != nil {
		t.Errorf("shape(x) / 2: a contradiction %+v, but dims are never negative", c)
	}
}
