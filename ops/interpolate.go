package ops

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers Interpolate and evaluates its modes nearest and
// linear_onnx without pads or antialias (ONNX's Resize as OpenVINO's
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

// evaluate computes the modes nearest and linear_onnx as OpenVINO's
// reference does: each resized axis maps an output coordinate to the input
// by coordinate_transformation_mode, with the axis' scale (the given one,
// or output over input length for sizes), then nearest rounds it by
// nearest_mode, or linear_onnx clamps it into the input and weighs the two
// neighbours (the same neighbour twice at an edge). Coordinates and sums
// are float64, each output rounded once to the type.
func (i *Interpolate) evaluate(in, out []*ir.Tensor, _ Options) error {
	if !i.evaluates() {
		return errorf("%w: irdiv evaluates Interpolate of mode nearest and linear_onnx without antialias or pads, not mode %s (antialias %v, pads %v and %v)",
			ErrUnsupportedOp, i.Mode, i.Antialias, i.PadsBegin, i.PadsEnd)
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
	scale := make([]float64, rank)
	resized := make([]bool, rank)
	for k, a := range axes {
		resized[a] = true
		if scalesMode {
			scale[a] = float64(float32(in[valuesPort].Float64At(k)))
		} else {
			scale[a] = float64(float32(dst.Shape[a]) / float32(src.Shape[a]))
		}
	}
	// Per axis and output index: the two input indices and their weights
	// (nearest: one index, weight 1).
	type tap struct {
		i      [2]int
		w      [2]float64
		single bool
	}
	taps := make([][]tap, rank)
	for a := range rank {
		inLen, outLen := int(src.Shape[a]), int(dst.Shape[a])
		taps[a] = make([]tap, outLen)
		if inLen == 0 && outLen > 0 {
			return errorf("%w: Interpolate cannot resize axis %d of no elements to %d", ErrShape, a, outLen)
		}
		for x := range outLen {
			if !resized[a] {
				taps[a][x] = tap{i: [2]int{x, x}, w: [2]float64{1, 0}, single: true}
				continue
			}
			c := i.inCoord(float64(x), scale[a], inLen, outLen)
			if i.Mode == "nearest" {
				n := i.nearest(c, scale[a] < 1)
				n = max(0, min(n, inLen-1))
				taps[a][x] = tap{i: [2]int{n, n}, w: [2]float64{1, 0}, single: true}
				continue
			}
			c = max(0, min(c, float64(inLen-1)))
			i1 := max(0, min(int(c), inLen-1))
			i2 := min(int(c)+1, inLen-1)
			d1, d2 := math.Abs(c-float64(i1)), math.Abs(c-float64(i2))
			if i1 == i2 {
				d1, d2 = 0.5, 0.5
			}
			taps[a][x] = tap{i: [2]int{i1, i2}, w: [2]float64{d2, d1}}
		}
	}
	strides := rowMajor(src.Shape)
	coord := make([]int, rank)
	for o := range dst.Len() {
		unflatten(o, dst.Shape, coord)
		var sum float64
		// Every corner: bit a of k picks the second neighbour on axis a.
		for k := 0; k < 1<<rank; k++ {
			w, at := 1.0, 0
			for a := range rank {
				t := taps[a][coord[a]]
				j := k >> a & 1
				if t.single && j == 1 {
					w = 0
					break
				}
				w *= t.w[j]
				at += t.i[j] * strides[a]
			}
			if w != 0 {
				sum += w * src.Float64At(at)
			}
		}
		dst.SetFloat64(o, sum)
	}
	return nil
}

// evaluates reports whether evaluate computes this Interpolate: modes
// nearest and linear_onnx, without antialias or pads.
func (i *Interpolate) evaluates() bool {
	if i.Mode != "nearest" && i.Mode != "linear_onnx" || i.Antialias {
		return false
	}
	for _, p := range append(slices.Clone(i.PadsBegin), i.PadsEnd...) {
		if p != 0 {
			return false
		}
	}
	return true
}

// inCoord maps output coordinate x of an axis to the input, as
// coordinate_transformation_mode says.
func (i *Interpolate) inCoord(x, scale float64, inLen, outLen int) float64 {
	switch i.CoordinateTransform {
	case "pytorch_half_pixel":
		if outLen > 1 {
			return (x+0.5)/scale - 0.5
		}
		return 0
	case "asymmetric":
		return x / scale
	case "tf_half_pixel_for_nn":
		return (x + 0.5) / scale
	case "align_corners":
		if outLen == 1 {
			return 0
		}
		return x * float64(inLen-1) / float64(outLen-1)
	default: // half_pixel
		return (x+0.5)/scale - 0.5
	}
}

// nearest rounds an input coordinate as nearest_mode says.
func (i *Interpolate) nearest(c float64, downsample bool) int {
	switch i.NearestMode {
	case "round_prefer_ceil":
		return int(math.Round(c))
	case "floor":
		return int(math.Floor(c))
	case "ceil":
		return int(math.Ceil(c))
	case "simple":
		if downsample {
			return int(math.Ceil(c))
		}
		return int(c)
	default: // round_prefer_floor
		if c == math.Floor(c)+0.5 {
			return int(math.Floor(c))
		}
		return int(math.Round(c))
	}
}
