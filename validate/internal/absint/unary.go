package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of unary element-wise ops, and of the float ops whose output
// has their input's shape.

// elementwise is the rule of a unary element-wise op computing f of each
// element, and fl of a float range (nil: unknown).
func elementwise(f func(a *Analysis, t ir.ElementType, x sym.Expr) sym.Expr, fl func(x *FloatRange) *FloatRange) rule {
	r := rule{inputs: 1, values: func(a *Analysis, c *call) []*Value {
		t := c.t()
		return one(a.unary(c.ins[0], t, func(x sym.Expr) sym.Expr { return f(a, t, x) }))
	}}
	if fl != nil {
		r.floats = func(_ *Analysis, c *call) *FloatRange { return fl(floatIn(c, 0)) }
	}
	return r
}

// floatOnly is the rule of an op of floats whose output has its first
// input's shape: only its dims are followed, and its range by fl.
func floatOnly(fl func(x *FloatRange) *FloatRange) rule {
	r := rule{inputs: 1, values: func(_ *Analysis, c *call) []*Value {
		return []*Value{{Type: c.t(), Rank: c.ins[0].Rank, Dims: c.ins[0].Dims}}
	}}
	if fl != nil {
		r.floats = func(_ *Analysis, c *call) *FloatRange { return fl(floatIn(c, 0)) }
	}
	return r
}

// identity is Floor, Ceiling and Round of integers.
func identity(_ *Analysis, _ ir.ElementType, x sym.Expr) sym.Expr { return x }

func sign(a *Analysis, _ ir.ElementType, x sym.Expr) sym.Expr {
	return a.B.Min(a.B.Max(x, sym.Const(-1)), sym.Const(1))
}

func clampRule(a *Analysis, c *call) []*Value {
	return one(a.clamp(c.ins[0], c.op.(*ops.Clamp), c.t()))
}

func clampF(_ *Analysis, c *call) *FloatRange {
	o, x := c.op.(*ops.Clamp), floatIn(c, 0)
	return &FloatRange{Lo: math.Min(math.Max(x.Lo, o.Min), o.Max), Hi: math.Min(math.Max(x.Hi, o.Min), o.Max), NaN: x.NaN}
}

func floorF(x *FloatRange) *FloatRange { return monotone(x, math.Floor) }
func ceilF(x *FloatRange) *FloatRange  { return monotone(x, math.Ceil) }
func roundF(x *FloatRange) *FloatRange { return monotone(x, math.RoundToEven) }
func expF(x *FloatRange) *FloatRange   { return monotone(x, math.Exp) }

func reluF(x *FloatRange) *FloatRange {
	return monotone(x, func(v float64) float64 { return math.Max(v, 0) })
}

func sigmoidF(x *FloatRange) *FloatRange { return &FloatRange{Lo: 0, Hi: 1, NaN: x.NaN} }
func tanhF(x *FloatRange) *FloatRange    { return &FloatRange{Lo: -1, Hi: 1, NaN: x.NaN} }

func sqrtF(x *FloatRange) *FloatRange {
	if x.Lo < 0 {
		return anyFloat
	}
	return monotone(x, math.Sqrt)
}

func negF(x *FloatRange) *FloatRange { return &FloatRange{Lo: -x.Hi, Hi: -x.Lo, NaN: x.NaN} }

func absF(x *FloatRange) *FloatRange {
	lo := 0.0
	if x.Lo > 0 || x.Hi < 0 {
		lo = math.Min(math.Abs(x.Lo), math.Abs(x.Hi))
	}
	return &FloatRange{Lo: lo, Hi: math.Max(math.Abs(x.Lo), math.Abs(x.Hi)), NaN: x.NaN}
}

func (a *Analysis) unary(x *Value, t ir.ElementType, f func(sym.Expr) sym.Expr) *Value {
	a.shape = x.Shape && isInt(t)
	defer func() { a.shape = false }()
	v := &Value{Type: t, Rank: x.Rank, Dims: x.Dims, Static: x.Static, Shape: a.shape}
	if !isInt(t) || !x.Int {
		return v
	}
	v.Int = true
	if x.Elems != nil {
		v.Elems = make([]sym.Expr, len(x.Elems))
		for i, e := range x.Elems {
			v.Elems[i] = f(e)
		}
		return v
	}
	v.all = f(x.all)
	return v
}

// clamp bounds integers by ceil(min) and floor(max), saturated to the
// type, as OpenVINO's Clamp does.
func (a *Analysis) clamp(x *Value, c *ops.Clamp, t ir.ElementType) *Value {
	r := typeRange(t)
	lo := satFloat(math.Ceil(c.Min), r)
	hi := satFloat(math.Floor(c.Max), r)
	return a.unary(x, t, func(e sym.Expr) sym.Expr { return a.B.Min(a.B.Max(e, sym.Const(lo)), sym.Const(hi)) })
}

func satFloat(f float64, r sym.Range) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f <= float64(r.Lo.V):
		return r.Lo.V
	case f >= float64(r.Hi.V):
		return r.Hi.V
	}
	return int64(f)
}

// monotone maps a range through a non-decreasing function.
func monotone(x *FloatRange, f func(float64) float64) *FloatRange {
	return &FloatRange{Lo: f(x.Lo), Hi: f(x.Hi), NaN: x.NaN}
}
