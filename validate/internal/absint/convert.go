package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of Convert: integers into another integer type (two's
// complement wrap) or boolean; floats into integers within what their
// range allows; integers into floats as their range.

func convertRule(a *Analysis, c *call) []*Value {
	return one(a.convert(c.l, c.ins[0], c.op.(*ops.Convert).DestinationType))
}

func convertF(a *Analysis, c *call) *FloatRange {
	if x := c.ins[0]; x.Int {
		return a.fromInt(x)
	}
	return c.ins[0].F
}

// convert follows integers into another integer type (two's complement
// wrap, as OpenVINO's Convert and ONNX's Cast do) or boolean; a float
// converted to an integer is a value this analysis does not follow.
func (a *Analysis) convert(l *ir.Layer, x *Value, to ir.ElementType) *Value {
	v := &Value{Type: to, Rank: x.Rank, Dims: x.Dims, Static: x.Static}
	if !isInt(to) {
		return v
	}
	if !x.Int {
		v.Int = true
		// At the declared input shapes the float may range narrower (a
		// dim of a fixed shape, scaled), and the integers with it.
		r, declared := convertedRange(x.F, to), convertedRange(x.DeclaredF(), to)
		declared = intersect(declared, r)
		what := "a float converted to " + to.String()
		switch {
		case declared != r:
			what = "a float in " + r.String() + " (" + declared.String() + " at the declared input shapes) converted to " + to.String()
		case r != typeRange(to):
			what = "a float in " + r.String() + " converted to " + to.String()
		}
		v.all = a.freshIn(l, declared, r, what)
		if n, ok := v.NumElems(); ok && n <= MaxElems {
			v.Elems = make([]sym.Expr, n)
			for i := range v.Elems {
				v.Elems[i] = a.freshIn(l, declared, r, what)
			}
		}
		return v
	}
	f := func(e sym.Expr) sym.Expr {
		switch {
		case to == ir.Boolean:
			return a.B.Min(a.B.Abs(e), sym.Const(1))
		case to == x.Type:
			return e
		}
		// A narrowing conversion wraps, shape arithmetic included.
		return a.B.Wrap(e, typeRange(to))
	}
	return a.unary(x, to, f)
}

// convertedRange is the range of floats of f converted to the integer
// type t.
func convertedRange(f *FloatRange, t ir.ElementType) sym.Range {
	r, defined := toInt(f, t)
	if !defined || t == ir.Boolean {
		// A NaN or a float beyond the type converts to what the runtime
		// does (x86 gives MIN, ARM saturates; ONNX leaves it undefined),
		// and any float but 0 is true, 0.5 too: no range narrower than
		// the type's holds.
		return typeRange(t)
	}
	return r
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

// fromInt is the range of integers converted to a float type: at the
// declared input shapes while declaredFloats asks.
func (a *Analysis) fromInt(x *Value) *FloatRange {
	if !x.Int {
		return nil
	}
	r := a.decide.Range(a.All(x))
	if a.atDeclared {
		r = a.boundsOf(a.All(x)).declared
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	if r.Lo.IsFinite() {
		lo = float64(r.Lo.V)
	}
	if r.Hi.IsFinite() {
		hi = float64(r.Hi.V)
	}
	return &FloatRange{Lo: lo, Hi: hi}
}
