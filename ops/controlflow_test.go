package ops

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// node adds a layer of type typ (opset1 unless version is given in typ as
// "Loop/opset5") with one output.
func node(m *ir.Model, typ string, data []ir.Attr, ins ...ir.Output) ir.Output {
	version := "opset1"
	if t, v, ok := strings.Cut(typ, "/"); ok {
		typ, version = t, v
	}
	l := m.AddLayer(typ, version, typ, data, ins, []*ir.Port{{Type: ir.Dynamic}})
	return ir.Output{Layer: l}
}

func param(m *ir.Model, name string, t ir.ElementType, shape string) ir.Output {
	return ir.Output{Layer: m.AddParameter(name, t, shapeinfer.MustParseShape(shape))}
}

func entry(tag string, ext, internal int, attrs ...string) *ir.Node {
	n := &ir.Node{Tag: tag, Attrs: []ir.Attr{{Name: "external_port_id", Value: itoa(ext)}, {Name: "internal_layer_id", Value: itoa(internal)}}}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs = append(n.Attrs, ir.Attr{Name: attrs[i], Value: attrs[i+1]})
	}
	return n
}

func itoa(v int) string { return formatInts([]int64{int64(v)}) }

// sumLoop is a model of one Loop: acc += iteration (an i32 [1] current
// iteration, converted) while acc < limit, with the trip count, the
// execution condition, acc and limit as inputs, acc's last value and its
// values concatenated as outputs. It returns the model and the Loop.
func sumLoop(t *testing.T) (*ir.Model, *ir.Layer) {
	t.Helper()
	b := &ir.Model{}
	iter := param(b, "iter", ir.I32, "1")
	acc := param(b, "acc", ir.I64, "1")
	limit := param(b, "limit", ir.I64, "")
	sum := node(b, "Add", nil, acc, node(b, "Convert", []ir.Attr{{Name: "destination_type", Value: "i64"}}, iter))
	cond := b.AddResult("cond", node(b, "Less", nil, sum, limit))
	accOut := b.AddResult("acc_out", sum)
	scan := b.AddResult("scan", sum)

	m := &ir.Model{}
	ins := []ir.Output{param(m, "trip", ir.I64, ""), param(m, "cond", ir.Boolean, ""), param(m, "acc0", ir.I64, "1"), param(m, "limit", ir.I64, "")}
	loop := m.AddLayer("Loop", "opset5", "loop", nil, ins, []*ir.Port{{Type: ir.I64}, {Type: ir.I64}})
	loop.Extra = []ir.Extra{
		{Node: &ir.Node{Tag: "port_map", Children: []*ir.Node{
			entry("input", 2, int(acc.Layer.ID)), entry("input", 3, int(limit.Layer.ID)),
			entry("input", -1, int(iter.Layer.ID), "purpose", "current_iteration"),
			entry("output", -1, int(cond.ID), "purpose", "execution_condition"),
			entry("output", 4, int(accOut.ID)), entry("output", 5, int(scan.ID), "axis", "0"),
		}}},
		{Node: &ir.Node{Tag: "back_edges", Children: []*ir.Node{{Tag: "edge", Attrs: []ir.Attr{{Name: "from-layer", Value: itoa(int(accOut.ID))}, {Name: "to-layer", Value: itoa(int(acc.Layer.ID))}}}}}},
		{Node: &ir.Node{Tag: "body"}, Body: b},
	}
	m.AddResult("final", ir.Output{Layer: loop})
	m.AddResult("values", ir.Output{Layer: loop, Index: 1})
	return m, loop
}

// TestLoop: trip count, execution condition and the body's condition
// decide the iterations as ONNX's Loop does; with none, the loop-carried
// output is its initial value and the scan output empty.
func TestLoop(t *testing.T) {
	_, l := sumLoop(t)
	op, err := New(l)
	if err != nil {
		t.Fatal(err)
	}
	boolean := func(v bool) *ir.Tensor {
		x, _ := ir.NewTensor(ir.Boolean, nil)
		if v {
			x.Data[0] = 1
		}
		return x
	}
	for _, tc := range []struct {
		trip        int64
		cond        bool
		acc0, limit int64
		final       int64
		values      []int64
	}{
		{5, true, 0, 100, 10, []int64{0, 1, 3, 6, 10}},
		{-1, true, 0, 5, 6, []int64{0, 1, 3, 6}},
		{2, true, 0, 5, 1, []int64{0, 1}},
		{0, true, 7, 5, 7, []int64{}},
		{5, false, 7, 5, 7, []int64{}},
	} {
		in := []*ir.Tensor{i64Tensor(t, nil, tc.trip), boolean(tc.cond), i64Tensor(t, []int64{1}, tc.acc0), i64Tensor(t, nil, tc.limit)}
		out, err := Evaluate(op, in, Options{})
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if got := ir.View[int64](out[0]); len(got) != 1 || got[0] != tc.final {
			t.Errorf("%+v: final %v, want %d", tc, got, tc.final)
		}
		if got := ir.View[int64](out[1]); !slices.Equal(got, tc.values) || !slices.Equal(out[1].Shape, []int64{int64(len(tc.values))}) {
			t.Errorf("%+v: values %v%v, want %v", tc, out[1].Shape, got, tc.values)
		}
	}
	// An endless Loop stops at MaxBodyRuns.
	in := []*ir.Tensor{i64Tensor(t, nil, -1), boolean(true), i64Tensor(t, []int64{1}, 0), i64Tensor(t, nil, 1<<62)}
	if _, err := Evaluate(op, in, Options{MaxBodyRuns: 50}); !errors.Is(err, ir.ErrLimit) || !strings.Contains(err.Error(), "iteration 50: ") {
		t.Errorf("endless Loop: %v", err)
	}
	// Inference: the scan output's length is not known from the inputs.
	outs, err := op.Infer([]ValueInfo{{Type: ir.I64, Shape: shapeinfer.StaticShape()}, {Type: ir.Boolean, Shape: shapeinfer.StaticShape()},
		{Type: ir.I64, Shape: shapeinfer.StaticShape(1)}, {Type: ir.I64, Shape: shapeinfer.StaticShape()}})
	if err != nil || outs[0].String() != "i64[1]" || outs[1].String() != "i64[?]" {
		t.Errorf("inferred %v, %v", outs, err)
	}
}

// ifModel is a model of one If: x+x when c, x concatenated with itself
// otherwise. Its bodies read x through their Parameters.
func ifModel(t *testing.T) *ir.Layer {
	t.Helper()
	m := &ir.Model{}
	c, x := param(m, "c", ir.Boolean, ""), param(m, "x", ir.I64, "2")
	l := m.AddLayer("If", "opset8", "if", nil, []ir.Output{c, x}, []*ir.Port{{Type: ir.I64}})
	var bodies []ir.Extra
	for _, name := range []string{"then", "else"} {
		b := &ir.Model{}
		bx := param(b, "x", ir.I64, "2")
		out := node(b, "Add", nil, bx, bx)
		if name == "else" {
			out = node(b, "Concat", []ir.Attr{{Name: "axis", Value: "0"}}, bx, bx)
		}
		r := b.AddResult("r", out)
		l.Extra = append(l.Extra, ir.Extra{Node: &ir.Node{Tag: name + "_port_map", Children: []*ir.Node{entry("input", 1, int(bx.Layer.ID)), entry("output", 2, int(r.ID))}}})
		bodies = append(bodies, ir.Extra{Node: &ir.Node{Tag: name + "_body"}, Body: b})
	}
	l.Extra = append(l.Extra, bodies...)
	return l
}

// TestIf: the condition picks the branch; inference without its value
// gives what either branch may.
func TestIf(t *testing.T) {
	l := ifModel(t)
	op, err := New(l)
	if err != nil {
		t.Fatal(err)
	}
	x := i64Tensor(t, []int64{2}, 3, -4)
	for _, c := range []struct {
		cond byte
		want []int64
	}{{1, []int64{6, -8}}, {0, []int64{3, -4, 3, -4}}} {
		cond, _ := ir.NewTensor(ir.Boolean, []int64{1})
		cond.Data[0] = c.cond
		out, err := Evaluate(op, []*ir.Tensor{cond, x}, Options{})
		if err != nil || !slices.Equal(ir.View[int64](out[0]), c.want) {
			t.Errorf("cond %d: %v %v, want %v", c.cond, out, err, c.want)
		}
		info, err := op.Infer([]ValueInfo{{Type: ir.Boolean, Shape: shapeinfer.StaticShape(1), Value: cond}, {Type: ir.I64, Shape: shapeinfer.StaticShape(2)}})
		if want := shapeinfer.StaticShape(int64(len(c.want))); err != nil || !info[0].Shape.Equal(want) {
			t.Errorf("cond %d: inferred %v %v, want %v", c.cond, info, err, want)
		}
	}
	info, err := op.Infer([]ValueInfo{{Type: ir.Boolean, Shape: shapeinfer.StaticShape()}, {Type: ir.I64, Shape: shapeinfer.StaticShape(2)}})
	if err != nil || info[0].String() != "i64[2..4]" {
		t.Errorf("unknown condition: inferred %v %v, want i64[2..4]", info, err)
	}
	if _, err := Evaluate(op, []*ir.Tensor{i64Tensor(t, nil, 1), x}, Options{}); !errors.Is(err, ErrType) {
		t.Errorf("an i64 condition: %v", err)
	}
}

// TestControlFlowRefused: malformed port maps, back edges and bodies are
// errors that name the layer; bodies nested too deep are refused, and
// nested bodies share the evaluation's body runs.
func TestControlFlowRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(l *ir.Layer)
		is   error
		want string
	}{
		{"no body", func(l *ir.Layer) { l.Extra = l.Extra[:2] }, ErrAttribute, "Loop has no <body>"},
		{"no port map", func(l *ir.Layer) { l.Extra = l.Extra[1:] }, ErrAttribute, "Loop has no <port_map>"},
		{"unknown internal layer", func(l *ir.Layer) { l.Extra[0].Node.Children[0].Attrs[1].Value = "99" }, ErrAttribute, "layer 99, which is no Parameter of the body"},
		{"not an integer", func(l *ir.Layer) { l.Extra[0].Node.Children[0].Attrs[0].Value = "two" }, ErrAttribute, `external_port_id "two"`},
		{"input out of range", func(l *ir.Layer) { l.Extra[0].Node.Children[0].Attrs[0].Value = "7" }, ErrAttribute, "to input 7, which the Loop does not have"},
		{"parameter fed by nothing", func(l *ir.Layer) { l.Extra[0].Node.Children = l.Extra[0].Node.Children[1:] }, ErrAttribute, `"acc" (id 1) of the body is fed by no input`},
		{"sliced input", func(l *ir.Layer) {
			n := l.Extra[0].Node.Children[0]
			n.Attrs = append(n.Attrs, ir.Attr{Name: "axis", Value: "0"})
		}, ErrUnsupportedOp, "sliced inputs"},
		{"back edge between Parameters", func(l *ir.Layer) { l.Extra[1].Node.Children[0].Attrs[0].Value = "0" }, ErrAttribute, "not from a Result to a Parameter"},
	} {
		_, l := sumLoop(t)
		tc.edit(l)
		_, err := New(l)
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `layer "loop"`) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A trip count of the wrong type fails inference, naming the Loop.
	m, _ := sumLoop(t)
	m.Layers[0].SetDataAttr("element_type", "f32")
	if _, err := InferModel(m); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), `layer "loop"`) {
		t.Errorf("f32 trip count: %v", err)
	}

	// If in If in If ...: a then_body holding the If of the level below.
	nest := func(depth int) *ir.Layer {
		var inner *ir.Model
		var l *ir.Layer
		for range depth {
			m := &ir.Model{}
			c := param(m, "c", ir.Boolean, "")
			l = m.AddLayer("If", "opset8", "if", nil, []ir.Output{c}, []*ir.Port{{Type: ir.Boolean}})
			m.AddResult("r", ir.Output{Layer: l})
			for _, name := range []string{"then", "else"} {
				b := inner
				if b == nil || name == "else" {
					b = &ir.Model{}
					b.AddResult("r", param(b, "c", ir.Boolean, ""))
				}
				l.Extra = append(l.Extra, ir.Extra{Node: &ir.Node{Tag: name + "_port_map", Children: []*ir.Node{
					entry("input", 0, int(b.Parameters()[0].ID)), entry("output", 1, int(b.Results()[0].ID))}}})
				l.Extra = append(l.Extra, ir.Extra{Node: &ir.Node{Tag: name + "_body"}, Body: b})
			}
			inner = m
		}
		return l
	}
	if _, err := New(nest(maxBodyDepth + 1)); !errors.Is(err, ir.ErrLimit) {
		t.Errorf("bodies nested too deep: %v", err)
	}
	op, err := New(nest(5))
	if err != nil {
		t.Fatal(err)
	}
	yes, _ := ir.NewTensor(ir.Boolean, nil)
	yes.Data[0] = 1
	if out, err := Evaluate(op, []*ir.Tensor{yes}, Options{MaxBodyRuns: 5}); err != nil || out[0].Data[0] != 1 {
		t.Errorf("5 nested Ifs in 5 runs: %v", err)
	}
	if _, err := Evaluate(op, []*ir.Tensor{yes}, Options{MaxBodyRuns: 4}); !errors.Is(err, ir.ErrLimit) || !strings.Contains(err.Error(), "then_body") {
		t.Errorf("5 nested Ifs in 4 runs: %v", err)
	}
}
