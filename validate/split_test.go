package validate

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
)

// TestAgreementPieceByPiece: a Divide whose operands depend on one dim
// through a form the ranges do not bound at once, (m - 1) * (m - 1) with
// m = min(d, 8) (m in [0, 8] makes the product range over [-7, 64] taken
// factor by factor), is proven where each piece of d's range, cut at the
// constants, proves it; m - 4 over 3 is not proven piece by piece, and
// the search finds m = 3.
func TestAgreementPieceByPiece(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("D")).
		i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("three", []int64{}, 3).i64("four", []int64{}, 4).i64("eight", []int64{}, 8).
		node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "d", onnxwire.IntAttr("axis", 0)).
		node("Min", []string{"d", "eight"}, "m").node("Sub", []string{"m", "one"}, "m1").
		node("Mul", []string{"m1", "m1"}, "square").node("Div", []string{"square", "three"}, "square_third").
		node("Sub", []string{"m", "four"}, "m4").node("Div", []string{"m4", "three"}, "m4_third").
		output("square_third", onnxwire.Int64).output("m4_third", onnxwire.Int64)
	r := Model(g.imported(t), "split.onnx", Options{})
	if f := verdictOf(t, r, "square_third"); f.Code != FloorTruncAgree || !strings.Contains(f.Message, "pieces of the range") {
		t.Errorf("square_third: %s %s, want %s piece by piece", f.Code, f.Message, FloorTruncAgree)
	}
	if f := verdictOf(t, r, "m4_third"); f.Code != FloorTrunc {
		t.Errorf("m4_third: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestRandomInputsFindWhatCandidatesMiss: floor(y * 0.25) / -2 / 2 of y:
// i64[1, 3] differs at the second Divide only where the first divides
// exactly, which no value of y's elements the candidates try as one fill
// gives through the float path (seed 2894 of the differential); the
// search's random inputs, element by element, find y = [9, 6, 5].
func TestRandomInputsFindWhatCandidatesMiss(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, fixed(1), fixed(3)).
		f32("quarter", 0.25).i64("minus2", []int64{1}, -2).i64("two", []int64{}, 2).
		node("Cast", []string{"y"}, "yf", onnxwire.IntAttr("to", int64(onnxwire.Float))).
		node("Mul", []string{"yf", "quarter"}, "scaled").node("Floor", []string{"scaled"}, "floored").
		node("Cast", []string{"floored"}, "q", onnxwire.IntAttr("to", int64(onnxwire.Int64))).
		node("Div", []string{"q", "minus2"}, "half").node("Div", []string{"half", "two"}, "quarter_of").
		output("quarter_of", onnxwire.Int64)
	r := Model(g.imported(t), "random.onnx", Options{})
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == "quarter_of" && verdicts[f.Code] != "" {
			if f.Code != FloorTrunc {
				t.Errorf("quarter_of: %s %s, want %s", f.Code, f.Message, FloorTrunc)
			}
			return
		}
	}
	t.Fatalf("no verdict for quarter_of: %v", r.Findings)
}

// TestAgreementWhereTheBranchRuns: c = clip(int32(L), -8, 8) of L =
// x.shape[0] may be negative (an int32 of L of 2^31 and more wraps), but
// the then branch of if L < c + 2, which divides c by 3, runs only at L
// of 0 to 9, where c is L or 8: agreement, piece by piece of L's range,
// the pieces where the branch does not run left out.
func TestAgreementWhereTheBranchRuns(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("L")).
		i64("zero", []int64{}, 0).i64("two", []int64{}, 2).i64("three", []int64{}, 3).i64("one", []int64{}, 1).
		i32("lo", []int64{}, -8).i32("hi", []int64{}, 8).
		node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Cast", []string{"n"}, "n32", onnxwire.IntAttr("to", int64(onnxwire.Int32))).
		node("Clip", []string{"n32", "lo", "hi"}, "c32").node("Cast", []string{"c32"}, "c", onnxwire.IntAttr("to", int64(onnxwire.Int64))).
		node("Add", []string{"c", "two"}, "c2").node("Less", []string{"n", "c2"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Div", "third", []string{"c", "three"}, []string{"third"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("third", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Add", "other", []string{"c", "one"}, []string{"other"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("other", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	r := Model(g.imported(t), "branch.onnx", Options{})
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == "third" && verdicts[f.Code] != "" {
			if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "runs on") {
				t.Errorf("third: %s %s, want %s where the branch runs", f.Code, f.Message, FloorTruncAgree)
			}
			return
		}
	}
	t.Fatalf("no verdict for third: %v", r.Findings)
}

// TestAgreementByInnerSum: d = S - K of two dims, where the else branch
// of if d < 1 runs, is at least 1: trunc(d / 3) / d there never has
// operands of opposite signs. No piece of S's and K's ranges shows it
// (each reaches below the other), and d, a sum, taken as a symbol of its
// own, does (seed 118 of the differential).
func TestAgreementByInnerSum(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, fixed(2), param("K"), param("S")).
		i64("one", []int64{}, 1).i64("three", []int64{}, 3).i64("ks", []int64{}, 1).i64("ss", []int64{}, 2).
		node("Shape", []string{"x"}, "s").
		node("Gather", []string{"s", "ks"}, "k", onnxwire.IntAttr("axis", 0)).node("Gather", []string{"s", "ss"}, "sd", onnxwire.IntAttr("axis", 0)).
		node("Sub", []string{"sd", "k"}, "d").node("Less", []string{"d", "one"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Add", "other", []string{"d", "one"}, []string{"other"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("other", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Div", "third", []string{"d", "three"}, []string{"third"}),
				onnxwire.Node("Div", "ratio", []string{"third", "d"}, []string{"ratio"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("ratio", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	r := Model(g.imported(t), "sum.onnx", Options{})
	found := 0
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == "ratio" && verdicts[f.Code] != "" {
			found++
			if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "as a value of its own") {
				t.Errorf("ratio: %s %s, want %s taking S - K as a value of its own", f.Code, f.Message, FloorTruncAgree)
			}
		}
	}
	if found == 0 {
		t.Fatalf("no verdict for ratio: %v", r.Findings)
	}
}

// TestAgreementOfMultiples: -3 * H over H divides exactly (the operands
// have opposite signs), and so does 6 * (H - W) over 2 * (W - H); 3 * H + 1
// over H does not.
func TestAgreementOfMultiples(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("H"), param("W")).
		i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("minus3", []int64{}, -3).i64("six", []int64{}, 6).i64("two", []int64{}, 2).i64("three", []int64{}, 3).
		node("Shape", []string{"x"}, "s").
		node("Gather", []string{"s", "zero"}, "h", onnxwire.IntAttr("axis", 0)).node("Gather", []string{"s", "one"}, "w", onnxwire.IntAttr("axis", 0)).
		node("Mul", []string{"h", "minus3"}, "a").node("Div", []string{"a", "h"}, "exact").
		node("Sub", []string{"h", "w"}, "hw").node("Sub", []string{"w", "h"}, "wh").
		node("Mul", []string{"hw", "six"}, "a2").node("Mul", []string{"wh", "two"}, "b2").node("Div", []string{"a2", "b2"}, "exact2").
		node("Mul", []string{"h", "three"}, "h3").node("Add", []string{"h3", "one"}, "a3").node("Neg", []string{"h"}, "minus_h").node("Div", []string{"a3", "minus_h"}, "inexact").
		output("exact", onnxwire.Int64).output("exact2", onnxwire.Int64).output("inexact", onnxwire.Int64)
	r := Model(g.imported(t), "multiples.onnx", Options{})
	for _, name := range []string{"exact", "exact2"} {
		if f := verdictOf(t, r, name); f.Code != FloorTruncAgree || !strings.Contains(f.Message, "every division is exact") {
			t.Errorf("%s: %s %s, want %s: every division is exact", name, f.Code, f.Message, FloorTruncAgree)
		}
	}
	if f := verdictOf(t, r, "inexact"); f.Code != FloorTrunc {
		t.Errorf("inexact: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestNoProofThroughAPaddedFloat: N + 300 of a dim N is at least 300,
// but padded with -9 and converted, -9 / 2 floors where it truncates
// (the Pad's float range left its fill out once: a false proof).
func TestNoProofThroughAPaddedFloat(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("N")).
		i64("pads", []int64{2}, 0, 1).i64("two", []int64{}, 2).i64("axes", []int64{1}, 0).f32("c300", 300).f32("fill", -9).
		node("Shape", []string{"x"}, "n").node("Cast", []string{"n"}, "nf", onnxwire.IntAttr("to", int64(onnxwire.Float))).
		node("Add", []string{"nf", "c300"}, "shifted").node("Pad", []string{"shifted", "pads", "fill"}, "padded").
		node("Cast", []string{"padded"}, "ints", onnxwire.IntAttr("to", int64(onnxwire.Int64))).node("Div", []string{"ints", "two"}, "half").
		output("half", onnxwire.Int64)
	r := Model(g.imported(t), "pad.onnx", Options{})
	if f := verdictOf(t, r, "half"); f.Code == FloorTruncAgree {
		t.Errorf("half: %s %s: proven, but -9 / 2 floors where it truncates", f.Code, f.Message)
	}
}

// TestBranchGuardAtTheDeclaredShapesOnly: the then branch of if y[2] -
// y[-1] > 0, y: i64[3], never runs at the declared shape, where y[2] is
// y[-1]; at others (y of four elements) it runs, and x / -2 may be 1 /
// -2. The condition guards nothing but the declared shapes: no proof for
// every shape. (A regression test of soundness: here the comparison is
// decided at the declared shape, so that no piece-by-piece guard is made
// of it; one laid out as at the declared shapes guards nothing else
// either, by absint.BranchOf's declaredOnly.)
func TestBranchGuardAtTheDeclaredShapesOnly(t *testing.T) {
	g := new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64, fixed(3)).
		i64("two", []int64{}, 2).i64("last", []int64{}, -1).i64("zero", []int64{}, 0).i64("minus2", []int64{}, -2).i64("one", []int64{}, 1).
		node("Gather", []string{"y", "two"}, "y2", onnxwire.IntAttr("axis", 0)).node("Gather", []string{"y", "last"}, "ylast", onnxwire.IntAttr("axis", 0)).
		node("Sub", []string{"y2", "ylast"}, "d").node("Greater", []string{"d", "zero"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Div", "half", []string{"x", "minus2"}, []string{"half"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Add", "other", []string{"y2", "one"}, []string{"other"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("other", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	r := Model(g.imported(t), "guard.onnx", Options{})
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == "half" && verdicts[f.Code] != "" {
			if f.Code == FloorTruncAgree {
				t.Errorf("half: %s %s: proven for every shape by a condition of the declared shape", f.Code, f.Message)
			}
			return
		}
	}
	t.Fatalf("no verdict for half: %v", r.Findings)
}

// TestAgreementByInnerValue: d = a - b of two scalars, clipped to
// [-8, 8] and divided by max(d, 1), is d / d where d is 1 to 8, 8 / d
// beyond, and a division by 1 where d is not positive: agreement, which
// no piece of a's and b's ranges shows, and each piece of d's range,
// taken as a symbol of its own, does (seed 677 of the differential).
// Divided by max(d, 2) instead, -3 / 2 differs.
func TestAgreementByInnerValue(t *testing.T) {
	g := new(graph).input("a", onnxwire.Int64).input("b", onnxwire.Int64).
		i64("lo", []int64{}, -8).i64("hi", []int64{}, 8).i64("one", []int64{}, 1).i64("two", []int64{}, 2).
		node("Sub", []string{"a", "b"}, "d").node("Clip", []string{"d", "lo", "hi"}, "c").
		node("Max", []string{"d", "one"}, "m1").node("Div", []string{"c", "m1"}, "by_m1").
		node("Max", []string{"d", "two"}, "m2").node("Div", []string{"c", "m2"}, "by_m2").
		output("by_m1", onnxwire.Int64).output("by_m2", onnxwire.Int64)
	r := Model(g.imported(t), "inner.onnx", Options{})
	if f := verdictOf(t, r, "by_m1"); f.Code != FloorTruncAgree || !strings.Contains(f.Message, "as a value of its own") {
		t.Errorf("by_m1: %s %s, want %s taking d as a value of its own", f.Code, f.Message, FloorTruncAgree)
	}
	if f := verdictOf(t, r, "by_m2"); f.Code != FloorTrunc {
		t.Errorf("by_m2: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestExactThroughWraps: W * 3 * 2^61 wraps in int64, over all of int64's
// range, but always to a multiple of 2^61, which 2 divides exactly
// (seed 186 of the differential); W * (2^61 + 1) wraps to odd negative
// values (W = 5), where floor and truncation differ.
func TestExactThroughWraps(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, param("W"), fixed(2)).
		i64("zero", []int64{}, 0).i64("two", []int64{}, 2).
		i64("even", []int64{}, 3<<61).i64("odd", []int64{}, 1<<61+1).
		node("Shape", []string{"y"}, "s").node("Gather", []string{"s", "zero"}, "w", onnxwire.IntAttr("axis", 0)).
		node("Mul", []string{"w", "even"}, "we").node("Div", []string{"we", "two"}, "even_half").
		node("Mul", []string{"w", "odd"}, "wo").node("Div", []string{"wo", "two"}, "odd_half").
		output("even_half", onnxwire.Int64).output("odd_half", onnxwire.Int64)
	r := Model(g.imported(t), "wraps.onnx", Options{})
	if f := verdictOf(t, r, "even_half"); f.Code != FloorTruncAgree {
		t.Errorf("even_half: %s %s, want %s", f.Code, f.Message, FloorTruncAgree)
	}
	if f := verdictOf(t, r, "odd_half"); f.Code != FloorTrunc {
		t.Errorf("odd_half: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestComparisonAtTheDeclaredShapes: len(y) < 6 of y: i64[2] holds at
// the declared shape, and nowhere else is known: where(len(y) < 6, -1,
// -2) is -1 there, which divides len(y) / 2 exactly; at y: [7], 3 / -2
// differs (seed 569 of the differential): agreement at the declared
// shapes, a counter-example at others.
func TestComparisonAtTheDeclaredShapes(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, fixed(2)).
		i64("zero", []int64{}, 0).i64("two", []int64{}, 2).i64("six", []int64{}, 6).
		i64("minus1", []int64{}, -1).i64("minus2", []int64{}, -2).
		node("Shape", []string{"y"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Div", []string{"n", "two"}, "half").node("Less", []string{"n", "six"}, "short").
		node("Where", []string{"short", "minus1", "minus2"}, "sign").node("Div", []string{"half", "sign"}, "q").
		output("q", onnxwire.Int64)
	r := Model(g.imported(t), "compare.onnx", Options{})
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && verdicts[f.Code] != "" && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == "q" {
			if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "with other input shapes") {
				t.Errorf("q: %s %s, want %s with a counter-example", f.Code, f.Message, FloorTruncReshape)
			}
			return
		}
	}
	t.Fatalf("no verdict for q: %v", r.Findings)
}

// TestAbsOfInt64: |x| of an int64 x wraps only at MIN (|MIN| = MIN),
// which 4 divides exactly: agreement, though the range of Max(x, -x),
// up to 2^63, leaves int64 (seed 1026 of the differential). 3 does not
// divide MIN: x = MIN is a counter-example.
func TestAbsOfInt64(t *testing.T) {
	g := new(graph).input("x", onnxwire.Int64, fixed(3)).
		i64("four", []int64{}, 4).i64("three", []int64{}, 3).
		node("Abs", []string{"x"}, "a").
		node("Div", []string{"a", "four"}, "by4").node("Div", []string{"a", "three"}, "by3").
		output("by4", onnxwire.Int64).output("by3", onnxwire.Int64)
	r := Model(g.imported(t), "abs.onnx", Options{})
	if f := verdictOf(t, r, "by4"); f.Code != FloorTruncAgree || !strings.Contains(f.Message, "an absolute value") {
		t.Errorf("by4: %s %s, want %s (an absolute value)", f.Code, f.Message, FloorTruncAgree)
	}
	if f := verdictOf(t, r, "by3"); f.Code != FloorTrunc {
		t.Errorf("by3: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}
