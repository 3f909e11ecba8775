package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// Divides that the random-model differential left undecided (issue 27),
// where ONNX Runtime finds no difference, and irdiv now proves why.

// TestReshapeInfersOneDim: Reshape(x, [y, -1]) runs only where y is 0 or
// more, as ONNX infers one dim at most: y / 2 agrees at every input the
// model runs on, and the proof says what it rests on. ONNX Runtime, where
// installed, refuses y = -1 (two dims to infer) and runs y = 0.
func TestReshapeInfersOneDim(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("K")).input("y", onnxwire.Int64).
		i64("axes", []int64{1}, 0).i64("rest", []int64{1}, -1).i64("two", []int64{}, 2).
		node("Unsqueeze", []string{"y", "axes"}, "y1").node("Concat", []string{"y1", "rest"}, "target", onnxwire.IntAttr("axis", 0)).
		node("Reshape", []string{"x", "target"}, "r").
		node("Div", []string{"y", "two"}, "half").
		output("half", onnxwire.Int64).output("r", onnxwire.Float)
	f := verdictOf(t, Model(g.imported(t), "reshape.onnx", Options{}), "half")
	if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "infers one dim only") {
		t.Errorf("half: %s %s, want %s resting on the Reshape", f.Code, f.Message, FloorTruncAgree)
	}
	x, _ := ir.NewTensor(ir.F32, []int64{4})
	var runs []map[string]*ir.Tensor
	for _, v := range []int64{-1, 0} {
		y, _ := ir.NewTensor(ir.I64, []int64{})
		y.SetInt64(0, v)
		runs = append(runs, map[string]*ir.Tensor{"x": x, "y": y})
	}
	failsThenRuns(t, g, "y = -1", "y = 0", runs)
}

// failsThenRuns runs the model of g in ONNX Runtime, where installed, on
// two inputs (first and then say which), and wants it to fail on the
// first and run on the second.
func failsThenRuns(t *testing.T, g *graph, first, then string, runs []map[string]*ir.Tensor) {
	t.Helper()
	runner, err := ortreplay.Find()
	if err != nil {
		t.Logf("ONNX Runtime is not available (%v): the model is not run", err)
		return
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: runs}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0][0].Err == nil || res[0][1].Err != nil {
		t.Errorf("ONNX Runtime at %s: %v, at %s: %v; want a failure, then a run", first, res[0][0].Err, then, res[0][1].Err)
	}
}

// TestFloatsAtTheDeclaredShapes: a dim cast to i32, to float, + 0.5 and
// back to i32 is 1 at y: i32[1], the declared shape, where 1 / 2 agrees;
// at other shapes the cast to i32 wraps (2^32 - 4 gives -4, -3.5, -3, and
// -3 / 2 differs), so the proof is of the declared shapes only
// (floor-trunc-reshape). Of y: i32[L] the dim is any at the declared
// shapes too: no proof.
func TestFloatsAtTheDeclaredShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		dim  onnxwire.Dim
		want Code
	}{
		{"fixed", fixed(1), FloorTruncReshape},
		{"symbolic", param("L"), FloorTruncPossible},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := new(graph).input("y", onnxwire.Int32, tc.dim).i64("zero", []int64{}, 0).f32("half", 0.5).
				node("Shape", []string{"y"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
				node("Cast", []string{"n"}, "n32", onnxwire.IntAttr("to", onnxwire.Int32)).
				node("Cast", []string{"n32"}, "f", onnxwire.IntAttr("to", onnxwire.Float)).
				node("Add", []string{"f", "half"}, "g").
				node("Cast", []string{"g"}, "a", onnxwire.IntAttr("to", onnxwire.Int32)).
				node("Constant", nil, "two", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int32, []int64{}, i32s(2)))).
				node("Div", []string{"a", "two"}, "div").
				output("div", onnxwire.Int32)
			f := verdictOf(t, Model(g.imported(t), "floats.onnx", Options{}), "div")
			if f.Code != tc.want {
				t.Errorf("div: %s %s, want %s", f.Code, f.Message, tc.want)
			}
			if tc.want == FloorTruncReshape && !strings.Contains(f.Message, "at the declared input shapes they agree") {
				t.Errorf("div: %s, want an agreement at the declared input shapes", f.Message)
			}
		})
	}
}

// TestRangeOfAStepNotKnown: the elements of Range(0, clip(len(x), -8, 8),
// len(y)) lie between its start and stop, whatever its step: 0 to 7,
// whose division by 2 agrees.
func TestRangeOfAStepNotKnown(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("K")).input("y", onnxwire.Float, param("L")).
		i64("zero", []int64{}, 0).i64("lo", []int64{}, -8).i64("hi", []int64{}, 8).i64("two", []int64{}, 2).
		node("Shape", []string{"x"}, "sx").node("Gather", []string{"sx", "zero"}, "k", onnxwire.IntAttr("axis", 0)).
		node("Shape", []string{"y"}, "sy").node("Gather", []string{"sy", "zero"}, "l", onnxwire.IntAttr("axis", 0)).
		node("Clip", []string{"k", "lo", "hi"}, "stop").
		node("Range", []string{"zero", "stop", "l"}, "r").
		node("Div", []string{"r", "two"}, "div").
		output("div", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "range.onnx", Options{}), "div")
	if f.Code != FloorTruncAgree {
		t.Errorf("div: %s %s, want %s", f.Code, f.Message, FloorTruncAgree)
	}
}

// TestSelectOfOneCondition: y * 0 > 6 is false at every element of y:
// Where picks 16 everywhere, whose division by 3 agrees (seed 534).
func TestSelectOfOneCondition(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, param("L")).
		i64("zero", []int64{}, 0).i64("six", []int64{}, 6).i64("sixteen", []int64{}, 16).i64("three", []int64{}, 3).
		node("Mul", []string{"y", "zero"}, "y0").node("Greater", []string{"y0", "six"}, "c").
		node("Where", []string{"c", "y", "sixteen"}, "w").
		node("Div", []string{"w", "three"}, "div").
		output("div", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "select.onnx", Options{}), "div")
	if f.Code != FloorTruncAgree {
		t.Errorf("div: %s %s, want %s", f.Code, f.Message, FloorTruncAgree)
	}
}

// TestProductOfOneValueLeavingInt64: H / H is 1 wherever the model runs
// (H = 0 divides by zero), and 1 * (2^40 + 3) * (2^40 + 3) wraps to one
// value, whose division by 3 is decided; the expression alone knew
// nothing of it (a coefficient beyond int64; seed 769).
func TestProductOfOneValueLeavingInt64(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("H")).
		i64("zero", []int64{}, 0).i64("k", []int64{}, 1<<40+3).i64("three", []int64{}, 3).
		node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "h", onnxwire.IntAttr("axis", 0)).
		node("Div", []string{"h", "h"}, "one").
		node("Mul", []string{"one", "k"}, "m1").node("Mul", []string{"m1", "k"}, "m2").
		node("Div", []string{"m2", "three"}, "div").
		output("div", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "product.onnx", Options{}), "div")
	if f.Code != FloorTruncAgree {
		t.Errorf("div: %s %s, want %s", f.Code, f.Message, FloorTruncAgree)
	}
}

// TestEmptySliceAtTheDeclaredShapes: y[1:-1] of y: i64[2] is empty at the
// declared shape, whose elements irdiv lays out, and has elements at
// others (y: [4] gives y[1:3], and -1 / 2 differs there): the Divide of
// it by 2 agrees at the declared shapes only (floor-trunc-reshape), where
// it was not analysed at all.
func TestEmptySliceAtTheDeclaredShapes(t *testing.T) {
	g := new(graph).input("y", onnxwire.Int64, fixed(2)).
		i64("start", []int64{1}, 1).i64("stop", []int64{1}, -1).i64("two", []int64{}, 2).
		node("Slice", []string{"y", "start", "stop"}, "inner").
		node("Div", []string{"inner", "two"}, "half").
		output("half", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "empty.onnx", Options{}), "half")
	if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "empty at the declared input shapes") {
		t.Errorf("half: %s %s, want %s, empty at the declared shapes", f.Code, f.Message, FloorTruncReshape)
	}
}

// TestFactsOfLayers: a value d made the dims of a ConstantOfShape
// (through a Min with 6) is 0 or more wherever the model runs, though no
// input symbol alone is bounded so, and d / 3 agrees there; the proof
// says what it rests on. d is T - C of x: f32[T, C] (seed 1165 of the
// differential), or int32(0.75 * T), which wraps at T of 2^31 and more:
// a fact of a value converted, no input symbol (seed 1115). ONNX Runtime,
// where installed, refuses T < C and runs T >= C.
func TestFactsOfLayers(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    func(g *graph) *graph
		runs [][]int64
	}{
		{"T - C", func(g *graph) *graph {
			return g.input("x", onnxwire.Float, param("T"), param("C")).i64("one", []int64{}, 1).
				node("Shape", []string{"x"}, "s").
				node("Gather", []string{"s", "zero"}, "rows", onnxwire.IntAttr("axis", 0)).
				node("Gather", []string{"s", "one"}, "cols", onnxwire.IntAttr("axis", 0)).
				node("Sub", []string{"rows", "cols"}, "d")
		}, [][]int64{{2, 4}, {5, 3}}},
		{"int32(0.75 * T)", func(g *graph) *graph {
			return g.input("x", onnxwire.Float, param("T")).f32("scale", 0.75).
				node("Shape", []string{"x"}, "s").
				node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
				node("Cast", []string{"n"}, "f", onnxwire.IntAttr("to", onnxwire.Float)).
				node("Mul", []string{"f", "scale"}, "g").
				node("Cast", []string{"g"}, "n32", onnxwire.IntAttr("to", onnxwire.Int32)).
				node("Cast", []string{"n32"}, "d", onnxwire.IntAttr("to", onnxwire.Int64))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.d(new(graph).i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).i64("six", []int64{}, 6).i64("three", []int64{}, 3)).
				node("Unsqueeze", []string{"d", "axes"}, "d1").
				node("Min", []string{"d1", "six"}, "dims").
				node("ConstantOfShape", []string{"dims"}, "zeros").
				node("Div", []string{"d", "three"}, "q").
				output("q", onnxwire.Int64).output("zeros", onnxwire.Float)
			f := verdictOf(t, Model(g.imported(t), "facts.onnx", Options{}), "q")
			if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "require of values wherever it runs (Broadcast layer \"zeros\"") {
				t.Errorf("q: %s %s, want %s resting on the ConstantOfShape", f.Code, f.Message, FloorTruncAgree)
			}
			if tc.runs == nil {
				return
			}
			var runs []map[string]*ir.Tensor
			for _, dims := range tc.runs {
				x, _ := ir.NewTensor(ir.F32, dims)
				runs = append(runs, map[string]*ir.Tensor{"x": x})
			}
			failsThenRuns(t, g, fmt.Sprint("x: ", tc.runs[0]), fmt.Sprint("x: ", tc.runs[1]), runs)
		})
	}
}

// TestBranchThatNeverRunsAtTheDeclaredShapes: If(Shape(y)[0] > 0) of y:
// i64[1] takes its then_branch at the declared shape, at every input; x
// / z in its else_branch divides nothing there (seeds 2141 and 2937 of
// the differential), and may differ at y of shape [0], which a reshape
// may give: agreement at the declared shapes only (floor-trunc-reshape),
// resting on the branch, of operands of more symbols than the proof cuts
// into pieces. ONNX Runtime, where installed, runs the model at x = -1
// and gives the then_branch's x + 1.
func TestBranchThatNeverRunsAtTheDeclaredShapes(t *testing.T) {
	g := new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64, fixed(1)).input("z", onnxwire.Int64).
		i64("zero", []int64{}, 0).i64("one", []int64{}, 1).
		node("Shape", []string{"y"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Greater", []string{"n", "zero"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Add", "more", []string{"x", "one"}, []string{"more"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("more", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Div", "half", []string{"x", "z"}, []string{"half"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "branch.onnx", Options{}), "half")
	if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "branch that holds the Divide never runs") {
		t.Errorf("half: %s %s, want %s, the branch never running at the declared shapes", f.Code, f.Message, FloorTruncReshape)
	}
	x, _ := ir.NewTensor(ir.I64, []int64{})
	x.SetInt64(0, -1)
	y, _ := ir.NewTensor(ir.I64, []int64{1})
	z, _ := ir.NewTensor(ir.I64, []int64{})
	z.SetInt64(0, 2)
	ortGives(t, g, map[string]*ir.Tensor{"x": x, "y": y, "z": z}, 0, "x = -1, the then_branch's 0")
}

// ortGives runs the model of g in ONNX Runtime, where installed, on
// inputs, and wants its output "out" to be want (said so in what).
func ortGives(t *testing.T, g *graph, inputs map[string]*ir.Tensor, want int64, what string) {
	t.Helper()
	runner, err := ortreplay.Find()
	if err != nil {
		t.Logf("ONNX Runtime is not available (%v): the model is not run", err)
		return
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{inputs}}})
	if err != nil || res[0][0].Err != nil {
		t.Fatalf("ONNX Runtime: %v %v", err, res[0][0].Err)
	}
	if o := res[0][0].Outputs["out"]; o == nil || o.Type != ir.I64 || ir.View[int64](o)[0] != want {
		t.Errorf("ONNX Runtime gives out = %v, want %d at %s", o, want, what)
	}
}

// TestBranchComparesAWholeOperand: L / (max(N, K) - 1) of x: f32[N, K,
// L], where L > max(N, K): the divisor is -1 (max 0) or not negative,
// which the Max taken as a value of its own shows, cut into pieces with
// L (seed 1685 of the differential); the three dims at once are more
// than the pieces cut, and the Max lies at the top of the divisor,
// where no value below it is. ONNX Runtime, where installed, runs x:
// [1, 2, 3] and gives 3 / (2 - 1).
func TestBranchComparesAWholeOperand(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("N"), param("K"), param("L")).
		i64("i0", []int64{}, 0).i64("i1", []int64{}, 1).i64("i2", []int64{}, 2).
		node("Shape", []string{"x"}, "s").
		node("Gather", []string{"s", "i0"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"s", "i1"}, "k", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"s", "i2"}, "l", onnxwire.IntAttr("axis", 0)).
		node("Max", []string{"n", "k"}, "m").
		node("Greater", []string{"l", "m"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.NodeAttrs("Constant", "one", nil, []string{"one"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(1)))),
				onnxwire.Node("Sub", "less", []string{"m", "one"}, []string{"less"}),
				onnxwire.Node("Div", "quot", []string{"l", "less"}, []string{"quot"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("quot", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Neg", "neg", []string{"l"}, []string{"neg"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("neg", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "top.onnx", Options{}), "quot")
	if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "as a value of its own") {
		t.Errorf("quot: %s %s, want %s, the Max taken as a value of its own", f.Code, f.Message, FloorTruncAgree)
	}
	x, _ := ir.NewTensor(ir.F32, []int64{1, 2, 3})
	ortGives(t, g, map[string]*ir.Tensor{"x": x}, 3, "x: [1, 2, 3], 3 / (2 - 1)")
}

// TestBranchOfManySymbols: (clip(N - 16, 1, 3) + clip(M - 16, 1, 3)) /
// (min(T, 8) - 1) of x: f32[N, M, T], where T < 100: the divisor is -1 at
// T = 0 only, and not negative elsewhere. The operands and the condition
// depend on three dims, more than agreePieces cuts at once, and no value
// they are made of leaves two; the condition's T cut into pieces, N and
// M whole, shows it (seed 486 of the differential). ONNX Runtime, where
// installed, runs x: [17, 18, 0] and gives (1 + 2) / -1.
func TestBranchOfManySymbols(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("N"), param("M"), param("T")).
		i64("i0", []int64{}, 0).i64("i1", []int64{}, 1).i64("i2", []int64{}, 2).i64("i3", []int64{}, 3).
		i64("i8", []int64{}, 8).i64("i16", []int64{}, 16).i64("i100", []int64{}, 100).
		node("Shape", []string{"x"}, "s").
		node("Gather", []string{"s", "i0"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"s", "i1"}, "m", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"s", "i2"}, "t", onnxwire.IntAttr("axis", 0)).
		node("Sub", []string{"n", "i16"}, "n16").node("Clip", []string{"n16", "i1", "i3"}, "cn").
		node("Sub", []string{"m", "i16"}, "m16").node("Clip", []string{"m16", "i1", "i3"}, "cm").
		node("Add", []string{"cn", "cm"}, "a").
		node("Min", []string{"t", "i8"}, "t8").node("Sub", []string{"t8", "i1"}, "b").
		node("Less", []string{"t", "i100"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Div", "quot", []string{"a", "b"}, []string{"quot"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("quot", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Neg", "neg", []string{"a"}, []string{"neg"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("neg", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
	f := verdictOf(t, Model(g.imported(t), "many.onnx", Options{}), "quot")
	if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "pieces of the range of x.shape[2]") {
		t.Errorf("quot: %s %s, want %s, cut on T alone", f.Code, f.Message, FloorTruncAgree)
	}
	x, _ := ir.NewTensor(ir.F32, []int64{17, 18, 0})
	ortGives(t, g, map[string]*ir.Tensor{"x": x}, -3, "x: [17, 18, 0], (1 + 2) / -1")
}
