package ops

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// naiveBroadcast divides by materialising each operand's index for every
// output coordinate, independently of the kernel plan.
func naiveBroadcast(out, aDims, bDims []int64, a, b []int32) []int32 {
	n := 1
	for _, d := range out {
		n *= int(d)
	}
	res := make([]int32, n)
	coord := make([]int64, len(out))
	for flat := range n {
		rem := flat
		for i := len(out) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % out[i]
			rem /= int(out[i])
		}
		index := func(dims []int64) int {
			idx := 0
			for i, d := range dims {
				c := coord[i]
				if d == 1 {
					c = 0
				}
				idx = idx*int(d) + int(c)
			}
			return idx
		}
		q := bigDiv(big.NewInt(int64(a[index(aDims)])), big.NewInt(int64(b[index(bDims)])), true)
		res[flat] = int32(q.Int64())
	}
	return res
}

// TestBroadcastAgainstNaive compares numpy and pdpd broadcasting with the
// naive oracle on random shapes of rank 0 to 5, at every level.
func TestBroadcastAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 400 {
		rank := r.IntN(6)
		out := make([]int64, rank)
		for i := range out {
			out[i] = int64(1 + r.IntN(5))
		}
		// Each operand keeps or broadcasts each dimension, and may drop
		// leading ones (numpy) or sit at an axis (pdpd).
		aDims, bDims := make([]int64, rank), make([]int64, rank)
		for i := range out {
			aDims[i], bDims[i] = out[i], out[i]
			if r.IntN(3) == 0 {
				aDims[i] = 1
			}
			if r.IntN(3) == 0 {
				bDims[i] = 1
			}
		}
		mode := shapeinfer.Numpy
		if trial%2 == 1 {
			mode = shapeinfer.PDPD
			aDims = out // pdpd: A has the output shape
		}
		bc := shapeinfer.Broadcast{Mode: mode}
		// aShape and bShape are the operands; aFull and bFull the same
		// dims aligned to the output's rank, for the oracle.
		var aShape, bShape, aFull, bFull []int64
		if mode == shapeinfer.Numpy {
			aShape, bShape = aDims[r.IntN(rank+1):], bDims[r.IntN(rank+1):]
			aFull, bFull = append(ones(rank-len(aShape)), aShape...), append(ones(rank-len(bShape)), bShape...)
			for i := range out {
				out[i] = max(aFull[i], bFull[i]) // a dimension both broadcast is 1
			}
		} else {
			lo := r.IntN(rank + 1)
			hi := lo + r.IntN(rank-lo+1)
			aShape, bShape, bc.Axis = aDims, bDims[lo:hi], int64(lo)
			aFull, bFull = aDims, append(append(ones(lo), bShape...), ones(rank-hi)...)
		}
		a := randomInt32(r, aShape)
		b := randomInt32(r, bShape)
		for i := range b {
			if b[i] == 0 {
				b[i] = 1
			}
		}
		want := naiveBroadcast(out, aFull, bFull, a, b)
		wantShape := out
		if mode == shapeinfer.Numpy {
			wantShape = out[rank-max(len(aShape), len(bShape)):]
		}
		for _, level := range AvailableSIMD() {
			got, err := divideAt(level, NewDivide(bc, true), mustTensor(t, ir.I32, aShape, a), mustTensor(t, ir.I32, bShape, b))
			if err != nil {
				t.Fatalf("%v / %v (%s): %v", aShape, bShape, bc, err)
			}
			if fmt.Sprint(got.Shape) != fmt.Sprint(wantShape) || fmt.Sprint(ir.View[int32](got)) != fmt.Sprint(want) {
				t.Fatalf("%s %v / %v (%s): got %v %v, want %v %v", level, aShape, bShape, bc, got.Shape, ir.View[int32](got), wantShape, want)
			}
		}
	}
}

func randomInt32(r *rand.Rand, shape []int64) []int32 {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	v := make([]int32, n)
	for i := range v {
		v[i] = int32(r.IntN(201) - 100)
	}
	return v
}

func layer(typ string, data ...string) *ir.Layer {
	l := &ir.Layer{ID: 7, Name: "div_3", Type: typ, Version: "opset1"}
	for i := 0; i+1 < len(data); i += 2 {
		l.Data = append(l.Data, ir.Attr{Name: data[i], Value: data[i+1]})
	}
	return l
}

func TestDivideAttributes(t *testing.T) {
	for _, tc := range []struct {
		data     []string
		want     string // Broadcast and PythonDiv
		warnings int
		err      string
	}{
		{nil, "numpy true", 0, ""},
		{[]string{"auto_broadcast", "numpy"}, "numpy true", 0, ""},
		{[]string{"auto_broadcast", "NONE", "m_pythondiv", "false"}, "none false", 0, ""},
		{[]string{"auto_broadcast", "explicit"}, "none true", 0, ""},
		{[]string{"auto_broadcast", "Numpy", "m_pythondiv", "FALSE"}, "numpy false", 0, ""},
		{[]string{"m_pythondiv", "0"}, "numpy false", 0, ""},
		{[]string{"m_pythondiv", "1"}, "numpy true", 0, ""},
		{[]string{"m_pythondiv", "yes"}, "numpy true", 1, ""},
		{[]string{"auto_broadcast", "pdpd"}, "pdpd(axis=-1) true", 1, ""},
		{[]string{"auto_broadcast", "pdpd", AxisAttr, "1"}, "pdpd(axis=1) true", 0, ""},
		{[]string{"auto_broadcast", "pdpd", AxisAttr, " 2x"}, "pdpd(axis=2) true", 0, ""},
		{[]string{"auto_broadcast", "pdpd", AxisAttr, "x"}, "pdpd(axis=0) true", 0, ""},
		{[]string{"auto_broadcast", "bidirectional"}, "", 0, `"bidirectional" is not a member of enum ov::op::AutoBroadcastType`},
	} {
		op, err := New(layer("Divide", tc.data...))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `layer "div_3" (id 7)`) {
				t.Errorf("%v: error %v, want %q", tc.data, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.data, err)
		}
		d := op.(*Divide)
		if got := fmt.Sprintf("%s %v", d.Broadcast, d.PythonDiv); got != tc.want || len(d.Warnings) != tc.warnings {
			t.Errorf("%v: %s with %d warnings, want %s with %d", tc.data, got, len(d.Warnings), tc.want, tc.warnings)
		}
	}
	// The type name is matched case-insensitively, and every opset up to
	// opset15 contains Divide-1.
	l := layer("divide")
	l.Version = "opset13"
	if !Supported(l) {
		t.Error("divide/opset13 not supported")
	}
	l.Version = "extension"
	if _, err := New(l); !errors.Is(err, ErrUnsupportedOp) || !strings.Contains(err.Error(), "from unsupported opset: extension") {
		t.Errorf("opset extension: %v", err)
	}
	if _, err := New(layer("TopK")); !errors.Is(err, ErrUnsupportedOp) {
		t.Errorf("TopK: %v", err)
	}
	// Attributes are written in the serializer's order.
	if got := fmt.Sprint(NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.PDPD, Axis: 1}, false).Attrs()); got != "[{auto_broadcast pdpd} {auto_broadcast.auto_broadcast_axis 1} {m_pythondiv false}]" {
		t.Errorf("Attrs = %s", got)
	}
}

func TestDivideTypeChecks(t *testing.T) {
	v := func(et ir.ElementType, shape string) ValueInfo {
		return ValueInfo{Type: et, Shape: shapeinfer.MustParseShape(shape)}
	}
	d := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true)
	for _, tc := range []struct {
		a, b  ValueInfo
		want  string
		class error
	}{
		{v(ir.F32, "2,2,3,3"), v(ir.I32, "2,2,3,3"), "Arguments do not have the same element type (arg0 element type: f32, arg1 element type: i32).", ErrType},
		// The type check comes before the shape check...
		{v(ir.F32, "2,4"), v(ir.I32, "4,2"), "Arguments do not have the same element type", ErrType},
		// ...and the shape check before the boolean rejection.
		{v(ir.Boolean, "2,4"), v(ir.Boolean, "4,2"), "Argument shapes are inconsistent.", ErrShape},
		{v(ir.Boolean, "2,2,3,3"), v(ir.Boolean, "2,2,3,3"), "This operation does not support inputs with element type: boolean", ErrType},
		{v(ir.String, "2"), v(ir.String, "2"), "This operation does not support inputs with element type: string", ErrType},
	} {
		_, err := d.Infer([]ValueInfo{tc.a, tc.b})
		if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v / %v: %v, want %q", tc.a, tc.b, err, tc.want)
		}
	}
	if out, err := d.Infer([]ValueInfo{v(ir.Dynamic, "?"), v(ir.I64, "3")}); err != nil || out[0].String() != "i64[3]" {
		t.Errorf("dynamic type merge: %v, %v", out, err)
	}
	if out, err := d.Infer([]ValueInfo{v(ir.U4, "3"), v(ir.U4, "3")}); err != nil || out[0].Type != ir.U4 {
		t.Errorf("u4 inference (accepted as OpenVINO does): %v, %v", out, err)
	}
	if _, err := d.Prepare(&ir.Tensor{Type: ir.U4, Shape: []int64{3}}, &ir.Tensor{Type: ir.U4, Shape: []int64{3}}, Options{}); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "unsupported element type") {
		t.Errorf("u4 evaluation: %v", err)
	}
	if _, err := d.Infer([]ValueInfo{v(ir.F32, "2")}); err == nil || !strings.Contains(err.Error(), "Incorrect number of inputs. Required: 2") {
		t.Errorf("one input: %v", err)
	}
}

func TestInferModelReportsLayer(t *testing.T) {
	m := &ir.Model{Name: "bad"}
	a := m.AddParameter("a", ir.F32, shapeinfer.MustParseShape("3"))
	b := m.AddParameter("b", ir.F32, shapeinfer.MustParseShape("4"))
	div := m.AddLayer("Divide", "opset1", "div", nil, []ir.Output{{Layer: a}, {Layer: b}}, []*ir.Port{{Type: ir.F32}})
	m.AddResult("r", ir.Output{Layer: div})
	_, err := InferModel(m)
	var le *LayerError
	if !errors.As(err, &le) || le.Layer != div || !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), `layer "div" (id 2): shapeinfer: Argument shapes are inconsistent.`) {
		t.Errorf("InferModel error = %v", err)
	}
}

func TestCallRunChecksTensors(t *testing.T) {
	d := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true)
	a := mustTensor(t, ir.I32, []int64{2, 3}, []int32{1, 2, 3, 4, 5, 6})
	b := mustTensor(t, ir.I32, []int64{3}, []int32{1, 2, 3})
	call, err := d.Prepare(a, b, Options{SIMD: SIMDGeneric})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := ir.NewTensor(ir.I32, []int64{2, 3})
	if err := call.Run(out, a, b); err != nil {
		t.Fatal(err)
	}
	short := &ir.Tensor{Type: ir.I32, Shape: []int64{2, 3}, Data: a.Data[:8]}
	wrongShape := mustTensor(t, ir.I32, []int64{3, 2}, []int32{1, 2, 3, 4, 5, 6})
	for name, args := range map[string][3]*ir.Tensor{
		"short data":  {out, short, b},
		"wrong shape": {out, wrongShape, b},
		"wrong type":  {out, a, mustTensor(t, ir.F32, []int64{3}, []float32{1, 2, 3})},
	} {
		if err := call.Run(args[0], args[1], args[2]); err == nil {
			t.Errorf("%s: Run accepted it", name)
		}
	}
}

// TestInferModelPortArity: a layer whose declared ports disagree with what
// its op takes and produces is an error naming it, never an index out of
// range (an edge may leave from the extra port).
func TestInferModelPortArity(t *testing.T) {
	build := func(edit func(m *ir.Model, a, b, div, res *ir.Layer)) *ir.Model {
		m := &ir.Model{Name: "arity"}
		a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("4"))
		b := m.AddParameter("b", ir.I32, shapeinfer.MustParseShape("4"))
		div, err := AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
		if err != nil {
			t.Fatal(err)
		}
		res := m.AddResult("r", ir.Output{Layer: div})
		edit(m, a, b, div, res)
		return m
	}
	extraOutput := func(l *ir.Layer, id uint64) *ir.Port {
		p := &ir.Port{ID: id, Type: ir.I32, Dims: []int64{4}}
		l.Outputs = append(l.Outputs, p)
		return p
	}
	for _, tc := range []struct {
		name, layer, want string
		edit              func(m *ir.Model, a, b, div, res *ir.Layer)
	}{
		{"parameter second output used", "a", "Parameter has 1 output, but the layer declares 2 output ports", func(m *ir.Model, a, b, div, res *ir.Layer) {
			extraOutput(a, 7)
			m.Edges[0].FromPort = 7
		}},
		{"divide second output used", "div", "Divide has 1 output, but the layer declares 2 output ports", func(m *ir.Model, a, b, div, res *ir.Layer) {
			extraOutput(div, 9)
			m.Edges[2].FromPort = 9
		}},
		{"result output feeds a layer", "r", "Result has 0 outputs, but the layer declares 1 output port", func(m *ir.Model, a, b, div, res *ir.Layer) {
			extraOutput(res, 1)
			m.AddResult("r2", ir.Output{Layer: res})
		}},
		{"parameter without output port", "b", "Parameter has 1 output, but the layer declares 0 output ports", func(m *ir.Model, a, b, div, res *ir.Layer) {
			b.Outputs = nil
			m.Edges = m.Edges[:1:1]
			m.Edges = append(m.Edges, ir.Edge{FromLayer: a.ID, FromPort: 0, ToLayer: div.ID, ToPort: 1}, ir.Edge{FromLayer: div.ID, FromPort: 2, ToLayer: res.ID, ToPort: 0})
		}},
		{"parameter with an input", "b", "Parameter has no inputs, but the layer declares 1 input port", func(m *ir.Model, a, b, div, res *ir.Layer) {
			b.Inputs = []*ir.Port{{ID: 5, Type: ir.I32, Dims: []int64{4}}}
			m.Edges = append(m.Edges, ir.Edge{FromLayer: a.ID, FromPort: 0, ToLayer: b.ID, ToPort: 5})
		}},
		{"result with two inputs", "r", "Result has 1 input, but the layer declares 2 input ports", func(m *ir.Model, a, b, div, res *ir.Layer) {
			res.Inputs = append(res.Inputs, &ir.Port{ID: 1, Type: ir.I32})
			m.Edges = append(m.Edges, ir.Edge{FromLayer: a.ID, FromPort: 0, ToLayer: res.ID, ToPort: 1})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := build(tc.edit)
			if err := m.Check(); err != nil {
				t.Fatalf("the model should pass the reader's checks: %v", err)
			}
			_, err := InferModel(m)
			var le *LayerError
			if !errors.As(err, &le) || le.Layer.Name != tc.layer || !errors.Is(err, ir.ErrGraph) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("InferModel error = %v; want layer %q and %q", err, tc.layer, tc.want)
			}
		})
	}
}

// TestPrepareRefusesOverflowingOutputs: shapes alone (no data yet) whose
// broadcast has more elements than int64 holds are refused, not planned.
func TestPrepareRefusesOverflowingOutputs(t *testing.T) {
	d := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true)
	_, err := d.Prepare(&ir.Tensor{Type: ir.I8, Shape: []int64{1 << 40, 1}}, &ir.Tensor{Type: ir.I8, Shape: []int64{1, 1 << 40}}, Options{})
	if !errors.Is(err, ir.ErrTooLarge) {
		t.Errorf("Prepare of a 2^80-element output: %v", err)
	}
}
