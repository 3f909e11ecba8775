package ops

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers Interpolate and does not evaluate it (Evaluate gives
// ErrUnsupportedOp).

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
