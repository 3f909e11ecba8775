package ops

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers Interpolate and evaluates its modes nearest, linear_onnx
// and cubic without pads or antialias (ONNX's Resize as OpenVINO's
// frontend writes it); the others give ErrUnsupportedOp.

// Interpolate is Interpolate-4 (inputs data, sizes, scales, optional
// axes) or Interpolate-11 (data, sizes or scales, optional axes); the
// output is the padded input with the axes resized per
// ShapeCalculationMode ("sizes" or "scales"). The other attributes are
// kept for Attrs.
type Interpolate struct {
	Version              int
	Mode                 string
	ShapeCalculationMode string
	CoordinateTransform  string
	NearestMode          string
	Antialias            bool
	PadsBegin, PadsEnd   []int64
	CubeCoeff            float64
}

func registerInterpolate() {
	register("Interpolate", []int{1, 4, 11}, func(l *ir.Layer, v int) (Op, error) {
		if v == 1 {
			return nil, unsupportedVersion("Interpolate", v)
		}
		a := attrs{l}
		i := &Interpolate{
			Version: v, Mode: a.str("mode", "nearest"), CoordinateTransform: a.str("coordinate_transformation_mode", "half_pixel"),
			NearestMode: a.str("nearest_mode", "round_prefer_floor"), Antialias: a.bool("antialias", false),
			PadsBegin: a.ints("pads_begin"), PadsEnd: a.ints("pads_end"), CubeCoeff: a.float("cube_coeff", -0.75),
		}
		m, err := a.enum("shape_calculation_mode", "ov::op::util::InterpolateBase::ShapeCalcMode", []string{"sizes", "scales"}, 0)
		i.ShapeCalculationMode = []string{"sizes", "scales"}[m]
		return i, err
	})
}

func (i *Interpolate) OpType() (string, string) { return "Interpolate", opset(i.Version) }

func (i *Interpolate) Attrs() []ir.Attr {
	attrs := []ir.Attr{
		attr("mode", i.Mode), attr("shape_calculation_mode", i.ShapeCalculationMode),
		attr("coordinate_transformation_mode", i.CoordinateTransform), attr("nearest_mode", i.NearestMode),
		attr("antialias", formatBool(i.Antialias)), attr("pads_begin", formatInts(i.PadsBegin)),
		attr("pads_end", formatInts(i.PadsEnd)), attr("cube_coeff", formatFloat(i.CubeCoeff)),
	}
	return attrs
}

func (i *Interpolate) Infer(in []ValueInfo) ([]ValueInfo, error) {
	scales := i.ShapeCalculationMode == "scales"
	valuesPort, axesPort := 1, 2
	if i.Version == 4 {
		if err := inputCount(in, 3, 4); err != nil {
			return nil, err
		}
		axesPort = 3
		if scales {
			valuesPort = 2
		}
	} else if err := inputCount(in, 2, 3); err != nil {
		return nil, err
	}
	for p := 1; p < len(in); p++ {
		if i.Version == 4 && p != valuesPort && p != axesPort {
			continue
		}
		if r := in[p].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Input [%d] is not rank 1", ErrShape, p)
		}
	}
	data := in[0].Shape
	result := func(s shapeinfer.Shape) ([]ValueInfo, error) { return []ValueInfo{{Type: in[0].Type, Shape: s}}, nil }
	if data.DynamicRank {
		return result(data)
	}
	rank := len(data.Dims)
	var axes []int64
	if len(in) > axesPort {
		v, ok := constInts(in[axesPort])
		if !ok {
			return result(dynamicShape(rank))
		}
		for _, a := range v {
			if a < 0 || a >= int64(rank) {
				return nil, errorf("%w: All axes values should less than input rank: %d", ErrAttribute, rank)
			}
		}
		axes = v
	} else {
		for a := range rank {
			axes = append(axes, int64(a))
		}
	}
	pad := func(p []int64, a int) int64 {
		if a < len(p) {
			return p[a]
		}
		return 0
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, rank)}
	for a, d := range data.Dims {
		out.Dims[a] = padDim(d, pad(i.PadsBegin, a)+pad(i.PadsEnd, a))
	}
	if scales {
		s, ok := constFloats(in[valuesPort])
		if ok && len(s) < len(axes) {
			return nil, errorf("%w: The number of elements in the 'scales' input does not match the number of axes %d", ErrShape, len(axes))
		}
		for k, a := range axes {
			if !ok {
				out.Dims[a] = shapeinfer.Dynamic()
			} else {
				out.Dims[a] = scaleDim(out.Dims[a], float32(s[k]))
			}
		}
		return result(out)
	}
	sizes, ok := constInts(in[valuesPort])
	if ok && len(sizes) < len(axes) {
		return nil, errorf("%w: The number of elements in the 'sizes' input does not match the number of axes %d", ErrShape, len(axes))
	}
	for k, a := range axes {
		if !ok {
			out.Dims[a] = shapeinfer.Dynamic()
		} else {
			out.Dims[a] = shapeinfer.Interval(sizes[k], sizes[k])
		}
	}
	return result(out)
}

// scaleDim is dim::scale: in float arithmetic, the scale plus 1e-6 times
// the bounds, truncated; a scale of exactly 1 keeps the dimension.
func scaleDim(d shapeinfer.Dim, scale float32) shapeinfer.Dim {
	if scale == 1 {
		return d
	}
	scale += 1e-6
	f := func(x int64) int64 {
		if x == unbounded {
			return -1
		}
		return floatToInt(float64(float32(float32(x)*scale)), ir.I64)
	}
	if d.IsStatic() {
		return shapeinfer.Interval(f(d.Max), f(d.Max))
	}
	return shapeinfer.Interval(f(d.Min), f(d.Max))
}

// evaluate computes the modes nearest, linear_onnx and cubic as OpenVINO's
// reference does (src/core/reference/include/openvino/reference/
// interpolate.hpp, InterpolateEval, with the helpers of
// src/core/reference/src/op/interpolate.cpp): in float32 arithmetic, the
// reference's, for every element type, so that coordinates round where
// OpenVINO's do. Each resized axis maps an output coordinate to the input
// by coordinate_transformation_mode with the axis' scale (the given one,
// or output over input length for sizes); nearest rounds it by
// nearest_mode, linear_onnx weighs the two neighbours, cubic the four of
// Keys' kernel with cube_coeff, taking edge values beyond the input. The
// weighted sums run in the reference's order, so results are bit-exact.
func (i *Interpolate) evaluate(in, out []*ir.Tensor, _ Options) error {
	if err := i.refusal(); err != nil {
		return err
	}
	src, dst := in[0], out[0]
	rank := len(src.Shape)
	scalesMode := i.ShapeCalculationMode == "scales"
	valuesPort, axesPort := 1, 2
	if i.Version == 4 {
		axesPort = 3
		if scalesMode {
			valuesPort = 2
		}
	}
	var axes []int64
	if len(in) > axesPort {
		axes = ints(in[axesPort])
	} else {
		for a := range rank {
			axes = append(axes, int64(a))
		}
	}
	for a := range rank {
		if src.Shape[a] == 0 && dst.Shape[a] > 0 {
			return errorf("%w: Interpolate cannot resize axis %d of no elements to %d", ErrShape, a, dst.Shape[a])
		}
	}
	if dst.Len() == 0 {
		return nil
	}
	// scale is each axis' scale, 1 where an axis is not resized, as
	// InterpolateEvalHelper's m_all_scales.
	scale := make([]float32, rank)
	for a := range scale {
		scale[a] = 1
	}
	for k, a := range axes {
		if scalesMode {
			scale[a] = float32(in[valuesPort].Float64At(k))
		} else {
			scale[a] = float32(dst.Shape[a]) / float32(src.Shape[a])
		}
	}
	coord := func(a, x int) float32 {
		return i.inCoord(float32(x), scale[a], float32(dst.Shape[a]), float32(src.Shape[a]))
	}
	if i.Mode == "nearest" {
		i.evaluateNearest(src, dst, scale, coord)
		return nil
	}
	var taps []axisTaps
	if i.Mode == "cubic" {
		for _, a := range axes {
			taps = append(taps, cubicTaps(int(a), int(src.Shape[a]), int(dst.Shape[a]), float32(i.CubeCoeff), coord))
		}
	} else {
		for _, a := range linearONNXAxes(axes, src.Shape, dst.Shape) {
			taps = append(taps, linearTaps(a, int(src.Shape[a]), int(dst.Shape[a]), coord))
		}
	}
	sumTaps(src, dst, taps)
	return nil
}

// evaluates reports whether evaluate computes this Interpolate (Evaluable
// asks).
func (i *Interpolate) evaluates() bool { return i.refusal() == nil }

// refusal says why evaluate cannot compute this Interpolate: modes
// other than nearest, linear_onnx and cubic, pads, or antialias. OpenVINO's
// reference honours antialias only in mode linear (InterpolateEval::
// linear_func) and ignores it in the others, where ONNX's Resize filters;
// irdiv refuses it rather than pick one of the two answers.
func (i *Interpolate) refusal() error {
	if i.Mode != "nearest" && i.Mode != "linear_onnx" && i.Mode != "cubic" {
		return errorf("%w: irdiv evaluates Interpolate of mode nearest, linear_onnx and cubic, not mode %s", ErrUnsupportedOp, i.Mode)
	}
	if i.Antialias {
		return errorf("%w: irdiv does not evaluate Interpolate with antialias: OpenVINO's reference ignores it in mode %s, where ONNX's Resize filters", ErrUnsupportedOp, i.Mode)
	}
	for _, p := range append(slices.Clone(i.PadsBegin), i.PadsEnd...) {
		if p != 0 {
			return errorf("%w: irdiv does not evaluate Interpolate with pads (pads_begin %v, pads_end %v)", ErrUnsupportedOp, i.PadsBegin, i.PadsEnd)
		}
	}
	return nil
}

// evaluateNearest copies, for every output element, the input element at
// the rounded coordinates (InterpolateEvalHelper::
// get_input_coords_for_nearest_mode): every axis, each rounded with
// "downsample" when its scale is below 1 and clamped into the input.
// Elements are copied as bytes, so that no type loses bits.
func (i *Interpolate) evaluateNearest(src, dst *ir.Tensor, scale []float32, coord func(a, x int) float32) {
	rank := len(src.Shape)
	pick := make([][]int, rank)
	for a := range rank {
		pick[a] = make([]int, dst.Shape[a])
		for x := range pick[a] {
			n := i.nearest(coord(a, x), scale[a] < 1)
			pick[a][x] = int(max(0, min(n, src.Shape[a]-1)))
		}
	}
	size := src.Type.Size()
	strides := rowMajor(src.Shape)
	at := make([]int, rank)
	for o := range dst.Len() {
		unflatten(o, dst.Shape, at)
		from := 0
		for a, x := range at {
			from += pick[a][x] * strides[a]
		}
		copy(dst.Data[o*size:(o+1)*size], src.Data[from*size:(from+1)*size])
	}
}

// inCoord maps output coordinate x of an axis to the input as
// GetOriginalCoordinate does (interpolate.hpp, with the functions of
// interpolate.cpp chosen by coordinate_transformation_mode), in float32:
// an axis of scale 1 or of unchanged length maps to itself, whatever the
// mode.
func (i *Interpolate) inCoord(x, scale, outLen, inLen float32) float32 {
	if scale == 1 || outLen == inLen {
		return x
	}
	switch i.CoordinateTransform {
	case "pytorch_half_pixel":
		if outLen > 1 {
			return float32(float32(x+0.5)/scale) - 0.5
		}
		return 0
	case "asymmetric":
		return x / scale
	case "tf_half_pixel_for_nn":
		return float32(x+0.5) / scale
	case "align_corners":
		if outLen == 1 {
			return 0
		}
		return float32(x*(inLen-1)) / (outLen - 1)
	default: // half_pixel
		return float32(float32(x+0.5)/scale) - 0.5
	}
}

// nearest rounds an input coordinate as nearest_mode says, as the
// functions GetNearestPixel picks (interpolate.cpp): round_prefer_floor
// takes the floor of a coordinate whose truncation plus 0.5 (in float32)
// equals it, else rounds half away from zero as std::round.
func (i *Interpolate) nearest(c float32, downsample bool) int64 {
	switch i.NearestMode {
	case "round_prefer_ceil":
		return int64(math.Round(float64(c)))
	case "floor":
		return int64(math.Floor(float64(c)))
	case "ceil":
		return int64(math.Ceil(float64(c)))
	case "simple":
		if downsample {
			return int64(math.Ceil(float64(c)))
		}
		return int64(c)
	default: // round_prefer_floor
		if c == float32(int64(c))+0.5 {
			return int64(math.Floor(float64(c)))
		}
		return int64(math.Round(float64(c)))
	}
}

// axisTaps are, for one axis and each of its output indices, the input
// indices a weighted sum reads and their weights: Index and Weight hold n
// entries per output index.
type axisTaps struct {
	axis   int
	n      int
	index  []int
	weight []float32
}

// linearTaps are the two neighbours of InterpolateEval::linear_onnx_func:
// the coordinate clamped into the input, its truncation and the next index
// (the same at the last), weighed by the distance to the other (0.5 each
// when they coincide). The first tap is the lower index, as the
// reference's sum starts with it.
func linearTaps(a, inLen, outLen int, coord func(a, x int) float32) axisTaps {
	t := axisTaps{axis: a, n: 2, index: make([]int, 2*outLen), weight: make([]float32, 2*outLen)}
	last := float32(inLen - 1)
	for x := range outLen {
		c := max(0, min(coord(a, x), last))
		i1 := min(int(c), inLen-1)
		i2 := min(i1+1, inLen-1)
		d1 := float32(math.Abs(float64(c - float32(i1))))
		d2 := float32(math.Abs(float64(c - float32(i2))))
		if i1 == i2 {
			d1, d2 = 0.5, 0.5
		}
		t.index[2*x], t.index[2*x+1] = i1, i2
		t.weight[2*x], t.weight[2*x+1] = d2, d1
	}
	return t
}

// cubicTaps are the four neighbours of InterpolateEval::cubic_func: from
// one below the coordinate's floor to two above, each clamped into the
// input, weighed by get_cubic_coeff of the coordinate's fraction.
func cubicTaps(a, inLen, outLen int, cubeCoeff float32, coord func(a, x int) float32) axisTaps {
	t := axisTaps{axis: a, n: 4, index: make([]int, 4*outLen), weight: make([]float32, 4*outLen)}
	for x := range outLen {
		c := coord(a, x)
		base := int64(math.Floor(float64(c)))
		w := cubicCoeffs(c-float32(base), cubeCoeff)
		for k := range 4 {
			t.index[4*x+k] = int(max(0, min(base+int64(k)-1, int64(inLen-1))))
			t.weight[4*x+k] = w[k]
		}
	}
	return t
}

// cubicCoeffs are the weights of Keys' cubic convolution kernel with
// parameter a for the four neighbours of a point at fraction s past the
// second, as InterpolateEvalHelper::get_cubic_coeff evaluates them, each
// operation rounded to float32 in its order.
func cubicCoeffs(s, a float32) [4]float32 {
	s = float32(math.Abs(float64(s)))
	// outer is the kernel for 1 <= |d| < 2, inner for |d| < 1.
	outer := func(d float32) float32 {
		v := float32(a*d) - float32(5*a)
		v = float32(v*d) + float32(8*a)
		return float32(v*d) - float32(4*a)
	}
	inner := func(d float32) float32 {
		v := float32((a+2)*d) - (a + 3)
		return float32(float32(v*d)*d) + 1
	}
	return [4]float32{outer(s + 1), inner(s), inner(1 - s), outer(2 - s)}
}

// linearONNXAxes are the axes linear_onnx weighs neighbours on, outermost
// first. OpenVINO's reference (linear_onnx_func with
// get_info_for_generic_linear_onnx) takes a rank-3 to rank-5 input with
// every axis listed as batch, channels and two or three spatial axes: it
// pads the shape to five dims and takes two spatial axes when the padded
// dims 1 and 2 equal the output's dims 1 and 2, else three; the spatial
// axes of unchanged length still weigh their neighbours, which changes how
// the sum rounds. Elsewhere that reference fails or reads out of bounds,
// and irdiv weighs the listed axes, which is Interpolate's specification;
// a listed axis that the reference takes for batch or channels but whose
// length changes is weighed too.
func linearONNXAxes(axes, in, out []int64) []int {
	rank := len(in)
	var spatial []int
	if len(axes) == rank && rank >= 3 && rank <= 5 && slices.IsSorted(axes) && axes[0] == 0 && axes[rank-1] == int64(rank-1) {
		padded := append(make([]int64, 5-rank), in...)
		for a := range 5 - rank {
			padded[a] = 1
		}
		first := rank - 3
		if padded[1] == out[1] && padded[2] == out[2] {
			first = rank - 2
		}
		for a := range rank {
			if a >= first || in[a] != out[a] {
				spatial = append(spatial, a)
			}
		}
		return spatial
	}
	for _, a := range axes {
		spatial = append(spatial, int(a))
	}
	slices.Sort(spatial)
	return slices.Compact(spatial)
}

// sumTaps writes each output element as the float32 sum of the input
// elements its axes' taps pick, each weighed by the product of their
// weights, in the order OpenVINO's reference adds them: the taps of the
// first axis outermost, the product starting at 1 and taken in axis
// order. Axes without taps read the output's own index. A tap whose
// weight product is zero adds a zero, which changes nothing unless the
// input holds an infinity or a NaN; only then are such taps read.
func sumTaps(src, dst *ir.Tensor, taps []axisTaps) {
	values := make([]float32, src.Len())
	finite := true
	for k := range values {
		values[k] = float32(src.Float64At(k))
		finite = finite && !math.IsInf(float64(values[k]), 0) && !math.IsNaN(float64(values[k]))
	}
	strides := rowMajor(src.Shape)
	at := make([]int, len(dst.Shape))
	var add func(level, offset int, weight float32, sum *float32)
	add = func(level, offset int, weight float32, sum *float32) {
		if weight == 0 && finite {
			return
		}
		if level == len(taps) {
			*sum += float32(weight * values[offset])
			return
		}
		t := taps[level]
		x := at[t.axis]
		for k := range t.n {
			add(level+1, offset+t.index[t.n*x+k]*strides[t.axis], float32(weight*t.weight[t.n*x+k]), sum)
		}
	}
	tapped := make([]bool, len(dst.Shape))
	for _, t := range taps {
		tapped[t.axis] = true
	}
	for o := range dst.Len() {
		unflatten(o, dst.Shape, at)
		base := 0
		for a, x := range at {
			if !tapped[a] {
				base += x * strides[a]
			}
		}
		var sum float32
		add(0, base, 1, &sum)
		dst.SetFloat64(o, float64(sum))
	}
}
