package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of Reshape, Squeeze, Unsqueeze and Transpose: their shape
// rules on symbolic dims; the elements keep their order or move.

func (a *Analysis) reshape(ins []*Value, specialZero bool, t ir.ElementType) *Value {
	x, p := ins[0], ins[1]
	if !p.Int || p.Elems == nil {
		return a.kept(x, t, nil)
	}
	dims := make([]sym.Expr, len(p.Elems))
	inferred := -1
	for i, e := range p.Elems {
		c, isConst := e.IsConst()
		switch {
		case isConst && c == 0 && specialZero:
			if x.Rank <= i {
				return a.kept(x, t, nil)
			}
			dims[i] = x.Dims[i]
		case isConst && c == -1:
			inferred = i
		default:
			dims[i] = e
		}
	}
	if inferred >= 0 {
		if x.Rank < 0 {
			return a.kept(x, t, nil)
		}
		total, rest := sym.Const(1), sym.Const(1)
		for _, d := range x.Dims {
			total = a.B.Mul(total, d)
		}
		for i, d := range dims {
			if i != inferred {
				rest = a.B.Mul(rest, d)
			}
		}
		dims[inferred] = a.B.Div(total, rest, true)
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) squeeze(ins []*Value, info ops.ValueInfo, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || info.Shape.DynamicRank {
		return a.kept(x, t, nil)
	}
	drop := make([]bool, x.Rank)
	if len(ins) > 1 {
		axes, ok := constInts(ins[1])
		if !ok {
			return a.kept(x, t, nil)
		}
		for _, ax := range axes {
			if i, ok := NormAxis(ax, x.Rank); ok {
				drop[i] = true
			}
		}
	} else {
		for i, d := range x.Dims {
			drop[i] = isOne(d)
		}
	}
	var dims []sym.Expr
	for i, d := range x.Dims {
		if !drop[i] {
			dims = append(dims, d)
		}
	}
	if len(dims) != len(info.Shape.Dims) {
		// An axis whose dim is not 1 stays (OpenVINO keeps it): follow the
		// inference at the declared shapes.
		return a.kept(x, t, nil)
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) unsqueeze(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 2 || x.Rank < 0 {
		return a.kept(x, t, nil)
	}
	axes, ok := constInts(ins[1])
	if !ok {
		return a.kept(x, t, nil)
	}
	r := x.Rank + len(axes)
	ones := make([]bool, r)
	for _, ax := range axes {
		i, ok := NormAxis(ax, r)
		if !ok {
			return a.kept(x, t, nil)
		}
		ones[i] = true
	}
	dims := make([]sym.Expr, 0, r)
	j := 0
	for i := range r {
		if ones[i] {
			dims = append(dims, sym.Const(1))
		} else if j < len(x.Dims) {
			dims = append(dims, x.Dims[j])
			j++
		}
	}
	return a.kept(x, t, dims)
}

func (a *Analysis) transpose(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 2 || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	order, ok := constInts(ins[1])
	if !ok {
		return a.moved(x, t, nil)
	}
	if len(order) == 0 {
		for i := x.Rank - 1; i >= 0; i-- {
			order = append(order, int64(i))
		}
	}
	if len(order) != x.Rank {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	for i, o := range order {
		j, ok := NormAxis(o, x.Rank)
		if !ok {
			return nil
		}
		dims[i] = x.Dims[j]
	}
	return a.moved(x, t, dims)
}
