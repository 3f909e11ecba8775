package ops

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	// Each output is the float32 sum rounded once to the type.
	checkInterpolateCases(t, cases, func(w float64) float64 { return w })
}

// checkInterpolateCases evaluates each case in every float type and
// compares its outputs with the case's, made exact by exact (each is
// rounded once to the type after it).
func checkInterpolateCases(t *testing.T, cases []interpolateCase, exact func(float64) float64) {
	t.Helper()
	for _, tc := range cases {
		for _, et := range []ir.ElementType{ir.F32, ir.F16, ir.BF16, ir.F64} {
			got, err := evaluateInterpolate(t, et, tc)
			if err != nil {
				t.Errorf("%s (%s): %v", tc.name, et, err)
				continue
			}
			want, _ := ir.NewTensor(et, []int64{int64(len(tc.want))})
			for k, w := range tc.want {
				want.SetFloat64(k, exact(w))
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
// name, and attributes OpenVINO rejects are errors.
func TestInterpolateRefusals(t *testing.T) {
	in := mustTensor(t, ir.F32, []int64{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	sizes := mustTensor(t, ir.I64, []int64{4}, []int64{1, 1, 4, 4})
	for _, tc := range []struct {
		version string
		attrs   []string
		axes    []int64
		want    error
		text    string
	}{
		{"opset11", []string{"mode", "area"}, nil, ErrUnsupportedOp, "cannot evaluate"},
		{"opset4", []string{"mode", "bilinear_pillow"}, nil, ErrAttribute, "Unsupported interpolation mode used with version 4 of the Interpolate op: bilinear_pillow"},
		{"opset11", []string{"mode", "nearest", "pads_begin", "0,0,-1,1"}, nil, ErrAttribute, "must not be negative"},
		{"opset11", []string{"mode", "bicubic_pillow"}, nil, ErrAttribute, "exactly two (HW) axes"},
		{"opset11", []string{"mode", "bicubic_pillow"}, []int64{3, 2}, ErrUnsupportedOp, "ascending axes"},
		{"opset11", []string{"mode", "linear"}, []int64{2, 2}, ErrUnsupportedOp, "repeated axes"},
		{"opset11", []string{"mode", "nearest", "pads_begin", "0,0,4000000000,4000000000"}, nil, ir.ErrTooLarge, "padded"},
	} {
		ins := []*ir.Tensor{in, sizes}
		if tc.axes != nil {
			ins = []*ir.Tensor{in, mustTensor(t, ir.I64, []int64{int64(len(tc.axes))}, []int64{4, 4}[:len(tc.axes)]), mustTensor(t, ir.I64, []int64{int64(len(tc.axes))}, tc.axes)}
		}
		attrs := append([]string{"shape_calculation_mode", "sizes"}, tc.attrs...)
		if tc.version == "opset4" {
			ins = []*ir.Tensor{in, sizes, mustTensor(t, ir.F32, []int64{4}, []float32{1, 1, 2, 2})}
		}
		_, err := Evaluate(op("Interpolate", tc.version, attrs...), ins, Options{MaxTensorBytes: 1 << 20})
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s %v axes %v: %v, want %v and %q", tc.version, tc.attrs, tc.axes, err, tc.want, tc.text)
		}
	}
}

// TestInterpolateNewModes checks the modes linear (with antialias),
// bilinear_pillow and pads against values worked out by hand from
// OpenVINO's reference (InterpolateEval::linear_func with
// InterpolateEvalHelper::get_info_for_linear_mode, inner_calculation and
// triangle_coeff; interpolate_pil's precompute_coeffs; pad_input_data).
func TestInterpolateNewModes(t *testing.T) {
	cases := []interpolateCase{
		// Half-pixel coordinates -0.25, 0.25, 0.75, 1.25; the window of
		// 2 around the rounded coordinate keeps the indices inside the
		// input, weighed 1 - |dz| and divided by their sum: at -0.25 only
		// index 0 weighs (0.75), at 1.25 only index 1.
		{"linear upsample", []string{"mode", "linear"}, []int64{2}, []float64{0, 8}, []int64{4}, nil, []float64{0, 2, 6, 8}},
		// Antialias, scale 0.5: a = 0.5, prod_a = 0.5, r = 4. Output 0 at
		// 0.5 (rounded to 1) reads indices 0..3 at dz 0.5, -0.5, -1.5,
		// -2.5: weights 0.5*(0.75, 0.75, 0.25, 0), sum 1.5 over 0.875.
		{"linear antialias", []string{"mode", "linear", "antialias", "true"}, []int64{4}, []float64{1, 2, 3, 4}, []int64{2}, nil, []float64{1.5 / 0.875, 2.875 / 0.875}},
		// Without antialias the same coordinates weigh the two nearest:
		// 0.5*1 + 0.5*2 and 0.5*3 + 0.5*4.
		{"linear downsample", []string{"mode", "linear"}, []int64{4}, []float64{1, 2, 3, 4}, []int64{2}, nil, []float64{1.5, 3.5}},
		// Pillow's bilinear over width 4 to 2: centres 1 and 3, support
		// 2, the taps 0..2 and 1..3 weigh 0.75, 0.75, 0.25 (and the
		// reverse) over 1.75.
		{"bilinear_pillow", []string{"mode", "bilinear_pillow"}, []int64{1, 4}, []float64{1, 2, 3, 4}, []int64{1, 2}, nil, []float64{3 / 1.75, 5.75 / 1.75}},
		// Pads: [0, 5, 6, 0] to 4 is the padded input itself.
		{"nearest pads", []string{"mode", "nearest", "pads_begin", "1", "pads_end", "1"}, []int64{2}, []float64{5, 6}, []int64{4}, nil, []float64{0, 5, 6, 0}},
		// [0, 4] scaled by 2: half-pixel coordinates clamped to 0, 0.25,
		// 0.75, 1.
		{"linear_onnx pads scales", []string{"mode", "linear_onnx", "pads_begin", "1"}, []int64{1}, []float64{4}, nil, []float32{2}, []float64{0, 1, 3, 4}},
		// The scale of sizes is over the padded length (4 to 2, 0.5).
		{"linear pads sizes", []string{"mode", "linear", "pads_end", "2"}, []int64{2}, []float64{2, 4}, []int64{2}, nil, []float64{3, 0}},
	}
	// The hand-worked fractions are what float32 arithmetic gives.
	checkInterpolateCases(t, cases, func(w float64) float64 { return float64(float32(w)) })
}

// TestInterpolateIntegers: linear rounds its weighted mean half away from
// zero for integer types, the pillow modes round each pass and clamp to
// the type, as the reference does for i8 and u8.
func TestInterpolateIntegers(t *testing.T) {
	for _, tc := range []struct {
		et    ir.ElementType
		mode  string
		in    []int64
		sizes []int64
		want  []int64
	}{
		// 0.75*0 + 0.25*3 = 0.75 rounds to 1, 0.25*0 + 0.75*3 = 2.25 to 2.
		{ir.I32, "linear", []int64{0, 3}, []int64{4}, []int64{0, 1, 2, 3}},
		{ir.U8, "linear", []int64{0, 255}, []int64{4}, []int64{0, 64, 191, 255}},
		// Bicubic (a = -0.5) overshoots: Pillow's float image gives -128,
		// -133.58, -145.52, -76.20, 75.20, 144.52, 132.58, 127, which
		// round and clamp to i8.
		{ir.I8, "bicubic_pillow", []int64{-128, -128, 127, 127}, []int64{8}, []int64{-128, -128, -128, -76, 75, 127, 127, 127}},
	} {
		data, err := ir.NewTensor(tc.et, []int64{1, int64(len(tc.in))})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.in {
			data.SetInt64(k, v)
		}
		out, err := Evaluate(op("Interpolate", "opset11", "mode", tc.mode, "shape_calculation_mode", "sizes", "cube_coeff", "-0.5"),
			[]*ir.Tensor{data, mustTensor(t, ir.I64, []int64{2}, append([]int64{1}, tc.sizes...))}, Options{})
		if err != nil {
			t.Errorf("%s %s: %v", tc.et, tc.mode, err)
			continue
		}
		for k, w := range tc.want {
			if g := intAt(out[0], k); g != w {
				t.Errorf("%s %s: output %d = %d, want %d (all %v)", tc.et, tc.mode, k, g, w, floatsOf(out[0]))
				break
			}
		}
	}
}

// TestInterpolateGolden checks the modes linear with antialias,
// bilinear_pillow and bicubic_pillow against Pillow and PyTorch
// (testdata/interpolate/gen.py): Pillow's float32 images exactly, PyTorch
// to within 2e-6 of the largest output.
func TestInterpolateGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "interpolate", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Source string
		Attrs        []string
		Shape        []int64
		In           []float32
		Axes, Sizes  []int64
		Want         []float32
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	worst := map[string]float64{}
	for _, tc := range cases {
		out, err := Evaluate(op("Interpolate", "opset11", tc.Attrs...), []*ir.Tensor{mustTensor(t, ir.F32, tc.Shape, tc.In),
			mustTensor(t, ir.I64, []int64{2}, tc.Sizes), mustTensor(t, ir.I64, []int64{2}, tc.Axes)}, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.Name, err)
			continue
		}
		got := ir.View[float32](out[0])
		if len(got) != len(tc.Want) {
			t.Errorf("%s: %d outputs, want %d", tc.Name, len(got), len(tc.Want))
			continue
		}
		exact := strings.HasPrefix(tc.Source, "Pillow")
		var diff, scale float64
		for k, w := range tc.Want {
			diff = max(diff, math.Abs(float64(got[k])-float64(w)))
			scale = max(scale, math.Abs(float64(w)))
			if exact && got[k] != w {
				t.Errorf("%s: output %d = %v, %s gives %v", tc.Name, k, got[k], tc.Source, w)
				break
			}
		}
		kind := strings.Fields(tc.Name)[0] + " " + tc.Attrs[1]
		worst[kind] = max(worst[kind], diff)
		if diff > 2e-6*scale {
			t.Errorf("%s: differs from %s by %g (outputs up to %g)", tc.Name, tc.Source, diff, scale)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(worst)) {
		t.Logf("%s: max abs difference %g", k, worst[k])
	}
}

// TestInterpolateHostile evaluates every mode with scales and pads at the
// edges (0, tiny, huge, negative, NaN, infinite; pads past any size): each
// gives an output or an error, never a panic, within MaxTensorBytes.
func TestInterpolateHostile(t *testing.T) {
	in := mustTensor(t, ir.F32, []int64{1, 3, 5}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	evaluated := 0
	hostile := []float32{0, 1e-30, 1e-7, 0.3, 1, 2.5, 1e6, 1e30, -1, -0.5, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, mode := range []string{"nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"} {
		for _, antialias := range []string{"true", "false"} {
			for _, pads := range []string{"0", "1,0,2", "9223372036854775807", "0,4611686018427387904,4611686018427387904"} {
				for _, s1 := range hostile {
					for _, s2 := range hostile {
						o := op("Interpolate", "opset11", "mode", mode, "shape_calculation_mode", "scales", "antialias", antialias,
							"pads_begin", pads, "pads_end", pads, "coordinate_transformation_mode", "asymmetric")
						if _, err := Evaluate(o, []*ir.Tensor{in, mustTensor(t, ir.F32, []int64{2}, []float32{s1, s2}),
							mustTensor(t, ir.I64, []int64{2}, []int64{1, 2})}, Options{MaxTensorBytes: 1 << 20}); err == nil {
							evaluated++
						}
					}
				}
			}
		}
	}
	if evaluated < 500 {
		t.Errorf("%d hostile Interpolates evaluated; the cases should reach the modes' code", evaluated)
	}
	t.Logf("%d evaluated", evaluated)
}
