package absint

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of Concat, Split and VariadicSplit.

func variadicSplit(a *Analysis, c *call) []*Value {
	lengths, ok := constInts(c.ins[2])
	if !ok {
		return nil
	}
	return a.split(c.ins, int64(len(lengths)), lengths, c.infos)
}

func (a *Analysis) concat(ins []*Value, axis int64, t ir.ElementType) *Value {
	if len(ins) == 0 || ins[0].Rank < 0 {
		return nil
	}
	r := ins[0].Rank
	ax, ok := NormAxis(axis, r)
	if !ok {
		return nil
	}
	dims := slices.Clone(ins[0].Dims)
	sum := sym.Const(0)
	var parts []sym.Expr
	var copied []*Value
	allInt := true
	for _, v := range ins {
		if v.Rank != r {
			return nil
		}
		sum = a.B.Add(sum, v.Dims[ax])
		allInt = allInt && v.Int
		if v.Int && !slices.Contains(copied, v) {
			// One copy per input, even one concatenated with itself: an
			// element of x ++ x is an element of x, and a copy for each
			// would double the expression at every level of a chain of
			// such Concats.
			copied = append(copied, v)
			parts = append(parts, a.B.Copy(a.All(v)))
		}
	}
	dims[ax] = sum
	v := &Value{Type: t, Rank: r, Dims: dims, Shape: shapeOperands(ins...)}
	var declaredF *FloatRange
	for i, in := range ins {
		if i == 0 {
			v.F, declaredF = in.F, in.DeclaredF()
		} else {
			v.F, declaredF = unionF(v.F, in.F), unionF(declaredF, in.DeclaredF())
		}
	}
	v.FD = narrowerF(declaredF, v.F)
	if allInt && isInt(t) {
		v.Int, v.all = true, a.B.Select(parts...)
	}
	return v
}

func (a *Analysis) split(ins []*Value, n int64, lengths []int64, infos []ops.ValueInfo) []*Value {
	x := ins[0]
	axes, ok := constInts(ins[1])
	if !ok || len(axes) != 1 || x.Rank < 0 || n <= 0 {
		return nil
	}
	ax, ok := NormAxis(axes[0], x.Rank)
	if !ok {
		return nil
	}
	d := x.Dims[ax]
	parts := make([]sym.Expr, n)
	if lengths == nil {
		for i := range parts {
			parts[i] = a.B.FloorDivK(d, n)
		}
	} else {
		rest, inferred := d, -1
		for i, k := range lengths {
			if k == -1 {
				inferred = i
				continue
			}
			parts[i] = sym.Const(k)
			rest = a.B.Sub(rest, sym.Const(k))
		}
		if inferred >= 0 {
			parts[inferred] = rest
		}
	}
	out := make([]*Value, len(infos))
	for i := range out {
		t := infos[i].Type
		if int64(i) >= n {
			return nil
		}
		dims := slices.Clone(x.Dims)
		dims[ax] = parts[i]
		out[i] = a.moved(x, t, dims)
	}
	return out
}
