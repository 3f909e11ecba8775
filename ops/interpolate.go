package ops

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers Interpolate and evaluates all its modes of versions 4 and
// 11, with pads and antialias, as OpenVINO's reference does.

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
	if i.Version == 4 && strings.HasSuffix(i.Mode, "_pillow") {
		return nil, errorf("%w: Unsupported interpolation mode used with version 4 of the Interpolate op: %s", ErrAttribute, i.Mode)
	}
	if err := i.checkPads(); err != nil {
		return nil, err
	}
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

// evaluate computes Interpolate as OpenVINO's reference does
// (src/core/reference/include/openvino/reference/interpolate.hpp,
// InterpolateEval, with the helpers of src/core/reference/src/op/
// interpolate.cpp and, for the pillow modes, interpolate_pil.hpp), after
// padding the input with zeros by pads_begin and pads_end as
// Interpolate::evaluate does (pad_input_data). The modes nearest,
// linear_onnx, cubic and linear compute in float32, the reference's
// arithmetic, for every element type, so that coordinates round where
// OpenVINO's do; bilinear_pillow and bicubic_pillow in float64 as Pillow's
// code does. Each resized axis maps an output coordinate to the input by
// coordinate_transformation_mode with the axis' scale (the given one, or
// output over padded input length for sizes); nearest rounds it by
// nearest_mode, linear_onnx weighs the two neighbours, cubic the four of
// Keys' kernel with cube_coeff, taking edge values beyond the input;
// linear weighs the neighbours inside the input with a triangle filter,
// widened by antialias; the pillow modes resample height then width with
// Pillow's filters. The weighted sums run in the reference's order, so
// results are bit-exact.
func (i *Interpolate) evaluate(in, out []*ir.Tensor, o Options) error {
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
	if err := i.checkPads(); err != nil {
		return err
	}
	padded, err := i.pad(src, cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes))
	if err != nil {
		return err
	}
	src = padded
	for a := range rank {
		if src.Shape[a] == 0 && dst.Shape[a] > 0 {
			return errorf("%w: Interpolate cannot resize axis %d of no elements to %d", ErrShape, a, dst.Shape[a])
		}
	}
	if dst.Len() == 0 {
		return nil
	}
	// listed is each listed axis' scale, as the reference's m_scales;
	// scale each axis', 1 where an axis is not resized, as
	// InterpolateEvalHelper's m_all_scales.
	listed := make([]float32, len(axes))
	scale := make([]float32, rank)
	for a := range scale {
		scale[a] = 1
	}
	for k, a := range axes {
		if scalesMode {
			listed[k] = float32(in[valuesPort].Float64At(k))
		} else {
			listed[k] = float32(dst.Shape[a]) / float32(src.Shape[a])
		}
		scale[a] = listed[k]
	}
	coord := func(a, x int) float32 {
		return i.inCoord(float32(x), scale[a], float32(dst.Shape[a]), float32(src.Shape[a]))
	}
	switch i.Mode {
	case "nearest":
		i.evaluateNearest(src, dst, scale, coord)
		return nil
	case "linear":
		return i.evaluateLinear(src, dst, axes, listed, coord)
	case "bilinear_pillow", "bicubic_pillow":
		return i.evaluatePillow(src, dst, axes)
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

// pad returns src with pads_begin and pads_end zeros around it (src
// itself without pads), as the reference's pad_input_data: pads past the
// rank are ignored, missing ones are 0. The padded tensor is refused
// before it is allocated when it holds more than maxBytes.
func (i *Interpolate) pad(src *ir.Tensor, maxBytes int64) (*ir.Tensor, error) {
	rank := len(src.Shape)
	begin, end := make([]int64, rank), make([]int64, rank)
	copy(begin, i.PadsBegin)
	copy(end, i.PadsEnd)
	if !slices.ContainsFunc(append(slices.Clone(begin), end...), func(p int64) bool { return p != 0 }) {
		return src, nil
	}
	dims := make([]int64, rank)
	for a := range dims {
		dims[a] = satAdd(satAdd(src.Shape[a], begin[a]), end[a])
	}
	if err := checkSize(src.Type, dims, maxBytes); err != nil {
		return nil, errorf("%w (the input padded by pads_begin %v and pads_end %v)", err, i.PadsBegin, i.PadsEnd)
	}
	padded, err := ir.NewTensor(src.Type, dims)
	if err != nil {
		return nil, errorf("%w", err)
	}
	size := src.Type.Size()
	strides := rowMajor(dims)
	at := make([]int, rank)
	for k := range src.Len() {
		unflatten(k, src.Shape, at)
		to := 0
		for a, x := range at {
			to += (x + int(begin[a])) * strides[a]
		}
		copy(padded.Data[to*size:(to+1)*size], src.Data[k*size:(k+1)*size])
	}
	return padded, nil
}

// evaluates reports whether evaluate computes this Interpolate (Evaluable
// asks).
func (i *Interpolate) evaluates() bool { return i.refusal() == nil }

// refusal says why evaluate cannot compute this Interpolate: a mode
// OpenVINO does not define. antialias is read in mode linear only, as the reference
// does (InterpolateEval::linear_func; linear_onnx_func, cubic_func and
// nearest_func ignore it, where ONNX's Resize filters: validate says so).
func (i *Interpolate) refusal() error {
	switch i.Mode {
	case "nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow":
	default:
		return errorf("%w: irdiv evaluates Interpolate of mode nearest, linear, linear_onnx, cubic, bilinear_pillow and bicubic_pillow, not mode %s", ErrUnsupportedOp, i.Mode)
	}
	return nil
}

// checkPads refuses negative pads (OpenVINO reads pads as unsigned).
func (i *Interpolate) checkPads() error {
	if slices.ContainsFunc(append(slices.Clone(i.PadsBegin), i.PadsEnd...), func(p int64) bool { return p < 0 }) {
		return errorf("%w: Interpolate's pads_begin %v and pads_end %v must not be negative", ErrAttribute, i.PadsBegin, i.PadsEnd)
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

// maxInterpolateTaps bounds the input elements the modes linear and
// *_pillow read in all, so that a tiny scale (whose window spans the
// input) on a large output fails rather than running for hours.
const maxInterpolateTaps = 1 << 32

// evaluateLinear is InterpolateEval::linear_func: for every output
// element, the input elements within 2r+1 of its rounded coordinates on
// each listed axis (r = 2 where the axis' scale is above 1, else
// ceil(2/a)), those inside the input only, each weighed by prod_a times
// the triangle max(0, 1 - |a*dz|) of each axis in turn, a being the
// axis' scale where antialias is set and some scale is below 1, else 1;
// the output is the weighted sum over the sum of weights (0 where that is
// 0), rounded half away from zero for integer types. Every step is
// float32, in the reference's order: the first listed axis outermost.
func (i *Interpolate) evaluateLinear(src, dst *ir.Tensor, axes []int64, scales []float32, coord func(a, x int) float32) error {
	if hasDuplicates(intsOf(axes)) {
		return errorf("%w: irdiv does not evaluate Interpolate of mode linear over repeated axes %v", ErrUnsupportedOp, axes)
	}
	downsample := slices.ContainsFunc(scales, func(s float32) bool { return s < 1 })
	antialias := downsample && i.Antialias
	n := len(axes)
	a, r := make([]float32, n), make([]int64, n)
	prodA := float32(1)
	taps := float64(dst.Len())
	for k, s := range scales {
		a[k] = 1
		if antialias {
			a[k] = s
		}
		prodA *= a[k]
		if s > 1 {
			r[k] = 2
		} else {
			w := math.Ceil(float64(float32(2) / a[k]))
			if !(w >= 0 && w < 1<<53) {
				return errorf("%w: Interpolate of mode linear with antialias and scale %v: the reference's window 2/scale is unbounded", ErrUnsupportedOp, s)
			}
			r[k] = int64(w)
		}
		taps *= float64(min(2*r[k]+1, src.Shape[axes[k]]))
	}
	if taps > maxInterpolateTaps {
		return errorf("%w: Interpolate of mode linear would read %.3g input elements (at most %d)", ErrUnsupportedOp, taps, int64(maxInterpolateTaps))
	}
	values := make([]float32, src.Len())
	for k := range values {
		values[k] = float32(src.Float64At(k))
	}
	strides := rowMajor(src.Shape)
	at := make([]int, len(dst.Shape))
	icoord := make([]float32, n)
	lo, hi := make([]int64, n), make([]int64, n)
	var sum, wsum float32
	var visit func(k, offset int, w float32)
	visit = func(k, offset int, w float32) {
		if k == n {
			wsum += w
			sum += float32(w * values[offset])
			return
		}
		for x := lo[k]; x <= hi[k]; x++ {
			dz := icoord[k] - float32(x)
			t := float32(1) - float32(math.Abs(float64(float32(a[k]*dz))))
			visit(k+1, offset+int(x)*strides[axes[k]], float32(w*max(0, t)))
		}
	}
	for o := range dst.Len() {
		unflatten(o, dst.Shape, at)
		base := 0
		for d, x := range at {
			base += x * strides[d]
		}
		for k, ax := range axes {
			c := coord(int(ax), at[ax])
			if !(math.Abs(float64(c)) < 1<<53) {
				return errorf("%w: Interpolate of mode linear maps output %d of axis %d to %v, which the reference cannot round to an index", ErrUnsupportedOp, at[ax], ax, c)
			}
			icoord[k] = c
			centre := int64(math.Round(float64(c)))
			// The reference visits centre-r..centre+r and skips the
			// indices outside the input (as size_t, the negative ones
			// wrap past it).
			lo[k], hi[k] = max(centre-r[k], 0), min(centre+r[k], src.Shape[ax]-1)
			base -= at[ax] * strides[ax]
		}
		sum, wsum = 0, 0
		visit(0, base, prodA)
		switch {
		case wsum == 0:
			dst.SetFloat64(o, 0)
		case dst.Type.IsFloat():
			dst.SetFloat64(o, float64(sum/wsum))
		default:
			dst.SetInt64(o, int64(math.Round(float64(sum/wsum))))
		}
	}
	return nil
}

func intsOf(v []int64) []int {
	out := make([]int, len(v))
	for k, x := range v {
		out[k] = int(x)
	}
	return out
}

// pillowFilter is interpolate_pil's filter: a kernel of support 1 or 2
// with Keys' parameter (cube_coeff) for the bicubic one.
type pillowFilter struct {
	kernel  func(x, a float64) float64
	support float64
}

var pillowFilters = map[string]pillowFilter{
	"bilinear_pillow": {func(x, _ float64) float64 {
		x = math.Abs(x)
		if x < 1 {
			return 1 - x
		}
		return 0
	}, 1},
	"bicubic_pillow": {func(x, a float64) float64 {
		x = math.Abs(x)
		if x < 1 {
			return float64(float64(float64((a+2)*x)-(a+3))*x*x) + 1
		}
		if x < 2 {
			return float64(float64(float64(float64((x-5)*x)+8)*x)-4) * a
		}
		return 0
	}, 2},
}

// The pillow modes round each product before it is added, as Pillow's C
// compiled without fused multiply-adds does: Go fuses x*y + z on arm64
// (and wherever GOAMD64 allows it) unless a conversion rounds the
// product, which is why each one here is converted (Pillow's bilinear
// outputs were an ulp off under arm64).

// pillowCoeffs is interpolate_pil's precompute_coeffs for one axis
// resized from inLen to outLen over the whole input: for each output
// index, the first input index and the count it reads (bounds) and their
// weights (ksize per output index), normalised to sum 1, in float64.
func pillowCoeffs(inLen, outLen int, f pillowFilter, a float64) (bounds []int, kk []float64, ksize int) {
	scale := float64(float32(inLen)) / float64(outLen)
	filterscale := max(scale, 1)
	support := float64(f.support * filterscale)
	ksize = int(math.Ceil(support))*2 + 1
	kk = make([]float64, outLen*ksize)
	bounds = make([]int, outLen*2)
	for xx := range outLen {
		centre := float64((float64(xx) + 0.5) * scale)
		ss := 1 / filterscale
		xmin := max(int(centre-support+0.5), 0)
		xmax := min(int(centre+support+0.5), inLen) - xmin
		k := kk[xx*ksize : (xx+1)*ksize]
		ww := 0.0
		for x := range xmax {
			w := f.kernel((float64(x+xmin)-centre+0.5)*ss, a)
			k[x] = w
			ww += w
		}
		if ww != 0 {
			for x := range xmax {
				k[x] /= ww
			}
		}
		bounds[2*xx], bounds[2*xx+1] = xmin, xmax
	}
	return bounds, kk, ksize
}

// evaluatePillow is InterpolateEval::multidim_pil_func with
// interpolate_pil's imaging_resample_inner: the first listed axis is the
// height, the second the width, and each matrix of them (every index of
// the other axes) is resampled as Pillow's ImagingResample does, over the
// whole matrix: rows first (only those the columns pass will read) into a
// matrix of the element type, then columns, each output a float64 sum of
// the inputs its window reads times their weights, stored in the element
// type (float32 for the float types, the reference's float arithmetic;
// for the integer types rounded half away from zero and clamped to the
// type). An axis whose length does not change is not resampled.
func (i *Interpolate) evaluatePillow(src, dst *ir.Tensor, axes []int64) error {
	if len(axes) != 2 {
		return errorf("%w: For Pillow based modes exactly two (HW) axes need to be provided (axes %v)", ErrAttribute, axes)
	}
	if axes[0] >= axes[1] {
		// The reference then treats the data as if the axes were in
		// order where the other dims are 1, and inserts past the end of
		// its transposition order otherwise.
		return errorf("%w: irdiv evaluates Interpolate of mode %s over ascending axes (height then width), not %v, which OpenVINO's reference misreads", ErrUnsupportedOp, i.Mode, axes)
	}
	f := pillowFilters[i.Mode]
	h, w := int(axes[0]), int(axes[1])
	hIn, wIn, hOut, wOut := int(src.Shape[h]), int(src.Shape[w]), int(dst.Shape[h]), int(dst.Shape[w])
	boundsH, kkH, ksizeH := pillowCoeffs(wIn, wOut, f, i.CubeCoeff)
	boundsV, kkV, ksizeV := pillowCoeffs(hIn, hOut, f, i.CubeCoeff)
	if work := float64(dst.Len()) / float64(hOut*wOut) * (float64(hIn*wOut*ksizeH) + float64(hOut*wOut*ksizeV)); work > maxInterpolateTaps {
		return errorf("%w: Interpolate of mode %s would read %.3g input elements (at most %d)", ErrUnsupportedOp, i.Mode, work, int64(maxInterpolateTaps))
	}
	needH, needV := wOut != wIn, hOut != hIn
	// The rows the vertical pass reads.
	first, last := boundsV[0], boundsV[2*hOut-2]+boundsV[2*hOut-1]
	for y := range hOut {
		if needH {
			boundsV[2*y] -= first
		}
	}
	store := func(ss float64) float64 {
		if src.Type.IsFloat() {
			return float64(float32(ss))
		}
		var v int64
		switch {
		case math.IsNaN(ss):
			v = 0
		case ss >= 0:
			v = int64(min(ss+0.5, 1<<63-1024))
		default:
			v = int64(max(ss-0.5, -1<<63))
		}
		return float64(max(minInt(src.Type), min(v, maxIntOf(src.Type))))
	}
	in := make([]float64, hIn*wIn)
	temp := make([]float64, (last-first)*wOut)
	res := make([]float64, hOut*wOut)
	srcStrides, dstStrides := rowMajor(src.Shape), rowMajor(dst.Shape)
	outer := slices.Clone(dst.Shape)
	outer[h], outer[w] = 1, 1
	at := make([]int, len(outer))
	for m := range int(shapeLen(outer)) {
		unflatten(m, outer, at)
		sBase, dBase := 0, 0
		for d, x := range at {
			sBase += x * srcStrides[d]
			dBase += x * dstStrides[d]
		}
		for y := range hIn {
			for x := range wIn {
				in[y*wIn+x] = store(src.Float64At(sBase + y*srcStrides[h] + x*srcStrides[w]))
			}
		}
		rows, rowLen := in, wIn
		if needH {
			for y := range last - first {
				for x := range wOut {
					xmin, n := boundsH[2*x], boundsH[2*x+1]
					k := kkH[x*ksizeH:]
					ss := 0.0
					for j := range n {
						ss += float64(in[(y+first)*wIn+j+xmin] * k[j])
					}
					temp[y*wOut+x] = store(ss)
				}
			}
			rows, rowLen = temp, wOut
		}
		switch {
		case needV:
			for y := range hOut {
				ymin, n := boundsV[2*y], boundsV[2*y+1]
				k := kkV[y*ksizeV:]
				for x := range wOut {
					ss := 0.0
					for j := range n {
						ss += float64(rows[(j+ymin)*rowLen+x] * k[j])
					}
					res[y*wOut+x] = store(ss)
				}
			}
		default:
			copy(res, rows)
		}
		for y := range hOut {
			for x := range wOut {
				o := dBase + y*dstStrides[h] + x*dstStrides[w]
				if v := res[y*wOut+x]; dst.Type.IsFloat() {
					dst.SetFloat64(o, v)
				} else {
					dst.SetInt64(o, int64(v))
				}
			}
		}
	}
	return nil
}

// maxIntOf is an integer type's largest value within int64 (a u64's is
// 2^63-1 here).
func maxIntOf(t ir.ElementType) int64 {
	if t == ir.U64 {
		return math.MaxInt64
	}
	return maxInt(t)
}

// shapeLen is the number of elements of static dims.
func shapeLen(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}
