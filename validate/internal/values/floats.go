package values

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// Floats are followed as ranges, enough for the float arithmetic shape
// computations go through (an image size scaled, rounded up and cast
// back to an integer): a conversion from integers takes their range for
// any input shape, the element-wise ops take interval arithmetic, and a
// conversion to an integer keeps the range where no element can be NaN
// or out of the type.

var anyFloat = &FloatRange{Lo: math.Inf(-1), Hi: math.Inf(1), NaN: true}

func orAny(f *FloatRange) *FloatRange {
	if f == nil {
		return anyFloat
	}
	return f
}

func unionF(a, b *FloatRange) *FloatRange {
	if a == nil || b == nil {
		return nil
	}
	return &FloatRange{Lo: math.Min(a.Lo, b.Lo), Hi: math.Max(a.Hi, b.Hi), NaN: a.NaN || b.NaN}
}

// fromInt is the range of integers converted to a float type.
func (a *Analysis) fromInt(x *Value) *FloatRange {
	if !x.Int {
		return nil
	}
	r := a.decide.Range(a.All(x))
	lo, hi := math.Inf(-1), math.Inf(1)
	if r.Lo.IsFinite() {
		lo = float64(r.Lo.V)
	}
	if r.Hi.IsFinite() {
		hi = float64(r.Hi.V)
	}
	return &FloatRange{Lo: lo, Hi: hi}
}

// span is the range of f over the corners of two ranges, NaN where f gives
// one (inf - inf, 0 * inf, 0 / 0).
func span(x, y *FloatRange, f func(a, b float64) float64) *FloatRange {
	out := &FloatRange{Lo: math.Inf(1), Hi: math.Inf(-1), NaN: x.NaN || y.NaN}
	for _, p := range []float64{x.Lo, x.Hi} {
		for _, q := range []float64{y.Lo, y.Hi} {
			v := f(p, q)
			if math.IsNaN(v) {
				out.NaN = true
				continue
			}
			out.Lo, out.Hi = math.Min(out.Lo, v), math.Max(out.Hi, v)
		}
	}
	if out.Lo > out.Hi {
		out.Lo, out.Hi = math.Inf(-1), math.Inf(1)
	}
	return out
}

// monotone maps a range through a non-decreasing function.
func monotone(x *FloatRange, f func(float64) float64) *FloatRange {
	return &FloatRange{Lo: f(x.Lo), Hi: f(x.Hi), NaN: x.NaN}
}

// floatRule bounds a float op's output from its inputs' ranges; nil when
// the op is not one of those followed.
func (a *Analysis) floatRule(op ops.Op, ins []*Value) *FloatRange {
	in := func(i int) *FloatRange {
		if i < len(ins) {
			return orAny(ins[i].F)
		}
		return anyFloat
	}
	switch o := op.(type) {
	case *ops.Convert:
		if ins[0].Int {
			return a.fromInt(ins[0])
		}
		return ins[0].F
	case *ops.Add:
		return span(in(0), in(1), func(p, q float64) float64 { return p + q })
	case *ops.Subtract:
		return span(in(0), in(1), func(p, q float64) float64 { return p - q })
	case *ops.Multiply:
		return span(in(0), in(1), func(p, q float64) float64 { return p * q })
	case *ops.Divide:
		return divideF(in(0), in(1))
	case *ops.Maximum:
		return span(in(0), in(1), math.Max)
	case *ops.Minimum:
		return span(in(0), in(1), math.Min)
	case *ops.Floor:
		return monotone(in(0), math.Floor)
	case *ops.Ceiling:
		return monotone(in(0), math.Ceil)
	case *ops.Round:
		return monotone(in(0), math.RoundToEven)
	case *ops.Relu:
		return monotone(in(0), func(v float64) float64 { return math.Max(v, 0) })
	case *ops.Clamp:
		x := in(0)
		return &FloatRange{Lo: math.Min(math.Max(x.Lo, o.Min), o.Max), Hi: math.Min(math.Max(x.Hi, o.Min), o.Max), NaN: x.NaN}
	case *ops.Sigmoid:
		return &FloatRange{Lo: 0, Hi: 1, NaN: in(0).NaN}
	case *ops.Tanh:
		return &FloatRange{Lo: -1, Hi: 1, NaN: in(0).NaN}
	case *ops.Exp:
		return monotone(in(0), math.Exp)
	case *ops.Power:
		x, y := in(0), in(1)
		if y.Lo == -1 && y.Hi == -1 && !y.NaN && x.Lo > 0 {
			return &FloatRange{Lo: 1 / x.Hi, Hi: 1 / x.Lo, NaN: x.NaN}
		}
	case *ops.Sqrt:
		x := in(0)
		if x.Lo < 0 {
			return anyFloat
		}
		return monotone(x, math.Sqrt)
	case *ops.Negative:
		x := in(0)
		return &FloatRange{Lo: -x.Hi, Hi: -x.Lo, NaN: x.NaN}
	case *ops.Abs:
		x := in(0)
		lo := 0.0
		if x.Lo > 0 || x.Hi < 0 {
			lo = math.Min(math.Abs(x.Lo), math.Abs(x.Hi))
		}
		return &FloatRange{Lo: lo, Hi: math.Max(math.Abs(x.Lo), math.Abs(x.Hi)), NaN: x.NaN}
	case *ops.Select:
		if len(ins) == 3 {
			return unionF(orAny(ins[1].F), orAny(ins[2].F))
		}
	}
	return nil
}

// toInt converts a float range to an integer type: the range truncated.
// defined is false where an element can be NaN or beyond the type, whose
// conversion ONNX leaves undefined (and OpenVINO's reference too): the
// range then holds only where the conversion is defined.
func toInt(f *FloatRange, t ir.ElementType) (r sym.Range, defined bool) {
	tr := typeRange(t)
	if f == nil {
		return tr, false
	}
	defined = !f.NaN
	lo, hi := math.Trunc(f.Lo), math.Trunc(f.Hi)
	// float64 holds int64's ends only roughly: a margin of one ulp.
	loLimit, hiLimit := float64(tr.Lo.V), float64(tr.Hi.V)
	if t == ir.I64 || t == ir.U64 {
		loLimit, hiLimit = math.Nextafter(loLimit, 0), math.Nextafter(hiLimit, 0)
	}
	if lo < loLimit || math.IsNaN(lo) {
		lo, defined = float64(tr.Lo.V), false
	}
	if hi > hiLimit || math.IsNaN(hi) {
		hi, defined = float64(tr.Hi.V), false
	}
	if lo > hi {
		return tr, false
	}
	out := sym.R(int64(lo), int64(hi))
	if lo == float64(tr.Lo.V) {
		out.Lo = tr.Lo
	}
	if hi == float64(tr.Hi.V) {
		out.Hi = tr.Hi
	}
	return out, defined
}

// divideF bounds x / y. A divisor that reaches 0 from one side gives the
// infinity of that side (and NaN for 0 / 0); one through 0 gives anything.
func divideF(x, y *FloatRange) *FloatRange {
	switch {
	case y.Lo > 0 || y.Hi < 0:
		return span(x, y, func(p, q float64) float64 { return p / q })
	case y.Lo == 0 && y.Hi > 0, y.Hi == 0 && y.Lo < 0:
		tiny := math.SmallestNonzeroFloat64
		if y.Hi == 0 {
			tiny = -tiny
		}
		out := span(x, &FloatRange{Lo: math.Max(y.Lo, tiny), Hi: math.Max(y.Hi, tiny), NaN: y.NaN}, func(p, q float64) float64 { return p / q })
		if y.Hi == 0 {
			out = span(x, &FloatRange{Lo: math.Min(y.Lo, tiny), Hi: math.Min(y.Hi, tiny), NaN: y.NaN}, func(p, q float64) float64 { return p / q })
		}
		pos, neg := x.Hi > 0, x.Lo < 0
		if y.Hi == 0 {
			pos, neg = neg, pos
		}
		if pos {
			out.Hi = math.Inf(1)
		}
		if neg {
			out.Lo = math.Inf(-1)
		}
		out.NaN = out.NaN || x.Lo <= 0 && x.Hi >= 0
		return out
	}
	return anyFloat
}
