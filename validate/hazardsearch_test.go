package validate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate/internal/randmodel"
)

// hazardModels are hazards at the declared shapes that the search once
// left as warnings (issue 27), one per cause, each the smallest form of
// seeds of the random-model differential: the Div named "div", a model
// output, floors where ONNX truncates at some input the model runs on.
var hazardModels = []struct {
	name string
	g    *graph
}{
	{
		// A Gather of y at x.shape[0] runs only where x.shape[0] <
		// y.shape[0], which no dims the search leaves free give (both
		// first axes: a batch of 1, of 8, all 0, all 1): it searches
		// again choosing the symbols of that joint requirement, within
		// it (seed 2179).
		name: "jointrequirement",
		g: new(graph).input("x", onnxwire.Int64, param("N")).input("y", onnxwire.Int64, param("S")).
			i64("zero", []int64{}, 0).i64("three", []int64{}, 3).
			node("Shape", []string{"x"}, "shape").node("Gather", []string{"shape", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Gather", []string{"y", "n"}, "picked", onnxwire.IntAttr("axis", 0)).
			node("Div", []string{"picked", "three"}, "div").
			output("div", onnxwire.Int64),
	},
	{
		// A Resize of x: f32[H] to y.shape[0] / 80 runs only where
		// y.shape[0] >= 80 (or H = 0, where 1 / H fails), beyond the
		// search's small candidates: the bisection of that requirement of
		// H and L gives 80 and 81, where y.shape[0] / -2 differs (seed
		// 180).
		name: "requirementedge",
		g: new(graph).input("x", onnxwire.Float, param("H")).input("y", onnxwire.Int64, param("L")).
			i64("eighty", []int64{}, 80).i64("one", []int64{1}, 1).i64("minus2", []int64{1}, -2).
			node("Shape", []string{"y"}, "len").node("Div", []string{"len", "minus2"}, "div").
			node("Div", []string{"len", "eighty"}, "size").
			node("Resize", []string{"x", "", "", "size"}, "resized").
			node("Shape", []string{"x"}, "h").node("Div", []string{"one", "h"}, "inverse").
			output("div", onnxwire.Int64).output("resized", onnxwire.Float).output("inverse", onnxwire.Int64),
	},
	{
		// A Resize of x: f32[2, K] to [2, 0] runs only where K = 0
		// (ONNX Runtime takes a size of 0 of an axis of 0 as a scale of
		// 1), where irdiv's evaluation failed it (seed 2596).
		name: "resizeemptyaxis",
		g: new(graph).input("x", onnxwire.Float, fixed(2), param("K")).input("y", onnxwire.Int64, fixed(2)).
			i64("sizes", []int64{2}, 2, 0).i64("minus3", []int64{}, -3).
			node("Resize", []string{"x", "", "", "sizes"}, "resized").
			node("Div", []string{"y", "minus3"}, "div").
			output("div", onnxwire.Int64).output("resized", onnxwire.Float),
	},
	{
		// Where(y.shape[1] % 16 > 5, y, 0) / 3: the comparison, which
		// irdiv does not decide, is of a dim the search chooses and
		// evaluates; at T = 32 by default it fails, and 0 / 3 never
		// differs (seed 2362).
		name: "comparison",
		g: new(graph).input("y", onnxwire.Int64, param("C"), param("T")).
			i64("one", []int64{1}, 1).i64("sixteen", []int64{}, 16).i64("five", []int64{}, 5).
			i64("zero", []int64{}, 0).i64("three", []int64{}, 3).
			node("Shape", []string{"y"}, "shape").node("Gather", []string{"shape", "one"}, "t", onnxwire.IntAttr("axis", 0)).
			node("Mod", []string{"t", "sixteen"}, "m").node("Greater", []string{"m", "five"}, "wide").
			node("Where", []string{"wide", "y", "zero"}, "kept").
			node("Div", []string{"kept", "three"}, "div").
			output("div", onnxwire.Int64),
	},
	{
		// The sum of y: i64[2, L] over its first axis, a value irdiv
		// does not follow, / 8 / 8 / -3 differs at y = 64 (128 / 64 / -3),
		// a single candidate of y's, which the first pairs of L's and
		// y's small values crowded out of the assignments tried unevaluated
		// (seeds 171 and 2155).
		name: "singlesroom",
		g: new(graph).input("y", onnxwire.Int64, fixed(2), param("L")).
			i64("axes", []int64{1}, 0).i64("eight", []int64{}, 8).i64("minus3", []int64{}, -3).
			node("ReduceSum", []string{"y", "axes"}, "sum", onnxwire.IntAttr("keepdims", 1)).
			node("Div", []string{"sum", "eight"}, "eighth").node("Div", []string{"eighth", "eight"}, "sixtyfourth").
			node("Div", []string{"sixtyfourth", "minus3"}, "div").
			output("div", onnxwire.Int64),
	},
	{
		// x: f32[N, 2, W] reshaped to [q, -1] (allowzero), q = (the
		// width of an AveragePool of x of stride 2, - 3) / 2, runs only
		// where N = 0: ONNX Runtime 1.30 pools an empty batch, and infers
		// the -1 beside q = 0 as 2 * W, where OpenVINO refuses the pool
		// ("Batch size is zero") and reshapes to [0, 1]; irdiv's
		// evaluations failed the pool, and the Reshape (seeds 498, 1053).
		// (Of a fixed W, q is constant at the declared shapes, which
		// irdiv takes as a pattern ONNX Runtime's loading may know, and
		// refuse, as it does a constant [0, -1] (seed 337): ONNX Runtime
		// 1.30 runs it still, which irdiv leaves a warning.)
		name: "emptybatch",
		g: new(graph).atOpset(14).input("x", onnxwire.Float, param("N"), fixed(2), param("W")).
			i64("two", []int64{}, 2).i64("three", []int64{}, 3).i64("axes", []int64{1}, 0).i64("rest", []int64{1}, -1).
			node("AveragePool", []string{"x"}, "p", onnxwire.IntsAttr("kernel_shape", 1), onnxwire.IntsAttr("strides", 2)).
			node("Shape", []string{"p"}, "shape").node("Gather", []string{"shape", "two"}, "w", onnxwire.IntAttr("axis", 0)).
			node("Sub", []string{"w", "three"}, "a").node("Div", []string{"a", "two"}, "div").
			node("Unsqueeze", []string{"div", "axes"}, "q").node("Concat", []string{"q", "rest"}, "target", onnxwire.IntAttr("axis", 0)).
			node("Reshape", []string{"x", "target"}, "r", onnxwire.IntAttr("allowzero", 1)).node("Shape", []string{"r"}, "rshape").
			output("div", onnxwire.Int64).output("rshape", onnxwire.Int64),
	},
	{
		// y * c / y of y: i64[] where a Reshape of an empty tensor to
		// [y * c / 28, -1] runs only where y * c / 28 is 0 or a dim: the
		// bisection of that requirement over y's range finds y =
		// -2305843009213693895, where y * c wraps to 57 and the Reshape
		// makes [2, 0] (differential_cases_test's "a counter-example
		// makes no dim beyond 2^40", whose dims ONNX Runtime could not
		// make).
		name: "wrappedrequirement",
		g:    wrappedRequirement(),
	},
}

// TestHazardsAtTheDeclaredShapes: each hazard of hazardModels is an
// error whose counter-example the model runs on, and ONNX Runtime, where
// installed, runs it and truncates there.
func TestHazardsAtTheDeclaredShapes(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	for _, tc := range hazardModels {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.g.bytes()
			f := verdictOf(t, Model(tc.g.imported(t), tc.name+".onnx", Options{}), "div")
			if f.Code != FloorTrunc {
				t.Fatalf("div: %s %s, want %s", f.Code, f.Message, FloorTrunc)
			}
			t.Logf("%s", f.Message)
			if ortErr != nil {
				return
			}
			path := filepath.Join(t.TempDir(), "m.onnx")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{f.CounterExample.Inputs}}})
			if err != nil || res[0][0].Err != nil {
				t.Fatalf("ONNX Runtime: %v %v", err, res[0][0].Err)
			}
			a, b := f.Evidence.Get("a_value").(int64), f.Evidence.Get("b_value").(int64)
			i := f.Evidence.Get("index").(int)
			o := res[0][0].Outputs["div"]
			if o == nil || o.Type != ir.I64 || i >= o.Len() || ir.View[int64](o)[i] != a/b || a/b == divInt(a, b, true) {
				t.Errorf("ONNX Runtime gives div = %v at %v, want %d / %d truncated at %d", o, f.CounterExample.Inputs, a, b, i)
			}
		})
	}
}

// TestSearchInsideASearchKeepsItsShapes: seed 1362 of the differential,
// x: i32[8, 16, 16] reshaped to [2, T, 1] (T = 1024 only at the declared
// shapes), x / 4: the search of other shapes fails its candidates at
// the Reshape, searches again within its requirements (searchRunnable),
// and then goes on at other shapes, which find where it differs: a
// reshape warning, not a warning of nothing found (the inner search left
// the outer at the declared shapes).
func TestSearchInsideASearchKeepsItsShapes(t *testing.T) {
	om, err := onnx.Read(randmodel.Generate(1362).Bytes(), onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f := verdictOf(t, Model(m, "1362.onnx", Options{}), "v11"); f.Code != FloorTruncReshape {
		t.Errorf("v11: %s %s, want %s", f.Code, f.Message, FloorTruncReshape)
	}
}
