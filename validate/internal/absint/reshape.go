package absint

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of Reshape, Squeeze, Unsqueeze and Transpose: their shape
// rules on symbolic dims; the elements keep their order or move.

func (a *Analysis) reshape(l *ir.Layer, ins []*Value, specialZero bool, t ir.ElementType) *Value {
	x, p := ins[0], ins[1]
	if !p.Int || p.Elems == nil {
		return a.kept(x, t, nil)
	}
	// One dim at most is inferred (ONNX's Reshape and OpenVINO's refuse
	// two -1): where the pattern holds a constant -1, its other elements
	// are 0 or more.
	inferredElsewhere := func(i int) bool {
		return slices.ContainsFunc(p.Elems[:i], isMinusOne) || slices.ContainsFunc(p.Elems[i+1:], isMinusOne)
	}
	for i, e := range p.Elems {
		if inferredElsewhere(i) {
			a.require(l, p, e, sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, "infers one dim only, which a -1 elsewhere in its pattern asks, so takes no dim below 0 here", true)
			continue
		}
		a.require(l, p, e, sym.Range{Lo: sym.Finite(-1), Hi: sym.PosInf}, "takes no dim below -1", true)
	}
	// Each element of the pattern is a dim, asks for the dim to be
	// inferred (-1) or, with special_zero, copies the input's (0). An
	// element that is not a constant may be any of them at some input
	// shapes (y.shape[0] floormod -2 is -1 at y: [1] and 0 at y: [2],
	// seed 8512): its dim is then one of the readings it may have.
	n := len(p.Elems)
	// fixed are the dims element i may give where it is not the one
	// inferred; mayInfer marks the elements that may be -1.
	fixed := make([][]sym.Expr, n)
	mayInfer := make([]bool, n)
	least := int64(0) // the least element that is a dim
	if specialZero {
		least = 1
	}
	for i, e := range p.Elems {
		r := a.decide.Range(e)
		if c, ok := e.IsConst(); ok && c == -1 {
			mayInfer[i] = true
			continue
		}
		if r.Hi.AtLeast(least) {
			// Where e is not a dim, max(e, least) is one it never gives:
			// a wider set, still sound.
			d := e
			if !r.Lo.AtLeast(least) {
				d = a.B.Max(e, sym.Const(least))
			}
			fixed[i] = append(fixed[i], d)
		}
		if specialZero && r.Contains(0) {
			if x.Rank < 0 {
				return a.kept(x, t, nil)
			}
			// A 0 past the input's rank copies nothing: no input that
			// gives it runs, and that reading adds no dim.
			if i < x.Rank {
				fixed[i] = append(fixed[i], x.Dims[i])
			}
		}
		mayInfer[i] = r.Contains(-1)
	}
	dims := make([]sym.Expr, n)
	for i := range n {
		arms := fixed[i]
		if mayInfer[i] {
			if x.Rank < 0 {
				return a.kept(x, t, nil)
			}
			total, rest := sym.Const(1), sym.Const(1)
			for _, d := range x.Dims {
				total = a.B.Mul(total, d)
			}
			for j := range n {
				if j == i {
					continue
				}
				if len(fixed[j]) == 0 {
					// Another element that can only be -1: two dims to
					// infer, which no input runs; follow the inference.
					return a.kept(x, t, nil)
				}
				rest = a.B.Mul(rest, a.B.Select(fixed[j]...))
			}
			arms = append(arms, a.B.Div(total, rest, true))
		}
		if len(arms) == 0 {
			// An element that is never a valid one: no input runs.
			return a.kept(x, t, nil)
		}
		dims[i] = a.B.Select(arms...)
	}
	return a.kept(x, t, dims)
}

func isMinusOne(e sym.Expr) bool {
	c, ok := e.IsConst()
	return ok && c == -1
}

// reshapeRequires records what a Reshape needs of its pattern beyond
// dims of -1 or more (reshape): with special_zero, a 0 past the input's
// rank copies no dim, and both OpenVINO and ONNX Runtime refuse it; and
// the output holds as many elements as the input. The count is required
// where each element of the pattern reads as one dim whatever the input
// (one of 0 or more, which with special_zero copies the input's dim
// where it is 0), but one that may be -1, inferred: the others' product
// must then divide the input's count, required only where it is 1 or
// more (ONNX Runtime runs a product of 0 with an empty input). The walk
// calls it for every Reshape, folded, traced or not.
func (a *Analysis) reshapeRequires(l *ir.Layer, ins []*Value, specialZero bool) {
	if len(ins) < 2 || ins[0].Rank < 0 || !ins[1].Int || ins[1].Elems == nil {
		return
	}
	x, p := ins[0], ins[1]
	if specialZero {
		for i := x.Rank; i < len(p.Elems); i++ {
			a.requireNonZero(l, p, p.Elems[i], "copies with a 0 in its pattern a dim its input does not have, which is not 0")
		}
	}
	// dim is the dim element i gives where it is 0 or more; inferred
	// the element that may be -1, where it is.
	dim := func(i int) sym.Expr {
		if e := p.Elems[i]; specialZero && i < x.Rank {
			return a.B.Where(e, e, x.Dims[i])
		}
		return p.Elems[i]
	}
	inferred := -1
	rest := sym.Const(1)
	for i, e := range p.Elems {
		switch r := a.decide.Range(e); {
		case r.Lo.AtLeast(0):
			rest = a.B.Mul(rest, dim(i))
		case r.Lo.AtLeast(-1) && inferred < 0:
			inferred = i
		default:
			return
		}
	}
	in := sym.Const(1)
	for _, d := range x.Dims {
		in = a.B.Mul(in, d)
	}
	// Dims laid out as at the declared shapes are what the Reshape
	// checks there only (require, for the pattern).
	v := p
	if x.DeclaredDims {
		v = x
	}
	why := "makes as many elements as its input holds"
	if inferred < 0 {
		a.require(l, v, a.B.Sub(in, rest), sym.R(0, 0), why, true)
		return
	}
	if !a.decide.Range(rest).Lo.AtLeast(1) {
		return
	}
	// Where the element is -1, the remainder of the count by the other
	// dims; else the count less the output's.
	e := p.Elems[inferred]
	a.require(l, v, a.B.Where(a.B.Add(e, sym.Const(1)), a.B.Sub(in, a.B.Mul(rest, dim(inferred))), a.B.Mod(in, rest, true)), sym.R(0, 0),
		why+" (where a dim is -1, the others' product divides that count)", true)
}

// squeezeRequires records what ONNX requires of the dims a Squeeze of
// constant axes removes: each is 1 (OpenVINO keeps a dim that is not).
// The walk calls it for every Squeeze, traced or not.
func (a *Analysis) squeezeRequires(l *ir.Layer, ins []*Value) {
	if len(ins) < 2 || ins[0].Rank < 0 {
		return
	}
	axes, ok := constInts(ins[1])
	if !ok {
		return
	}
	for _, ax := range axes {
		if i, ok := NormAxis(ax, ins[0].Rank); ok {
			a.requireDim(l, ins[0], i, sym.R(1, 1), "squeezes this dim, which ONNX requires to be 1", true)
		}
	}
}

func (a *Analysis) squeeze(l *ir.Layer, ins []*Value, info ops.ValueInfo, t ir.ElementType) *Value {
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
