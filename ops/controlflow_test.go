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

// sumTI is a model of one TensorIterator: acc += part (parts of x along
// axis 1, the last first where reverse) with x, acc and k as inputs; outputs:
// acc's last value, part * k and acc's values concatenated along axis 1.
func sumTI(t *testing.T, reverse bool) (*ir.Model, *ir.Layer) {
	t.Helper()
	b := &ir.Model{}
	part := param(b, "part", ir.I64, "2,1")
	acc := param(b, "acc", ir.I64, "2,1")
	k := param(b, "k", ir.I64, "")
	sum := node(b, "Add", nil, acc, part)
	accOut := b.AddResult("acc_out", sum)
	scaled := b.AddResult("scaled", node(b, "Multiply", nil, part, k))
	sums := b.AddResult("sums", sum)

	m := &ir.Model{}
	ins := []ir.Output{param(m, "x", ir.I64, "2,?"), param(m, "acc0", ir.I64, "2,1"), param(m, "k", ir.I64, "")}
	ti := m.AddLayer("TensorIterator", "opset1", "ti", nil, ins, []*ir.Port{{Type: ir.I64}, {Type: ir.I64}, {Type: ir.I64}})
	cut := []string{"axis", "1", "start", "0", "end", "-1", "stride", "1", "part_size", "1"}
	if reverse {
		cut = []string{"axis", "1", "start", "-1", "end", "0", "stride", "-1", "part_size", "1"}
	}
	ti.Extra = []ir.Extra{
		{Node: &ir.Node{Tag: "port_map", Children: []*ir.Node{
			entry("input", 0, int(part.Layer.ID), cut...), entry("input", 1, int(acc.Layer.ID)), entry("input", 2, int(k.Layer.ID)),
			entry("output", 3, int(accOut.ID)), entry("output", 4, int(scaled.ID), cut...), entry("output", 5, int(sums.ID), cut...),
		}}},
		{Node: &ir.Node{Tag: "back_edges", Children: []*ir.Node{{Tag: "edge", Attrs: []ir.Attr{{Name: "from-layer", Value: itoa(int(accOut.ID))}, {Name: "to-layer", Value: itoa(int(acc.Layer.ID))}}}}}},
		{Node: &ir.Node{Tag: "body"}, Body: b},
	}
	m.AddResult("final", ir.Output{Layer: ti})
	m.AddResult("values", ir.Output{Layer: ti, Index: 1})
	m.AddResult("sums", ir.Output{Layer: ti, Index: 2})
	return m, ti
}

// TestTensorIterator: the body runs once per part of the sliced input,
// first to last or last to first; the concatenated output follows the
// same order; an empty axis runs no iteration (the last value is the
// initial one, the concatenation empty).
func TestTensorIterator(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		_, l := sumTI(t, reverse)
		op, err := New(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			cols        int64
			x           []int64
			final       []int64
			values      []int64
			sums, rsums []int64
		}{
			{3, []int64{1, 2, 3, 10, 20, 30}, []int64{6, 60}, []int64{2, 4, 6, 20, 40, 60}, []int64{1, 3, 6, 10, 30, 60}, []int64{6, 5, 3, 60, 50, 30}},
			{1, []int64{5, 7}, []int64{5, 7}, []int64{10, 14}, []int64{5, 7}, []int64{5, 7}},
			{0, []int64{}, []int64{0, 0}, []int64{}, []int64{}, []int64{}},
		} {
			x, err := ir.TensorOf(ir.I64, []int64{2, tc.cols}, tc.x)
			if err != nil {
				t.Fatal(err)
			}
			in := []*ir.Tensor{x, i64Tensor(t, []int64{2, 1}, 0, 0), i64Tensor(t, nil, 2)}
			out, err := Evaluate(op, in, Options{})
			if err != nil {
				t.Errorf("reverse=%v %+v: %v", reverse, tc, err)
				continue
			}
			if got := ir.View[int64](out[0]); !slices.Equal(got, tc.final) {
				t.Errorf("reverse=%v %+v: final %v, want %v", reverse, tc, got, tc.final)
			}
			// Concatenated in iteration order, reversed again where the
			// parts were taken last to first: the same tensor.
			if got := ir.View[int64](out[1]); !slices.Equal(got, tc.values) || !slices.Equal(out[1].Shape, []int64{2, tc.cols}) {
				t.Errorf("reverse=%v %+v: values %v%v, want %v", reverse, tc, out[1].Shape, got, tc.values)
			}
			// The running sums show the order of the iterations.
			want := tc.sums
			if reverse {
				want = tc.rsums
			}
			if got := ir.View[int64](out[2]); !slices.Equal(got, want) {
				t.Errorf("reverse=%v %+v: sums %v, want %v", reverse, tc, got, want)
			}
		}
		outs, err := op.Infer([]ValueInfo{{Type: ir.I64, Shape: shapeinfer.StaticShape(2, 4)}, {Type: ir.I64, Shape: shapeinfer.StaticShape(2, 1)}, {Type: ir.I64, Shape: shapeinfer.StaticShape()}})
		if err != nil || outs[0].String() != "i64[2,1]" || outs[1].String() != "i64[2,4]" || outs[2].String() != "i64[2,4]" {
			t.Errorf("inferred %v, %v", outs, err)
		}
	}
}

// TestTensorIteratorRefused: malformed port maps and back edges are
// errors naming the layer, at build time, or at inference where the
// input's shape decides.
func TestTensorIteratorRefused(t *testing.T) {
	set := func(n *ir.Node, name, v string) {
		for i := range n.Attrs {
			if n.Attrs[i].Name == name {
				n.Attrs[i].Value = v
				return
			}
		}
		n.Attrs = append(n.Attrs, ir.Attr{Name: name, Value: v})
	}
	for _, tc := range []struct {
		name string
		edit func(l *ir.Layer)
		is   error
		want string
	}{
		{"no body", func(l *ir.Layer) { l.Extra = l.Extra[:2] }, ErrAttribute, "TensorIterator has no <body>"},
		{"an input without entry", func(l *ir.Layer) { l.Extra[0].Node.Children = l.Extra[0].Node.Children[1:] }, ErrAttribute, "Number of inputs must be the same as number of input descriptions"},
		{"part_size 0", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "part_size", "0") }, ErrAttribute, "part_size 0"},
		{"stride 0", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "stride", "0") }, ErrAttribute, "stride 0"},
		{"start not an integer", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "start", "first") }, ErrAttribute, `start "first"`},
		{"stride past part_size", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "stride", "2") }, ErrUnsupportedOp, "stride 2 and part_size 1"},
		{"back edge to a sliced input", func(l *ir.Layer) {
			set(l.Extra[1].Node.Children[0], "to-layer", l.Extra[0].Node.Children[0].Attrs[1].Value)
		}, ErrAttribute, "which a sliced input feeds"},
		{"back edge from a Parameter", func(l *ir.Layer) { set(l.Extra[1].Node.Children[0], "from-layer", "0") }, ErrAttribute, "not from a Result to a Parameter"},
		{"back edge twice", func(l *ir.Layer) {
			e := l.Extra[1].Node.Children[0]
			l.Extra[1].Node.Children = append(l.Extra[1].Node.Children, e)
		}, ErrAttribute, `feeds layer "acc" (id 1) twice`},
		{"nothing counts the iterations", func(l *ir.Layer) {
			for _, n := range l.Extra[0].Node.Children {
				n.Attrs = slices.DeleteFunc(n.Attrs, func(a ir.Attr) bool { return a.Name == "axis" })
			}
		}, ErrAttribute, "no sliced input and no concatenated output"},
	} {
		_, l := sumTI(t, false)
		tc.edit(l)
		_, err := New(l)
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `layer "ti"`) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	x := func(shape ...int64) ValueInfo {
		return ValueInfo{Type: ir.I64, Shape: shapeinfer.StaticShape(shape...)}
	}
	for _, tc := range []struct {
		name string
		edit func(l *ir.Layer)
		x    ValueInfo
		is   error
		want string
	}{
		{"axis out of range", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "axis", "2") }, x(2, 3), ErrAttribute, "axis 2 out of the tensor rank range [-2, 1]"},
		{"part_size not dividing", func(l *ir.Layer) {
			set(l.Extra[0].Node.Children[0], "part_size", "2")
			set(l.Extra[0].Node.Children[0], "stride", "2")
		}, x(2, 3), ErrShape, "3 elements, which part_size 2 does not divide"},
		{"part of an axis", func(l *ir.Layer) { set(l.Extra[0].Node.Children[0], "end", "-2") }, x(2, 3), ErrUnsupportedOp, "start 0 and end -2 do not span an axis of 3"},
		{"scalar slices along axis 1", func(l *ir.Layer) {
			set(l.Extra[0].Node.Children[4], "axis", "1")
			b := l.Extra[2].Body
			r := b.Results()[1]
			// The scaled output becomes a scalar: k itself.
			k := b.Parameters()[2]
			for i, e := range b.Edges {
				if e.ToLayer == r.ID {
					b.Edges[i].FromLayer, b.Edges[i].FromPort = k.ID, k.Outputs[0].ID
				}
			}
		}, x(2, 3), ErrAttribute, "Axis must be equal to 0 if concatenated output tensor slices are scalars"},
	} {
		_, l := sumTI(t, false)
		tc.edit(l)
		op, err := New(l)
		if err == nil {
			_, err = op.Infer([]ValueInfo{tc.x, x(2, 1), x()})
		}
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
