package ops

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// interpolateCase is one Interpolate-11 evaluation whose expected output
// was worked out by hand from OpenVINO's reference formulas.
type interpolateCase struct {
	name  string
	attrs []string // Interpolate's attributes other than the defaults
	shape []int64
	in    []float64
	// sizes or scales, one per axis (every axis is listed).
	sizes  []int64
	scales []float32
	want   []float64
}

// TestInterpolateReference checks Interpolate-11 against values derived by
// hand from OpenVINO's reference (src/core/reference/src/op/interpolate.cpp:
// the coordinate functions half_pixel (default_source_coord),
// align_corners, asymmetric, tf_half_pixel_for_nn, pytorch_half_pixel and
// GetOriginalCoordinate in interpolate.hpp, the nearest functions
// default_nearest, round_prefer_ceil, floor_func, ceil_func, simple_func,
// and InterpolateEvalHelper::get_cubic_coeff; the sums of
// InterpolateEval::linear_onnx_func and cubic_func), all in float32.
func TestInterpolateReference(t *testing.T) {
	nearest := func(mode, coord string) []string {
		return []string{"mode", "nearest", "nearest_mode", mode, "coordinate_transformation_mode", coord}
	}
	sixToSeven := []float64{10, 11, 12, 13, 14, 15}
	// Sizes 6 to 7, half_pixel: the scale is float32(7/6) = 1.16666663, and
	// output 3 maps to float32(3.5 / 1.16666663) - 0.5 = 3 - 0.5 = 2.5 in
	// float32 (2.50000010 in float64, which rounds to 3). The coordinates
	// of outputs 0..6 are -0.071, 0.786, 1.643, 2.5, 3.357, 4.214, 5.071.
	cases := []interpolateCase{
		{"nearest round_prefer_floor float32 tie", nearest("round_prefer_floor", "half_pixel"), []int64{6}, sixToSeven, []int64{7}, nil, []float64{10, 11, 12, 12, 13, 14, 15}},
		{"nearest round_prefer_ceil", nearest("round_prefer_ceil", "half_pixel"), []int64{6}, sixToSeven, []int64{7}, nil, []float64{10, 11, 12, 13, 13, 14, 15}},
		{"nearest floor clamps -1 to 0", nearest("floor", "half_pixel"), []int64{6}, sixToSeven, []int64{7}, nil, []float64{10, 10, 11, 12, 13, 14, 15}},
		{"nearest ceil clamps 6 to 5", nearest("ceil", "half_pixel"), []int64{6}, sixToSeven, []int64{7}, nil, []float64{10, 11, 12, 13, 14, 15, 15}},
		{"nearest simple upsample truncates", nearest("simple", "half_pixel"), []int64{6}, sixToSeven, []int64{7}, nil, []float64{10, 10, 11, 12, 13, 14, 15}},
		// Scale float32(0.6) = 0.600000024 is below 1: simple takes the
		// ceiling of x / 0.6 = 0, 1.67, 3.33.
		{"nearest simple downsample ceils", nearest("simple", "asymmetric"), []int64{5}, []float64{10, 11, 12, 13, 14}, nil, []float32{0.6}, []float64{10, 12, 14}},
		// (x + 0.5) / 0.6 = 0.83, 2.5 (2.49999990 rounds to 2.5 in float32),
		// 4.17.
		{"nearest tf_half_pixel_for_nn", nearest("round_prefer_floor", "tf_half_pixel_for_nn"), []int64{5}, []float64{10, 11, 12, 13, 14}, nil, []float32{0.6}, []float64{11, 12, 14}},
		// x * 3 / 6: ties at 0.5, 1.5, 2.5 go down.
		{"nearest align_corners", nearest("round_prefer_floor", "align_corners"), []int64{4}, []float64{10, 11, 12, 13}, []int64{7}, nil, []float64{10, 10, 11, 11, 12, 12, 13}},
		{"nearest pytorch_half_pixel to length 1", nearest("round_prefer_floor", "pytorch_half_pixel"), []int64{5}, []float64{10, 11, 12, 13, 14}, []int64{1}, nil, []float64{10}},
		// Scale 1.2 keeps a length of 2 (floor(2.4)): GetOriginalCoordinate
		// then maps every output to itself, whatever the mode.
		{"linear_onnx unchanged length ignores the scale", []string{"mode", "linear_onnx"}, []int64{1, 1, 2}, []float64{0, 8}, nil, []float32{1, 1, 1.2}, []float64{0, 8}},
		// x * 2 / 4 = x / 2.
		{"linear_onnx align_corners", []string{"mode", "linear_onnx", "coordinate_transformation_mode", "align_corners"}, []int64{1, 1, 3}, []float64{0, 8, 4}, []int64{1, 1, 5}, nil, []float64{0, 4, 8, 6, 4}},
		// Cubic, a = -0.75, asymmetric, scale 2: coordinates x / 2, fraction
		// 0 (weights 0, 1, 0, 0) or 0.5, where get_cubic_coeff gives
		// -0.09375, 0.59375, 0.59375, -0.09375 on indices base-1..base+2,
		// clamped: output 1 = -0.09375*1 + 0.59375*1 + 0.59375*2 -
		// 0.09375*4 = 1.3125, output 7 = -0.09375*4 + (0.59375 + 0.59375 -
		// 0.09375)*8 = 8.375.
		{"cubic asymmetric", []string{"mode", "cubic", "coordinate_transformation_mode", "asymmetric"}, []int64{4}, []float64{1, 2, 4, 8}, nil, []float32{2}, []float64{1, 1.3125, 2, 2.71875, 4, 6.1875, 8, 8.375}},
		// Cubic, half_pixel, scale 2: coordinates x/2 - 0.25, fractions 0.75
		// and 0.25, weights -0.03515625, 0.26171875, 0.87890625, -0.10546875
		// and the reverse: output 0 (base -1, indices 0, 0, 0, 1) =
		// (-0.03515625 + 0.26171875 + 0.87890625)*1 - 0.10546875*2.
		{"cubic half_pixel", []string{"mode", "cubic"}, []int64{4}, []float64{1, 2, 4, 8}, []int64{8}, nil, []float64{0.89453125, 1.15625, 1.5625, 2.41796875, 3.16015625, 5.1171875, 7.1640625, 8.421875}},
		// Cubic over two axes, a = -0.5: at fraction 0.5 the weights are
		// -0.0625, 0.5625, 0.5625, -0.0625, so per axis the outputs weigh
		// (1, 0), (0.5, 0.5), (0, 1), (-0.0625, 1.0625) on the two inputs;
		// 1 + 2r + c of [[1, 2], [3, 4]] at those effective positions.
		{"cubic 2-D cube_coeff", []string{"mode", "cubic", "coordinate_transformation_mode", "asymmetric", "cube_coeff", "-0.5"}, []int64{2, 2}, []float64{1, 2, 3, 4}, nil, []float32{2, 2},
			[]float64{1, 1.5, 2, 2.0625, 2, 2.5, 3, 3.0625, 3, 3.5, 4, 4.0625, 3.125, 3.625, 4.125, 4.1875}},
	}
	for _, tc := range cases {
		for _, et := range []ir.ElementType{ir.F32, ir.F16, ir.BF16, ir.F64} {
			got, err := evaluateInterpolate(t, et, tc)
			if err != nil {
				t.Errorf("%s (%s): %v", tc.name, et, err)
				continue
			}
			// Each output is the float32 sum rounded once to the type.
			want, _ := ir.NewTensor(et, []int64{int64(len(tc.want))})
			for k, w := range tc.want {
				want.SetFloat64(k, w)
				if g, w := got.Float64At(k), want.Float64At(k); g != w {
					t.Errorf("%s (%s): output %d = %v, want %v (all: %v)", tc.name, et, k, g, w, floatsOf(got))
					break
				}
			}
		}
	}
}

func floatsOf(t *ir.Tensor) []float64 {
	v := make([]float64, t.Len())
	for k := range v {
		v[k] = t.Float64At(k)
	}
	return v
}

func evaluateInterpolate(t *testing.T, et ir.ElementType, tc interpolateCase) (*ir.Tensor, error) {
	t.Helper()
	data, err := ir.NewTensor(et, tc.shape)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range tc.in {
		data.SetFloat64(k, v)
	}
	attrs := append([]string{"shape_calculation_mode", "sizes"}, tc.attrs...)
	target := mustTensor(t, ir.I64, []int64{int64(len(tc.sizes))}, tc.sizes)
	if tc.scales != nil {
		attrs[1] = "scales"
		target = mustTensor(t, ir.F32, []int64{int64(len(tc.scales))}, tc.scales)
	}
	out, err := Evaluate(op("Interpolate", "opset11", attrs...), []*ir.Tensor{data, target}, Options{})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// TestInterpolateExactCopies: nearest copies elements whole, so an i64
// above 2^53 keeps its last bit.
func TestInterpolateExactCopies(t *testing.T) {
	big := int64(1)<<62 + 1
	in := mustTensor(t, ir.I64, []int64{2}, []int64{big, -big})
	out, err := Evaluate(op("Interpolate", "opset11", "mode", "nearest", "shape_calculation_mode", "sizes"), []*ir.Tensor{in, mustTensor(t, ir.I64, []int64{1}, []int64{4})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ir.View[int64](out[0]); got[0] != big || got[3] != -big {
		t.Errorf("nearest of i64: %v, want %d and %d at the ends", got, big, -big)
	}
}

// TestInterpolateNaN: linear_onnx weighs the neighbours of every spatial
// axis OpenVINO's reference takes, even of an axis it does not resize
// (with weights 1 and 0), so a NaN in the next channel reaches the output
// as it does there (0 * NaN). Outputs 3 and 7 map past the last input
// column, whose two neighbours are the column itself, which holds no NaN.
func TestInterpolateNaN(t *testing.T) {
	nan := float32(math.NaN())
	in := mustTensor(t, ir.F32, []int64{1, 2, 2}, []float32{1, 2, nan, 3})
	out, err := Evaluate(op("Interpolate", "opset11", "mode", "linear_onnx", "shape_calculation_mode", "sizes"),
		[]*ir.Tensor{in, mustTensor(t, ir.I64, []int64{3}, []int64{1, 2, 4})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range ir.View[float32](out[0]) {
		if k == 3 && v == 2 || k == 7 && v == 3 {
			continue
		}
		if !math.IsNaN(float64(v)) {
			t.Errorf("output %d = %v, want NaN (all: %v)", k, v, ir.View[float32](out[0]))
		}
	}
}

// TestInterpolateRefusals: what irdiv does not evaluate is refused by
// name.
func TestInterpolateRefusals(t *testing.T) {
	in := mustTensor(t, ir.F32, []int64{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	sizes := mustTensor(t, ir.I64, []int64{4}, []int64{1, 1, 4, 4})
	for _, tc := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"mode", "linear_onnx", "antialias", "true"}, "antialias: OpenVINO's reference ignores it in mode linear_onnx"},
		{[]string{"mode", "cubic", "antialias", "true"}, "antialias"},
		{[]string{"mode", "linear"}, "not mode linear"},
		{[]string{"mode", "nearest", "pads_begin", "0,0,1,1"}, "pads"},
	} {
		o := op("Interpolate", "opset11", append([]string{"shape_calculation_mode", "sizes"}, tc.attrs...)...).(*Interpolate)
		if Evaluable(o) {
			t.Errorf("%v: Evaluable", tc.attrs)
		}
		err := o.evaluate([]*ir.Tensor{in, sizes}, nil, Options{})
		if !errors.Is(err, ErrUnsupportedOp) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want ErrUnsupportedOp and %q", tc.attrs, err, tc.want)
		}
	}
}
