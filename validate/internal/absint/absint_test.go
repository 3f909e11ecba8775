package absint

import (
	"fmt"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// TestCopyRangesAsItsSymbol: a copy of an element symbol ranges as the
// symbol it copies, also when a symbol made after the copy was given a
// range of its own (the slot of the copy below it must not read [0, 0]).
func TestCopyRangesAsItsSymbol(t *testing.T) {
	a := &Analysis{B: sym.NewBuilder()}
	a.Declared.b, a.Any.b = a.B, a.B
	x := a.newSym("y[*]", true, sym.R(-5, 5), sym.R(-5, 5), Origin{Kind: InputElem, Index: -1})
	for _, tc := range []struct {
		name  string
		later bool // a symbol is made after the copy
	}{
		{"copy made last", false},
		{"a symbol made after the copy", true},
	} {
		c := a.B.Syms(a.B.Copy(a.B.Var(x)))[0]
		if c == x {
			t.Fatalf("%s: Copy made no symbol", tc.name)
		}
		if tc.later {
			a.newSym("H", false, sym.R(0, 9), sym.R(0, 9), Origin{Kind: InputDim})
		}
		for _, r := range []*Ranges{&a.Declared, &a.Any} {
			if got := r.Range(c); got != sym.R(-5, 5) {
				t.Errorf("%s: the copy ranges %s, want [-5, 5] as the symbol it copies", tc.name, got)
			}
		}
	}
}

// TestSummariesAreDistinct: the summaries of two different tensors of
// many elements, or of two large constants of one range, are not one
// value (they were one Unknown atom of the same text, so x - y was 0).
func TestSummariesAreDistinct(t *testing.T) {
	a := &Analysis{B: sym.NewBuilder()}
	a.Declared.b, a.Any.b = a.B, a.B
	tracked := func() *Value {
		v := &Value{Type: ir.I64, Rank: 1, Int: true}
		for i := range maxSelect + 6 {
			v.Elems = append(v.Elems, a.B.Var(a.newSym(fmt.Sprintf("e%d", i), false, sym.R(-9, 9), sym.R(-9, 9), Origin{Kind: Derived})))
		}
		return v
	}
	large := func() *Value {
		c, err := ir.NewTensor(ir.I64, []int64{MaxElems + 1})
		if err != nil {
			t.Fatal(err)
		}
		c.SetInt64(0, 5)
		return a.constant(c)
	}
	for name, pair := range map[string][2]*Value{"tracked": {tracked(), tracked()}, "constants": {large(), large()}} {
		x, y := pair[0], pair[1]
		if d := a.B.Sub(a.All(x), a.All(y)); sym.NewProver(a.B, &a.Declared).Range(d) == sym.R(0, 0) {
			t.Errorf("%s: two tensors' summaries subtract to 0: %s", name, a.B.String(d))
		}
		if d := a.B.Sub(a.All(x), a.All(x)); sym.NewProver(a.B, &a.Declared).Range(d) != sym.R(0, 0) {
			t.Errorf("%s: a tensor's summary is not itself: %s", name, a.B.String(d))
		}
	}
}

// TestUnreadWeightsKeepTheirShape: a Const whose values were not read (a
// model's weights, beyond validate's read limit) has the shape it
// declares at every input shape, not dims that vary with the inputs. Its
// dims were free symbols at other shapes, so a computed Reshape pattern
// built from them could be 0 there, and the Reshape rule took the
// output's dim to be that dim or the input dim a 0 copies: the channels
// of swin_t's converted IR, 384 at the declared shapes, became [1,
// 1.6e11] and six of its Divides got cpu/i64-narrowed notes its ONNX
// model does not.
func TestUnreadWeightsKeepTheirShape(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	x := b.param(ir.F32, "1..8,3,4")
	w, err := ir.NewTensor(ir.F32, []int64{4, 6})
	if err != nil {
		t.Fatal(err)
	}
	weights := b.m.AddConst("weights", w)
	// Unread, as ir.ReadOptions.MaxConstBytes leaves it.
	weights.Constant = nil
	y := b.one("MatMul", nil, x, ir.Output{Layer: weights}) // [B, 3, 6]
	dim := func(axis int64) ir.Output {
		return b.one("Unsqueeze", nil, b.one("Gather/opset8", nil, b.one("ShapeOf/opset3", nil, y), b.scalar(axis), b.scalar(0)), b.scalar(0))
	}
	// [B, 6, 3]: the 6 is read from y's shape, and a 0 there would copy
	// y's dim 1, which is 3.
	pattern := b.one("Concat", []string{"axis", "0"}, dim(0), dim(2), dim(1))
	z := b.one("Reshape", []string{"special_zero", "true"}, y, pattern)
	b.m.AddResult("z", z)
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatalf("the model does not infer: %v", err)
	}
	a := Analyze(b.m, inf, Options{})
	v := a.Values[z]
	if v == nil || v.Rank != 3 {
		t.Fatalf("z has no dims: %+v", v)
	}
	for _, anyShape := range []bool{false, true} {
		if got := a.Prover(anyShape).Range(v.Dims[1]); got != sym.R(6, 6) {
			t.Errorf("z's dim 1 (any shape: %v) ranges %s, want 6 (%s)", anyShape, got, a.B.String(v.Dims[1]))
		}
	}
}
