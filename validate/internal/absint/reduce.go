package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of the reductions.

// reduction is the rule of a Reduce op: each output element combines its
// group of input elements (sums, products, minimums, maximums exactly).
func reduction() rule {
	return rule{inputs: 2, values: func(a *Analysis, c *call) []*Value {
		return one(a.reduce(c.l, c.ins, c.op.(*ops.Reduce), c.t()))
	}}
}

func (a *Analysis) reduce(l *ir.Layer, ins []*Value, o *ops.Reduce, t ir.ElementType) *Value {
	x := ins[0]
	axes, ok := constInts(ins[1])
	if !ok || x.Rank < 0 {
		return nil
	}
	red := make([]bool, x.Rank)
	for _, ax := range axes {
		i, ok := NormAxis(ax, x.Rank)
		if !ok {
			return nil
		}
		red[i] = true
	}
	var dims []sym.Expr
	for i, d := range x.Dims {
		switch {
		case !red[i]:
			dims = append(dims, d)
		case o.KeepDims:
			dims = append(dims, sym.Const(1))
		}
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	v := &Value{Type: t, Rank: len(dims), Dims: dims, Shape: x.Shape}
	if o.Kind == ops.ReduceMax || o.Kind == ops.ReduceMin {
		v.F, v.FD = x.F, x.FD
	}
	a.shape = x.Shape
	defer func() { a.shape = false }()
	xDims, constDims := x.ConstDims()
	if constDims {
		v.Static = []int64{}
		for i, d := range xDims {
			switch {
			case !red[i]:
				v.Static = append(v.Static, d)
			case o.KeepDims:
				v.Static = append(v.Static, 1)
			}
		}
	}
	if !x.Int || !isInt(t) {
		return v
	}
	v.Int = true
	n, known := v.NumElems()
	if !constDims || x.Elems == nil || !known || n > MaxElems {
		v.all = a.fresh(l, typeRange(t), "a reduction")
		return v
	}
	groups := make([][]sym.Expr, n)
	coord := make([]int64, len(xDims))
	for flat := range x.Elems {
		rem := flat
		for i := len(xDims) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % xDims[i]
			rem /= int(xDims[i])
		}
		out := 0
		for i, c := range coord {
			if !red[i] {
				out = out*int(xDims[i]) + int(c)
			}
		}
		groups[out] = append(groups[out], x.Elems[flat])
	}
	v.Elems = make([]sym.Expr, n)
	for i, g := range groups {
		v.Elems[i] = a.combine(l, o.Kind, g, t)
	}
	return v
}

func (a *Analysis) combine(l *ir.Layer, k ops.ReduceKind, g []sym.Expr, t ir.ElementType) sym.Expr {
	switch k {
	case ops.ReduceSum, ops.ReduceMean:
		s := sym.Const(0)
		for _, e := range g {
			s = a.B.Add(s, e)
		}
		if k == ops.ReduceMean {
			if len(g) == 0 {
				return a.fresh(l, typeRange(t), "an empty mean")
			}
			// The sum wraps in the type before it is divided, as ops
			// computes it.
			s = a.B.Div(a.wrap(s, t), sym.Const(int64(len(g))), false)
		}
		return a.wrap(s, t)
	case ops.ReduceProd:
		p := sym.Const(1)
		for _, e := range g {
			p = a.B.Mul(p, e)
		}
		return a.wrap(p, t)
	case ops.ReduceMin:
		if len(g) == 0 {
			return sym.Const(typeRange(t).Hi.V)
		}
		return a.B.Min(g...)
	case ops.ReduceMax:
		if len(g) == 0 {
			return sym.Const(typeRange(t).Lo.V)
		}
		return a.B.Max(g...)
	}
	return a.fresh(l, typeRange(t), "a reduction")
}
