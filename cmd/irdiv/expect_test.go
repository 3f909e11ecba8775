package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// TestCompareAsONNXRunner: --expected compares floats as ONNX's backend
// runner does (assert_allclose with rtol 1e-3, atol 1e-7: NaN equal to
// NaN, infinities only to themselves), integers and bools exactly, and
// names the worst float element.
func TestCompareAsONNXRunner(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	f32 := func(vs ...float64) *ir.Tensor {
		f := make([]float32, len(vs))
		for i, v := range vs {
			f[i] = float32(v)
		}
		tn, err := ir.TensorOf(ir.F32, []int64{int64(len(vs))}, f)
		if err != nil {
			t.Fatal(err)
		}
		return tn
	}
	i64 := func(vs ...int64) *ir.Tensor {
		tn, err := ir.TensorOf(ir.I64, []int64{int64(len(vs))}, vs)
		if err != nil {
			t.Fatal(err)
		}
		return tn
	}
	for _, c := range []struct {
		name      string
		got, want *ir.Tensor
		tol       tolerance
		differ    int
		worst     int // -1: none
	}{
		{"one ulp", f32(-0.28091872, 1), f32(-0.28091884, 1), onnxTolerance, 0, -1},
		{"rtol bound", f32(1.0009, 1000), f32(1, 1000), onnxTolerance, 0, -1},
		{"past rtol", f32(1.002, 1000.5), f32(1, 1000), onnxTolerance, 1, 0},
		{"atol near zero", f32(5e-8, 0), f32(0, 0), onnxTolerance, 0, -1},
		{"past atol near zero", f32(1e-6, 0), f32(0, 0), onnxTolerance, 1, 0},
		{"negative zero", f32(math.Copysign(0, -1)), f32(0), tolerance{}, 0, -1},
		{"NaN equal to NaN", f32(nan, 1), f32(nan, 1), onnxTolerance, 0, -1},
		{"NaN against a number", f32(nan, 1), f32(1, 1), onnxTolerance, 1, 0},
		{"infinities", f32(inf, -inf), f32(inf, -inf), onnxTolerance, 0, -1},
		{"wrong infinity", f32(inf, 2, 1.01), f32(-inf, 2, 1), onnxTolerance, 2, 0},
		{"worst is the largest miss", f32(1.01, 2, 3.3), f32(1, 2, 3), onnxTolerance, 2, 2},
		{"exact when asked", f32(-0.28091872), f32(-0.28091884), tolerance{}, 1, 0},
		{"integers exactly", i64(1000000, 7), i64(1000001, 7), tolerance{rtol: 1}, 1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := compare(c.got, c.want, c.tol, 10)
			if got.count != c.differ || got.worst.index != c.worst {
				t.Errorf("%d differ, worst %d; want %d, worst %d", got.count, got.worst.index, c.differ, c.worst)
			}
		})
	}
}

// TestCheckExpectedReport: a failing comparison prints how it compared,
// the first elements and the worst, and the error names the worst.
func TestCheckExpectedReport(t *testing.T) {
	got, _ := ir.TensorOf(ir.F32, []int64{3}, []float32{1.01, 2, 3.3})
	want, _ := ir.TensorOf(ir.F32, []int64{3}, []float32{1, 2, 3})
	var out bytes.Buffer
	err := checkExpected(&out, "y", got, want, "output_0.pb", onnxTolerance, func(int) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "worst at flat index 2: got 3.3, expected 3") || !strings.Contains(err.Error(), "within rtol 0.001, atol 1e-07") {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(out.String(), "worst [2] got 3.3, expected 3") {
		t.Errorf("printed\n%s", out.String())
	}
	out.Reset()
	if err := checkExpected(&out, "y", got, got, "output_0.pb", onnxTolerance, func(int) string { return "" }); err != nil || !strings.Contains(out.String(), "(3 values, exactly)") {
		t.Errorf("%v\n%s", err, out.String())
	}
}
