package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
)

// Float tensors are followed by the range of their elements, where an
// integer path goes through floats (a Cast to float, a scale, a Floor,
// a Cast back): what the integers can be after it.

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

// narrowerF is what d (a range at the declared shapes) and f (at any
// shape, which the declared shapes are some of) share, where that is
// narrower than f; else nil.
func narrowerF(d, f *FloatRange) *FloatRange {
	if d == nil {
		return nil
	}
	if f == nil {
		return d
	}
	out := &FloatRange{Lo: math.Max(d.Lo, f.Lo), Hi: math.Min(d.Hi, f.Hi), NaN: d.NaN && f.NaN}
	if out.Lo > out.Hi || *out == *f {
		return nil
	}
	return out
}

// roundOut widens a range computed in float64 to what an output of type
// t holds: its elements are rounded to t (float32(exp(-128)) is 0, and
// float16 overflows to infinity past 65504), so each end moves outward to
// a value of t.
func roundOut(f *FloatRange, t ir.ElementType) *FloatRange {
	if f == nil || t == ir.F64 {
		return f
	}
	lo, hi := f.Lo, f.Hi
	switch t {
	case ir.F32:
		lo, hi = down32(lo), up32(hi)
	default:
		// float16 and bfloat16: 8 bits of mantissa or more, and float16's
		// narrow exponent: a margin of 2^-7, anything below 2^-14 may
		// flush to 0, anything beyond 65504 may be infinite.
		lo, hi = lo-math.Abs(lo)/128, hi+math.Abs(hi)/128
		if lo > 0 && lo < 1.0/(1<<14) {
			lo = 0
		}
		if hi < 0 && hi > -1.0/(1<<14) {
			hi = 0
		}
		if t == ir.F16 && hi > 65504 {
			hi = math.Inf(1)
		}
		if t == ir.F16 && lo < -65504 {
			lo = math.Inf(-1)
		}
	}
	return &FloatRange{Lo: lo, Hi: hi, NaN: f.NaN}
}

// down32 is the largest float32 at most v; up32 the smallest at least v.
func down32(v float64) float64 {
	r := float64(float32(v))
	if r > v {
		r = float64(math.Nextafter32(float32(r), float32(math.Inf(-1))))
	}
	return r
}

func up32(v float64) float64 {
	r := float64(float32(v))
	if r < v {
		r = float64(math.Nextafter32(float32(r), float32(math.Inf(1))))
	}
	return r
}
