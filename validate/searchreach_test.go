package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
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

// TestScreenedInsideABody: c / 5 inside a Loop body, c carried from (N /
// 3) / -3 of x: f32[N, A, B, C], which the search does not follow into
// the body: every assignment of x's four dims is a candidate unevaluated,
// and the pairs of their first values fill the first ones confirmed;
// the Divide differs only from N = 9 (-1 / 5), a single's candidate,
// which the screen of the later ones, running the Loop and reading the
// Divide's operands as it runs, finds (seed 1410 of the differential).
// ONNX Runtime, where installed, runs the counter-example and truncates.
func TestScreenedInsideABody(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("N"), param("A"), param("B"), param("C")).
		i64("zero", []int64{}, 0).i64("three", []int64{}, 3).i64("minus3", []int64{}, -3).i64("trip", []int64{}, 1).
		node("Shape", []string{"x"}, "shape").node("Gather", []string{"shape", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Div", []string{"n", "three"}, "third").node("Div", []string{"third", "minus3"}, "c0").
		node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
		nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
			onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
				onnxwire.NodeAttrs("Constant", "five", nil, []string{"five"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(5)))),
				onnxwire.Node("Div", "q", []string{"c_in", "five"}, []string{"q"}),
				onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
			}, nil,
				[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
				[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("q", onnxwire.Int64)}))).
		output("c", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "screenedbody.onnx", Options{}), "q")
	if f.Code != FloorTrunc {
		t.Fatalf("q: %s %s, want %s", f.Code, f.Message, FloorTrunc)
	}
	t.Logf("%s", f.Message)
	runner, err := ortreplay.Find()
	if err != nil {
		t.Skipf("ONNX Runtime is not available (%v): the counter-example is not replayed", err)
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, g.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{f.CounterExample.Inputs}}})
	if err != nil || res[0][0].Err != nil {
		t.Fatalf("ONNX Runtime: %v %v", err, res[0][0].Err)
	}
	a, b := f.Evidence.Get("a_value").(int64), f.Evidence.Get("b_value").(int64)
	if o := res[0][0].Outputs["c"]; o == nil || o.Type != ir.I64 || o.Len() != 1 || ir.View[int64](o)[0] != a/b || a/b == divInt(a, b, true) {
		t.Errorf("ONNX Runtime gives c = %v at %v, want %d / %d truncated", o, f.CounterExample.Inputs, a, b)
	}
}

// TestWrapsPastAnEmptyInput: N * 1099511627779 of x: f32[8, 4, N] wraps
// from N = 2^23, where its quotient by 5 floors and truncates apart; the
// output multiplies the quotient by x.shape[0]. The search of the dims
// where it wraps gives the other dims 0 first, where x stays empty, and
// the output is 0 both ways: it goes on to 1 there too, as where the
// model did not run (seed 1847 of the differential, whose quotient an
// AveragePool's batch multiplies: that pool ran at x: [0, 0, 2^23] once
// irdiv pooled empty batches). A warning at other shapes: at the declared
// ones, x of 2^23 * 32 elements is beyond the search's inputs.
func TestWrapsPastAnEmptyInput(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, fixed(8), fixed(4), param("N")).
		i64("zero", []int64{}, 0).i64("two", []int64{}, 2).i64("big", []int64{}, 1099511627779).i64("five", []int64{}, 5).
		node("Shape", []string{"x"}, "shape").node("Gather", []string{"shape", "two"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"shape", "zero"}, "batch", onnxwire.IntAttr("axis", 0)).
		node("Mul", []string{"n", "big"}, "p").node("Div", []string{"p", "five"}, "q").
		node("Mul", []string{"q", "batch"}, "out").
		output("out", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "wrapsempty.onnx", Options{}), "q")
	if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "with other input shapes") {
		t.Errorf("q: %s %s, want %s with other input shapes", f.Code, f.Message, FloorTruncReshape)
	}
}
