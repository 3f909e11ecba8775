package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// What the rules of ops that move elements share: a value whose elements
// are kept in order, or moved elsewhere as copies.

// moved is a value whose elements are elements of x elsewhere.
func (a *Analysis) moved(x *Value, t ir.ElementType, dims []sym.Expr) *Value {
	v := &Value{Type: t, Rank: -1, Shape: x.Shape, F: x.F, FD: x.FD}
	if dims != nil {
		v.Rank, v.Dims = len(dims), dims
	}
	if x.Int && isInt(t) {
		v.Int, v.all, v.Uniform = true, a.copyOf(x), x.Uniform
	}
	return v
}

// copyOf is an expression for the elements of x moved elsewhere,
// independent of x's: Copy renames its element symbols. Where it holds
// none (x's elements are dims: select(H, W)) and x has several elements,
// two elements taken from it would be one atom and cancel, H - W = 0; a
// fresh element symbol in their range keeps them apart.
func (a *Analysis) copyOf(x *Value) sym.Expr {
	all := a.All(x)
	if x.Uniform {
		return all // each element is all itself
	}
	c := a.B.Copy(all)
	if _, ok := all.IsConst(); ok || !c.Equal(all) {
		return c
	}
	if x.atMostOneElem() {
		return c
	}
	s := a.newSym("an element moved", true, sym.NewProver(a.B, &a.Declared).Range(all), a.decide.Range(all), Origin{Kind: Derived, Index: -1})
	return a.B.Var(s)
}

// atMostOneElem tells whether x has at most one element at every input
// shape: dims that are constants, not its dims at the declared shapes
// (y - 4 of y: i64[L] has one element at L = 1, and Gather(v, -1) -
// Gather(v, 0) was 0 at every L; seed 17039).
func (x *Value) atMostOneElem() bool {
	if x.Rank < 0 {
		return false
	}
	for _, d := range x.Dims {
		if c, ok := d.IsConst(); !ok || c > 1 {
			return false
		}
	}
	return true
}

// kept is a value with x's elements in the same order (Reshape, Squeeze,
// Unsqueeze) and new dims.
func (a *Analysis) kept(x *Value, t ir.ElementType, dims []sym.Expr) *Value {
	v := &Value{Type: t, Rank: -1, Shape: x.Shape, F: x.F, FD: x.FD}
	if dims != nil {
		v.Rank, v.Dims = len(dims), dims
	}
	if !x.Int || !isInt(t) {
		return v
	}
	// In a model that runs, the output holds as many elements as the
	// input, in the same order.
	v.Int, v.Elems, v.all, v.Uniform = true, x.Elems, x.all, x.Uniform
	return v
}
