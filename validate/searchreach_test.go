package validate

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
)

// verdictOf is the verdict of the integer Divide whose output is named
// out, and its message.
func verdictOf(t *testing.T, r *Report, out string) Finding {
	t.Helper()
	for _, f := range r.Findings {
		if d := f.divide(); d != nil && verdicts[f.Code] != "" && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 && d.Outputs[0].Names[0] == out {
			return f
		}
	}
	t.Fatalf("no verdict for %s: %v", out, r.Findings)
	return Finding{}
}

// TestOtherShapesWhereTheDeclaredFault: y: i64[1] reshaped to [K * 0 +
// 2, -1] (K a dim of x: f32[K], so that the pattern is computed) runs
// only where y's length is even, which its declared shape's is not (nor
// 0 or 1), so that no input of the declared shapes shows that floor and
// truncation differ at y / 2; a search of every input shape, whose edge
// inputs vary the dims the model fixes, finds y = [2, -1] (seed 1360 of
// the differential: a Reshape of y: [1] to [16, -1]). A warning at other
// shapes, not an error: ONNX's runtimes take the declared shapes only.
func TestOtherShapesWhereTheDeclaredFault(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("K")).input("y", onnxwire.Int64, fixed(1)).
		i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).i64("rest", []int64{1}, -1).i64("two", []int64{}, 2).
		node("Shape", []string{"x"}, "shape").node("Gather", []string{"shape", "zero"}, "k", onnxwire.IntAttr("axis", 0)).
		node("Mul", []string{"k", "zero"}, "k0").node("Add", []string{"k0", "two"}, "rows").
		node("Unsqueeze", []string{"rows", "axes"}, "rows1").node("Concat", []string{"rows1", "rest"}, "target", onnxwire.IntAttr("axis", 0)).
		node("Reshape", []string{"y", "target"}, "pairs").
		node("Div", []string{"y", "two"}, "half").
		output("half", onnxwire.Int64).output("pairs", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "othershapes.onnx", Options{}), "half")
	if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "with other input shapes") {
		t.Errorf("half: %s %s, want %s with other input shapes", f.Code, f.Message, FloorTruncReshape)
	}
}

// TestFreeDimsAtZero: int64(x) / (int64(x) * 0) of x: f32[W] divides by
// 0 unless W = 0, where the model runs only,
// and y / 4 of y: i32[4] differs at y = -3: the search's candidates
// leave W free, at a batch of 1 and of 8, where the model faults, and
// then at 0 (seed 951 of the differential: a Loop of W iterations whose
// first divides by 0).
func TestFreeDimsAtZero(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("W")).input("y", onnxwire.Int64, fixed(4)).
		i64("zero", []int64{}, 0).i64("four", []int64{}, 4).
		node("Cast", []string{"x"}, "xi", onnxwire.IntAttr("to", int64(onnxwire.Int64))).
		node("Mul", []string{"xi", "zero"}, "zeros").
		node("Div", []string{"xi", "zeros"}, "nothing").
		node("Div", []string{"y", "four"}, "quarter").
		output("quarter", onnxwire.Int64).output("nothing", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "zerodims.onnx", Options{}), "quarter")
	if f.Code != FloorTrunc {
		t.Errorf("quarter: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestFreeDimsAtOne: y: i64[L, C] squeezed on its first axis and
// reshaped to [1] runs only where L = C = 1; Squeeze(y) / 2 differs at
// y = [[-3]], which the search's candidates reach with their free dims
// at 1 (seed 1013 of the differential), and its edge and random inputs
// seldom do.
func TestFreeDimsAtOne(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, param("L"), param("C")).
		i64("axes", []int64{1}, 0).i64("one", []int64{1}, 1).i64("two", []int64{1}, 2).
		node("Squeeze", []string{"y", "axes"}, "row").
		node("Reshape", []string{"y", "one"}, "single").
		node("Div", []string{"row", "two"}, "half").
		output("half", onnxwire.Int64).output("single", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "onedims.onnx", Options{}), "half")
	if f.Code != FloorTrunc {
		t.Errorf("half: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestSinglesAfterManyPairs: y / 16 / -3 of y: i64[3, 4] differs where
// y / 16 is positive and no multiple of 3 (y = 16), which no pair of the
// first candidates of y's 12 elements gives: their 66 pairs must leave
// room for the candidates of each element alone (seed 2193 of the
// differential).
func TestSinglesAfterManyPairs(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, fixed(3), fixed(4)).
		i64("sixteen", []int64{}, 16).i64("minus3", []int64{}, -3).
		node("Div", []string{"y", "sixteen"}, "sixteenth").
		node("Div", []string{"sixteenth", "minus3"}, "third").
		output("third", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "singles.onnx", Options{}), "third")
	if f.Code != FloorTrunc {
		t.Errorf("third: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}

// TestScreenedCandidates: Where(W == 1, int64(float(W) - 0.5), y) /
// (2 * y) of x: f32[N, S, 5, 2] and y: i64[], through values irdiv does
// not follow, is y / 2y at the declared shapes, which differs only where
// 2 * y wraps (y = -2^63 + 1: (-2^63 + 1) / 2); the first candidates,
// confirmed blindly, are small values of y, and the ends of y's type
// come later: they are screened by evaluating the
// Divide's operands, and the one that differs confirmed (seed 2488 of
// the differential).
func TestScreenedCandidates(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("N"), param("S"), fixed(5), fixed(2)).input("y", onnxwire.Int64).
		i64("three", []int64{}, 3).i64("one", []int64{}, 1).i64("two", []int64{}, 2).f32("half", -0.5).
		node("Shape", []string{"x"}, "shape").node("Gather", []string{"shape", "three"}, "w", onnxwire.IntAttr("axis", 0)).
		node("Cast", []string{"w"}, "wf", onnxwire.IntAttr("to", int64(onnxwire.Float))).
		node("Add", []string{"wf", "half"}, "lower").
		node("Cast", []string{"lower"}, "wi", onnxwire.IntAttr("to", int64(onnxwire.Int64))).
		node("Equal", []string{"w", "one"}, "single").node("Where", []string{"single", "wi", "y"}, "a").
		node("Mul", []string{"y", "two"}, "b").node("Div", []string{"a", "b"}, "ratio").
		output("ratio", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "screened.onnx", Options{}), "ratio")
	if f.Code != FloorTrunc {
		t.Errorf("ratio: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
}
