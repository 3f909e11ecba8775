package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// TestDivideInABodyIsNotSkipped: an integer Divide inside a Loop body (and
// inside an If nested in it) is counted, reported as not analysed with a
// warning on the Loop, and the coverage says so; the Divide of the outer
// graph is counted by its verdict.
func TestDivideInABodyIsNotSkipped(t *testing.T) {
	b := newBuilder(t, "onnx")
	x := b.param("x", ir.I32, "[4]")
	outer := b.divide("outer", x, b.ints(ir.I32, []int64{1}, 2), true)

	body := newBuilder(t, "")
	bx := body.param("bx", ir.I32, "[4]")
	body.divide("inner", bx, body.ints(ir.I32, []int64{1}, 3), true)
	nested := newBuilder(t, "")
	nx := nested.param("nx", ir.I32, "[4]")
	nested.divide("deeper", nx, nested.ints(ir.I32, []int64{1}, 5), true)
	cond := body.param("c", ir.Boolean, "[]")
	iff := body.op("If", "opset8", nil, ir.I32, []int64{4}, cond, bx)
	iff.Layer.Extra = []ir.Extra{{Node: &ir.Node{Tag: "then_body"}, Body: nested.m}}

	loop := b.op("Loop", "opset5", nil, ir.I32, []int64{4}, b.ints(ir.I64, []int64{1}, 3), x)
	loop.Layer.Extra = []ir.Extra{{Node: &ir.Node{Tag: "port_map"}}, {Node: &ir.Node{Tag: "body"}, Body: body.m}}
	b.m.AddResult("loop_out", loop)

	r := Model(b.m, "m.xml", Options{})
	c := r.Coverage
	if c.IntegerDivides != 3 || len(c.NotAnalysed) != 2 || c.Errors != 1 {
		t.Fatalf("coverage %+v", c)
	}
	var warned []string
	for _, f := range r.Findings {
		if f.Code == NotAnalysed {
			if f.Layer != loop.Layer || f.Severity != Warning {
				t.Errorf("%+v", f)
			}
			warned = append(warned, f.Message)
		}
	}
	if len(warned) != 2 || !strings.Contains(strings.Join(warned, "\n"), `layer "inner"`) || !strings.Contains(strings.Join(warned, "\n"), `layer "deeper"`) {
		t.Errorf("warnings %q", warned)
	}
	for _, f := range findings(r)[FloorTrunc] {
		if f.Layer != outer {
			t.Errorf("%+v", f)
		}
	}
	if s := c.String(); !strings.HasPrefix(s, "3 integer Divides: 0 proven, 1 with an error, 0 with warnings, 0 clean, 2 not analysed (") {
		t.Errorf("%s", s)
	}
	data, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(data), `"coverage":{"integer_divides":3,"proven":0,"errors":1,"warnings":0,"clean":0,"not_analysed":[{"layer":{"id"`) {
		t.Errorf("%v %s", err, data)
	}
}

// TestDivideInABodyProven: a flooring Divide inside a body whose operands
// have the same sign whatever the body receives (a dim over a positive
// constant) is proven, on the If that holds it, and counted so; one over
// a value the body receives stays not analysed. A Divide that only the
// values the outer graph passes would make safe (x is 0..3 outside, any
// i32 inside) is not proven: the body's inputs are free.
func TestDivideInABodyProven(t *testing.T) {
	b := newBuilder(t, "onnx")
	x := b.param("x", ir.I32, "[?]")
	cond := b.param("c", ir.Boolean, "[]")

	body := newBuilder(t, "")
	bx := body.param("bx", ir.I32, "[?]")
	shape := body.op("ShapeOf", "opset3", []ir.Attr{{Name: "output_type", Value: "i64"}}, ir.I64, []int64{1}, bx)
	body.m.AddResult("dim_half", ir.Output{Layer: body.divide("dim_half", shape, body.ints(ir.I64, []int64{1}, 2), true)})
	body.m.AddResult("value_third", ir.Output{Layer: body.divide("value_third", bx, body.ints(ir.I32, []int64{1}, 3), true)})

	iff := b.op("If", "opset8", nil, ir.I64, []int64{1}, cond, x)
	iff.Layer.Extra = []ir.Extra{{Node: &ir.Node{Tag: "then_body"}, Body: body.m}}
	b.m.AddResult("out", iff)

	r := Model(b.m, "m.xml", Options{})
	c := r.Coverage
	if c.IntegerDivides != 2 || c.Proven != 1 || len(c.NotAnalysed) != 1 || !strings.Contains(c.NotAnalysed[0].Path, `"value_third"`) {
		t.Fatalf("coverage %+v", c)
	}
	proofs := findings(r)[FloorTruncAgree]
	if len(proofs) != 1 || proofs[0].Layer != iff.Layer || !strings.Contains(proofs[0].Message, `layer "dim_half"`) {
		t.Errorf("proofs %+v", proofs)
	}
	if u := findings(r)[StructureUnreachable]; len(u) != 0 {
		t.Errorf("an input used by the If is called unreachable: %+v", u)
	}
}
