package ops

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

func i64Tensor(t testing.TB, shape []int64, v ...int64) *ir.Tensor {
	t.Helper()
	return mustTensor(t, ir.I64, shape, v)
}

// TestEvaluateCaps: ops that can ask for huge outputs from tiny inputs are
// refused before anything is allocated.
func TestEvaluateCaps(t *testing.T) {
	one := mustTensor(t, ir.I32, []int64{1}, []int32{7})
	for _, tc := range []struct {
		name string
		op   Op
		in   []*ir.Tensor
		max  int64
	}{
		{"broadcast", op("Broadcast", "opset3"), []*ir.Tensor{one, i64Tensor(t, []int64{2}, 1<<20, 1<<20)}, 0},
		{"range", op("Range", "opset4", "output_type", "i64"), []*ir.Tensor{i64Tensor(t, nil, 0), i64Tensor(t, nil, 4_000_000_000), i64Tensor(t, nil, 1)}, 0},
		{"tile", op("Tile", "opset1"), []*ir.Tensor{one, i64Tensor(t, []int64{3}, 1<<20, 1<<20, 1<<20)}, 0},
		{"tile small cap", op("Tile", "opset1"), []*ir.Tensor{one, i64Tensor(t, []int64{1}, 257)}, 1024},
		{"broadcast element count", op("Broadcast", "opset3"), []*ir.Tensor{one, i64Tensor(t, []int64{4}, 1<<20, 1<<20, 1<<20, 1<<20)}, 0},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Evaluate(tc.op, tc.in, Options{MaxTensorBytes: tc.max})
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ir.ErrTooLarge) || !strings.Contains(err.Error(), "MaxTensorBytes") {
			t.Errorf("%s: %v, want ErrTooLarge", tc.name, err)
		}
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
			t.Errorf("%s: allocated %d bytes before refusing", tc.name, grown)
		}
	}
	// Exactly at the cap is allowed.
	out, err := Evaluate(op("Tile", "opset1"), []*ir.Tensor{one, i64Tensor(t, []int64{1}, 256)}, Options{MaxTensorBytes: 1024})
	if err != nil || out[0].Len() != 256 {
		t.Errorf("tile at the cap: %v", err)
	}
}

// TestEvaluateErrors covers the failures of Evaluate other than shapes.
func TestEvaluateErrors(t *testing.T) {
	i32 := func(v ...int32) *ir.Tensor { return mustTensor(t, ir.I32, []int64{int64(len(v))}, v) }
	for _, tc := range []struct {
		name string
		op   Op
		in   []*ir.Tensor
		is   error
		want string
	}{
		{"floormod zero", op("FloorMod", "opset1"), []*ir.Tensor{i32(5, 6, 7), i32(2, 0, 1)}, ErrDivideByZero, "integer division by zero at flat output index 1"},
		{"mod zero", op("Mod", "opset1"), []*ir.Tensor{i32(5, 6, 7), i32(0)}, ErrDivideByZero, "at flat output index 0"},
		{"divide", op("Divide", "opset1"), []*ir.Tensor{i32(5, -2147483648), i32(1, -1)}, ErrOverflow, "integer division overflow at flat output index 1"},
		{"shrink out of range", op("StridedSlice", "opset1", "shrink_axis_mask", "1"), []*ir.Tensor{i32(1, 2), i64Tensor(t, []int64{1}, 2), i64Tensor(t, []int64{1}, 3), i64Tensor(t, []int64{1}, 1)}, ErrShape, "shrinks axis 0 of size 2 at index 2"},
		{"shape only", op("MatMul", "opset1"), []*ir.Tensor{i32(1, 2), i32(3, 4)}, ErrUnsupportedOp, "irdiv infers MatMul-1 but cannot evaluate it"},
		{"parameter", &Parameter{Type: ir.I32, Shape: shapeinfer.StaticShape(1)}, nil, ErrUnsupportedOp, "Parameter-1"},
		{"const without weights", &Const{Type: ir.I32, Shape: []int64{1}}, nil, ErrNoWeights, "Empty weights data"},
		{"f8", op("Add", "opset1"), []*ir.Tensor{{Type: ir.F8E4M3, Shape: []int64{1}, Data: []byte{1}}, {Type: ir.F8E4M3, Shape: []int64{1}, Data: []byte{1}}}, ErrType, "not f8e4m3"},
		{"short data", op("Negative", "opset1"), []*ir.Tensor{{Type: ir.I32, Shape: []int64{2}, Data: []byte{1, 2, 3, 4}}}, nil, "4 bytes of data do not hold a i32[2] tensor"},
		{"inference", op("Add", "opset1"), []*ir.Tensor{i32(1, 2), i32(1, 2, 3)}, ErrShape, "Argument shapes are inconsistent."},
	} {
		_, err := Evaluate(tc.op, tc.in, Options{})
		if err == nil || tc.is != nil && !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "ops: ") && !strings.HasPrefix(err.Error(), "shapeinfer: ") {
			t.Errorf("%s: %v, want %v and %q", tc.name, err, tc.is, tc.want)
		}
	}
	var de *DivideError
	if _, err := Evaluate(op("Mod", "opset1"), []*ir.Tensor{i32(1, 2, 3, 4), i32(1, 1, 1, 0)}, Options{}); !errors.As(err, &de) || de.Index != 3 {
		t.Errorf("mod error %v is not a *DivideError at index 3", err)
	}
}

// shapeModel builds x -> ShapeOf -> Gather(2) -> Divide(by d) -> Result
// and returns it with the Divide layer.
func shapeModel(t *testing.T, shape string, d int64) (*ir.Model, *ir.Layer) {
	t.Helper()
	m := &ir.Model{}
	x := m.AddParameter("x", ir.F32, shapeinfer.MustParseShape(shape))
	var infos []ValueInfo
	add := func(name string, o Op, ins ...*ir.Layer) *ir.Layer {
		var outs []ir.Output
		var in []ValueInfo
		for _, l := range ins {
			outs = append(outs, ir.Output{Layer: l})
			in = append(in, infoOf(t, m, l))
		}
		l, out, err := Layer(m, name, o, outs, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		infos = append(infos, out...)
		return l
	}
	shape3 := add("shape", &ShapeOf{Version: 3, OutputType: ir.I64}, x)
	idx := m.AddConst("idx", i64Tensor(t, nil, 2))
	axis := m.AddConst("axis", i64Tensor(t, nil, 0))
	dim := add("dim", &Gather{Version: 8}, shape3, idx, axis)
	by := m.AddConst("by", i64Tensor(t, nil, d))
	l, _, err := Layer(m, "div", NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true), []ir.Output{{Layer: dim}, {Layer: by}}, []ValueInfo{infoOf(t, m, dim), infoOf(t, m, by)})
	if err != nil {
		if d == 0 {
			return m, nil
		}
		t.Fatal(err)
	}
	m.AddResult("out", ir.Output{Layer: l})
	return m, l
}

// infoOf infers a model's layers up to l and returns l's first output.
func infoOf(t *testing.T, m *ir.Model, l *ir.Layer) ValueInfo {
	t.Helper()
	inf, err := InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return inf.Outputs[l][0]
}

// TestFolding: inference folds ShapeOf -> Gather -> Divide to a value when
// the shape is static, keeps the shape only when it is not, and reports an
// integer division by zero in folding as a *LayerError naming the layer.
func TestFolding(t *testing.T) {
	m, div := shapeModel(t, "2,3,9", -2)
	inf, err := InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	got := inf.Outputs[div][0]
	if got.Value == nil || got.String() != "i64[]" || ir.View[int64](got.Value)[0] != -5 {
		t.Errorf("folded Divide: %v %v, want i64[] -5 (floor of 9 / -2)", got, got.Value)
	}
	if d := div.Outputs[0]; d.Type != ir.I64 || len(d.Dims) != 0 {
		t.Errorf("Layer wrote the port %s%v", d.Type, d.Dims)
	}
	typ, _ := div.Type, div.Version
	if typ != "Divide" || div.Version != "opset1" || attrString(div.Data) != "[{auto_broadcast numpy} {m_pythondiv true}]" {
		t.Errorf("Layer wrote %s %s %v", typ, div.Version, div.Data)
	}

	m, div = shapeModel(t, "2,3,?", 2)
	inf, err = InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := inf.Outputs[div][0]; got.Value != nil || got.String() != "i64[]" {
		t.Errorf("dynamic shape: %v with value %v", got, got.Value)
	}

	// Layer refuses the division by zero; a file can still hold one.
	m, div = shapeModel(t, "2,3,9", 0)
	if div != nil {
		t.Fatal("Layer accepted a Divide by a constant zero")
	}
	dim := m.LayerByName("dim")
	by := m.AddConst("zero", i64Tensor(t, nil, 0))
	bad := m.AddLayer("Divide", "opset1", "bad", nil, []ir.Output{{Layer: dim}, {Layer: by}}, []*ir.Port{{Type: ir.I64}})
	m.AddResult("out", ir.Output{Layer: bad})
	_, err = InferModel(m)
	var le *LayerError
	if !errors.As(err, &le) || le.Layer != bad || !errors.Is(err, ErrDivideByZero) || !strings.Contains(err.Error(), `ops: layer "bad" (id `) {
		t.Errorf("division by zero in folding: %v", err)
	}
}

// TestFoldingReshape: a Reshape pattern computed from ShapeOf, Gather and
// Concat folds, so the Reshape's output is static, as OpenVINO infers it.
func TestFoldingReshape(t *testing.T) {
	m := &ir.Model{}
	x := m.AddParameter("x", ir.F32, shapeinfer.StaticShape(2, 3, 4))
	s, sInfo, _ := Layer(m, "s", &ShapeOf{Version: 1}, []ir.Output{{Layer: x}}, []ValueInfo{vi(ir.F32, "2,3,4")})
	idx := m.AddConst("idx", i64Tensor(t, []int64{1}, 0))
	ax := m.AddConst("ax", i64Tensor(t, nil, 0))
	g, gInfo, err := Layer(m, "g", &Gather{Version: 1}, []ir.Output{{Layer: s}, {Layer: idx}, {Layer: ax}}, []ValueInfo{sInfo[0], vec(0), scalar(0)})
	if err != nil {
		t.Fatal(err)
	}
	minus := m.AddConst("m", i64Tensor(t, []int64{1}, -1))
	c, cInfo, err := Layer(m, "c", &Concat{Axis: 0}, []ir.Output{{Layer: g}, {Layer: minus}}, []ValueInfo{gInfo[0], vec(-1)})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ir.View[int64](cInfo[0].Value)) != "[2 -1]" {
		t.Fatalf("pattern %v", cInfo[0].Value)
	}
	r, rInfo, err := Layer(m, "r", &Reshape{}, []ir.Output{{Layer: x}, {Layer: c}}, []ValueInfo{vi(ir.F32, "2,3,4"), cInfo[0]})
	if err != nil || rInfo[0].String() != "f32[2,12]" || fmt.Sprint(r.Outputs[0].Dims) != "[2 12]" {
		t.Errorf("reshape: %v %v", rInfo, err)
	}
	m.AddResult("out", ir.Output{Layer: r})
	inf, err := InferModel(m)
	if err != nil || inf.Outputs[r][0].String() != "f32[2,12]" {
		t.Errorf("InferModel: %v %v", inf.Outputs[r], err)
	}
}

// TestSpatialRules: the affine rules give every output dimension Infer
// gives, for random static inputs and attributes.
func TestSpatialRules(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	list := func(n int, lo, hi int64) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(lo + r.Int64N(hi-lo+1))
		}
		return strings.Join(s, ",")
	}
	checked := 0
	for trial := range 3000 {
		n := 1 + r.IntN(3)
		data := make([]int64, n+2)
		data[0], data[1] = 1, 4
		for i := 2; i < len(data); i++ {
			data[i] = 1 + r.Int64N(30)
		}
		kernel := list(n, 1, 5)
		common := []string{"strides", list(n, 1, 4), "pads_begin", list(n, 0, 3), "pads_end", list(n, 0, 3),
			"auto_pad", []string{"explicit", "same_upper", "same_lower", "valid"}[r.IntN(4)]}
		var o Op
		in := []ValueInfo{{Type: ir.F32, Shape: shapeinfer.StaticShape(data...)}}
		filter := func(lead ...int64) ValueInfo {
			dims := lead
			for _, k := range strings.Split(kernel, ",") {
				var v int64
				fmt.Sscan(k, &v)
				dims = append(dims, v)
			}
			return ValueInfo{Type: ir.F32, Shape: shapeinfer.StaticShape(dims...)}
		}
		switch trial % 6 {
		case 0:
			o = op("Convolution", "opset1", append(common, "dilations", list(n, 1, 3))...)
			in = append(in, filter(8, 4))
		case 1:
			o = op("GroupConvolution", "opset1", append(common, "dilations", list(n, 1, 3))...)
			in = append(in, filter(2, 3, 2))
		case 2:
			o = op("ConvolutionBackpropData", "opset1", append(common, "dilations", list(n, 1, 3), "output_padding", list(n, 0, 1))...)
			in = append(in, filter(4, 6))
		case 3:
			o = op("MaxPool", "opset14", append(common, "kernel", kernel, "dilations", list(n, 1, 2), "rounding_type", []string{"floor", "ceil", "ceil_torch"}[r.IntN(3)])...)
		case 4:
			o = op("AvgPool", "opset1", append(common, "kernel", kernel, "rounding_type", []string{"floor", "ceil"}[r.IntN(2)])...)
		case 5:
			o = op("Pad", "opset12")
			begin, end := make([]int64, n+2), make([]int64, n+2)
			for i := range begin {
				begin[i], end[i] = r.Int64N(7)-3, r.Int64N(7)-3
			}
			in = append(in, known([]int64{int64(n + 2)}, begin...), known([]int64{int64(n + 2)}, end...))
		}
		out, err := o.Infer(in)
		rules, rerr := o.(Spatial).SpatialRules(in)
		if err != nil {
			continue // attributes or sizes OpenVINO rejects
		}
		if mp, ok := o.(*MaxPool); ok && mp.AutoPad.same() && mp.RoundingType != RoundFloor {
			if rerr == nil {
				t.Errorf("%v: a rule for same padding with %s rounding", o.Attrs(), mp.RoundingType)
			}
			continue
		}
		if ap, ok := o.(*AvgPool); ok && ap.AutoPad.same() && ap.RoundingType != RoundFloor {
			continue
		}
		if rerr != nil {
			t.Fatalf("%T %v: rules fail where Infer does not: %v", o, in, rerr)
		}
		for _, rule := range rules {
			want := out[0].Shape.Dims[rule.Axis]
			got, ok := rule.Apply(data[rule.Axis])
			if !want.IsStatic() {
				if ok {
					t.Errorf("%T %v axis %d: rule gives %d where Infer gives %s", o, in, rule.Axis, got, want)
				}
				continue
			}
			if !ok || got != want.Min {
				t.Errorf("%T %v %v axis %d: rule %+v gives %d (%v), Infer %s", o, in, o.Attrs(), rule.Axis, rule, got, ok, want)
			}
			checked++
		}
	}
	if checked < 3000 {
		t.Errorf("only %d dimensions checked", checked)
	}
}
