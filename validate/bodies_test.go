package validate

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// bodyModels are ONNX models whose integer Divs sit inside If, Loop and
// Scan bodies, fed by the outer graph; for each Div, the verdict it must get
// now that the values of the outer graph reach it.
var bodyModels = []struct {
	name string
	g    *graph
	want map[string]Code // by the Div's output
	// onnx computes the outputs checked as ONNX does (truncating), from
	// the i64 inputs (their elements).
	onnx func(in map[string][]int64) map[string][]int64
}{
	{
		// x / 2 where y > 0: x = -3 gives -3 / 2.
		name: "if",
		g: new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64).
			i64("zero", []int64{}, 0).i64("one", []int64{}, 1).
			node("Greater", []string{"y", "zero"}, "cond").
			node("If", []string{"cond"}, "out",
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "half", []string{"x", "two"}, []string{"half"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Sub", "less", []string{"x", "one"}, []string{"less"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("less", onnxwire.Int64)}))).
			output("out", onnxwire.Int64),
		want: map[string]Code{"half": FloorTrunc},
		onnx: func(in map[string][]int64) map[string][]int64 {
			if in["y"][0] > 0 {
				return map[string][]int64{"out": {in["x"][0] / 2}}
			}
			return map[string][]int64{"out": {in["x"][0] - 1}}
		},
	},
	{
		// A dim of x over 2 inside a branch: never negative, which the
		// branch alone cannot know (its n could be any i64).
		name: "if-dim",
		g: new(graph).input("x", onnxwire.Float, param("N")).input("y", onnxwire.Int64).
			i64("zero", []int64{}, 0).
			node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Greater", []string{"y", "zero"}, "cond").
			node("If", []string{"cond"}, "out",
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "half", []string{"n", "two"}, []string{"half"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Neg", "neg", []string{"n"}, []string{"neg"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("neg", onnxwire.Int64)}))).
			output("out", onnxwire.Int64),
		want: map[string]Code{"half": FloorTruncAgree},
	},
	{
		// if x >= 0: x / 2 else: 0 - x: the branch runs where x is not
		// negative, which it knows.
		name: "if-guard",
		g: new(graph).input("x", onnxwire.Int64).
			i64("zero", []int64{}, 0).
			node("GreaterOrEqual", []string{"x", "zero"}, "cond").
			node("If", []string{"cond"}, "out",
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "guarded", []string{"x", "two"}, []string{"guarded"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("guarded", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Sub", "negated", []string{"zero", "x"}, []string{"negated"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("negated", onnxwire.Int64)}))).
			output("out", onnxwire.Int64),
		want: map[string]Code{"guarded": FloorTruncAgree},
	},
	{
		// Three iterations of v += x / 3 (x invariant: -1 gives -1 / 3)
		// and of w += i / 2 (the iteration is never negative).
		name: "loop",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 3).i64("v0", []int64{}, 0).
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "v0", "v0"}, []string{"v", "w"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "three", nil, []string{"three"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(3)))),
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "third", []string{"x", "three"}, []string{"third"}),
					onnxwire.Node("Add", "v_out", []string{"v_in", "third"}, []string{"v_out"}),
					onnxwire.Node("Div", "iter_half", []string{"i", "two"}, []string{"iter_half"}),
					onnxwire.Node("Add", "w_out", []string{"w_in", "iter_half"}, []string{"w_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}),
						onnxwire.Rankless("v_in", onnxwire.Int64), onnxwire.Rankless("w_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("v_out", onnxwire.Int64), onnxwire.Rankless("w_out", onnxwire.Int64)}))).
			output("v", onnxwire.Int64).output("w", onnxwire.Int64),
		want: map[string]Code{"third": FloorTrunc, "iter_half": FloorTruncAgree},
		onnx: func(in map[string][]int64) map[string][]int64 { return map[string][]int64{"v": {3 * (in["x"][0] / 3)}} },
	},
	{
		// c = Shape(y)[1:-1] of y: i64[2, H], empty at every shape, then
		// c / -3 three times: every iteration gives back c's dims, so c
		// is empty at each (seeds 1947, 2136 of the differential; the body
		// alone, its c of any dims, could not tell).
		name: "loop-carried empty value",
		g: new(graph).input("y", onnxwire.Int64, fixed(2), param("H")).
			i64("trip", []int64{}, 3).i64("start", []int64{1}, 1).i64("stop", []int64{1}, -1).
			node("Shape", []string{"y"}, "s").node("Slice", []string{"s", "start", "stop"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "m3", nil, []string{"m3"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(-3)))),
					onnxwire.Node("Div", "c_third", []string{"c_in", "m3"}, []string{"c_third"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_third", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"c_third": FloorTruncAgree},
	},
	{
		// The same empty c, given back with -1 appended after c / 2: at
		// the second iteration c is [-1], and -1 / 2 differs. The dims
		// the body gives back are not c's: they hold at no iteration.
		name: "loop-carried dims that grow",
		g: new(graph).input("y", onnxwire.Int64, fixed(2), param("H")).
			i64("trip", []int64{}, 3).i64("start", []int64{1}, 1).i64("stop", []int64{1}, -1).
			node("Shape", []string{"y"}, "s").node("Slice", []string{"s", "start", "stop"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.NodeAttrs("Constant", "m1", nil, []string{"m1"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{1}, le64(-1)))),
					onnxwire.Node("Div", "c_half", []string{"c_in", "two"}, []string{"c_half"}),
					onnxwire.NodeAttrs("Concat", "c_out", []string{"c_half", "m1"}, []string{"c_out"}, onnxwire.IntAttr("axis", 0)),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"c_half": FloorTrunc},
		// [] gives [-1], then [-1 / 2, -1] = [0, -1], then [0, 0, -1].
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"c": {0, 0, -1}} },
	},
	{
		// c = x % 2 and c iterations of c = (c - 16) / 3: the first runs
		// only where c is 1, and -15 / 3 is exact (seed 2425 of the
		// differential); where c is 0 no iteration runs, and -16 / 3,
		// which differs, is never computed.
		name: "loop iteration past the trip count",
		g: new(graph).input("x", onnxwire.Int64).
			i64("two", []int64{}, 2).
			node("Mod", []string{"x", "two"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"c0", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "three", nil, []string{"three"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(3)))),
					onnxwire.NodeAttrs("Constant", "sixteen", nil, []string{"sixteen"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(16)))),
					onnxwire.Node("Sub", "less", []string{"c_in", "sixteen"}, []string{"less"}),
					onnxwire.Node("Div", "c_out", []string{"less", "three"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"c_out": FloorTruncAgree},
	},
	{
		// The same body, c + 1 iterations: the first runs at c = 0 too,
		// where -16 / 3 differs.
		name: "loop iteration within the trip count",
		g: new(graph).input("x", onnxwire.Int64).
			i64("two", []int64{}, 2).i64("one", []int64{}, 1).
			node("Mod", []string{"x", "two"}, "c0").node("Add", []string{"c0", "one"}, "trip").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "three", nil, []string{"three"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(3)))),
					onnxwire.NodeAttrs("Constant", "sixteen", nil, []string{"sixteen"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(16)))),
					onnxwire.Node("Sub", "less", []string{"c_in", "sixteen"}, []string{"less"}),
					onnxwire.Node("Div", "c_out", []string{"less", "three"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"c_out": FloorTrunc},
		onnx: func(in map[string][]int64) map[string][]int64 {
			c := ((in["x"][0] % 2) + 2) % 2
			for range c + 1 {
				c = (c - 16) / 3
			}
			return map[string][]int64{"c": {c}}
		},
	},
	{
		// One iteration of a c = Shape(x)[0]: If(c < i), at i = 0, never
		// takes its then_branch, whose Mod(max(c, 7), -2) / 16 would
		// divide -1 (seed 642 of the differential); the else_branch's c -
		// 5 makes c negative, so that a walk for every iteration at once
		// sees the branch run.
		name: "loop branch dead at its iteration",
		g: new(graph).input("x", onnxwire.Float, param("N")).
			i64("one", []int64{}, 1).i64("zero", []int64{}, 0).
			node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "c0", onnxwire.IntAttr("axis", 0)).
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"one", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Less", "below", []string{"c_in", "i"}, []string{"below"}),
					onnxwire.NodeAttrs("If", "c_out", []string{"below"}, []string{"c_out"},
						onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
							onnxwire.NodeAttrs("Constant", "seven", nil, []string{"seven"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(7)))),
							onnxwire.NodeAttrs("Constant", "m2", nil, []string{"m2"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(-2)))),
							onnxwire.NodeAttrs("Constant", "sixteen", nil, []string{"sixteen"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(16)))),
							onnxwire.Node("Max", "big", []string{"c_in", "seven"}, []string{"big"}),
							onnxwire.Node("Mod", "rem", []string{"big", "m2"}, []string{"rem"}),
							onnxwire.Node("Div", "rem16", []string{"rem", "sixteen"}, []string{"rem16"}),
						}, nil, nil, [][]byte{onnxwire.Rankless("rem16", onnxwire.Int64)})),
						onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
							onnxwire.NodeAttrs("Constant", "five", nil, []string{"five"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(5)))),
							onnxwire.Node("Sub", "less", []string{"c_in", "five"}, []string{"less"}),
						}, nil, nil, [][]byte{onnxwire.Rankless("less", onnxwire.Int64)}))),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"rem16": FloorTruncAgree},
	},
	{
		// c = max(min(x, 5), 0), then c / 2 + 1 three times: every
		// iteration keeps c within [0, 5], so c / 2 never floors a
		// negative (the body alone, its c any i64, could not tell).
		name: "loop-carried range",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 3).i64("zero", []int64{}, 0).i64("five", []int64{}, 5).
			node("Min", []string{"x", "five"}, "low").node("Max", []string{"low", "zero"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.NodeAttrs("Constant", "one", nil, []string{"one"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(1)))),
					onnxwire.Node("Div", "c_half", []string{"c_in", "two"}, []string{"c_half"}),
					onnxwire.Node("Add", "c_out", []string{"c_half", "one"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			i64("three", []int64{}, 3).node("Div", []string{"c", "three"}, "after").
			output("after", onnxwire.Int64),
		// The Loop's last c is one of the range too: c / 3 after it.
		want: map[string]Code{"c_half": FloorTruncAgree, "after": FloorTruncAgree},
	},
	{
		// c = max(x, 5), then c = (c - 1) / 2 twice: c is at least 5, then
		// at least 2, so c - 1 is positive at both iterations. A range
		// kept by every iteration cannot tell: [2, MAX] gives back [0,
		// MAX/2], and c - 1 reaches -1; the two iterations walked one at
		// a time can.
		name: "loop-unrolled",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 2).i64("five", []int64{}, 5).
			node("Max", []string{"x", "five"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.NodeAttrs("Constant", "one", nil, []string{"one"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(1)))),
					onnxwire.Node("Sub", "less", []string{"c_in", "one"}, []string{"less"}),
					onnxwire.Node("Div", "less_half", []string{"less", "two"}, []string{"less_half"}),
					onnxwire.Node("Identity", "c_out", []string{"less_half"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"less_half": FloorTruncAgree},
	},
	{
		// c = 4 - c twice from c = clip(x, 5, 5): 5, -1, 5. Every value c
		// takes lies in [-1, 5], but a Loop of two iterations, whose
		// condition stays true, ends at the second: c / 2 after it
		// divides 5.
		name: "loop-last-value",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 2).i64("five", []int64{}, 5).i64("four", []int64{}, 4).i64("two", []int64{}, 2).
			node("Clip", []string{"x", "five", "five"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Sub", "c_out", []string{"four", "c_in"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			node("Div", []string{"c", "two"}, "after").
			output("after", onnxwire.Int64),
		want: map[string]Code{"after": FloorTruncAgree},
	},
	{
		// A Loop of min(max(x, 0), 0) = 0 iterations: its body never runs,
		// and its c / -3 divides nothing; nor does the else branch of an
		// If whose condition |clip(x, -5, 5)| + 1 > 0 always holds.
		name: "never-runs",
		g: new(graph).input("x", onnxwire.Int64).
			i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("two", []int64{}, 2).i64("five", []int64{}, 5).i64("minus5", []int64{}, -5).
			node("Max", []string{"x", "zero"}, "pos").node("Min", []string{"pos", "zero"}, "trip").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "x"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "minus3", nil, []string{"minus3"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(-3)))),
					onnxwire.Node("Div", "dead_div", []string{"c_in", "minus3"}, []string{"dead_div"}),
					onnxwire.Node("Identity", "c_out", []string{"dead_div"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			node("Clip", []string{"x", "minus5", "five"}, "clipped").node("Abs", []string{"clipped"}, "size").
			node("Add", []string{"size", "one"}, "size1").node("Greater", []string{"size1", "zero"}, "always").
			node("If", []string{"always"}, "out",
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					onnxwire.Node("Add", "then_out", []string{"x", "one"}, []string{"then_out"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("then_out", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Neg", "neg", []string{"x"}, []string{"neg"}),
					onnxwire.Node("Div", "dead_else", []string{"neg", "two"}, []string{"dead_else"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("dead_else", onnxwire.Int64)}))).
			output("c", onnxwire.Int64).output("out", onnxwire.Int64),
		want: map[string]Code{"dead_div": FloorTruncAgree, "dead_else": FloorTruncAgree},
	},
	{
		// A Loop of clip(y[-1] - y[2], 0, 3) iterations, y: i64[3]: 0 at
		// the declared shape, where y[-1] is y[2], not at others (y of 6
		// elements runs it); its c / -3 was taken never to run at any
		// shape (seed 36473 of the differential, 36000-38999).
		name: "never-runs-at-the-declared-shape-only",
		g: new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64, fixed(3)).
			i64("zero", []int64{}, 0).i64("two", []int64{}, 2).i64("three", []int64{}, 3).i64("last", []int64{}, -1).
			node("Gather", []string{"y", "last"}, "ylast", onnxwire.IntAttr("axis", 0)).node("Gather", []string{"y", "two"}, "y2", onnxwire.IntAttr("axis", 0)).
			node("Sub", []string{"ylast", "y2"}, "gap").node("Clip", []string{"gap", "zero", "three"}, "trip").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "x"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "minus3", nil, []string{"minus3"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(-3)))),
					onnxwire.Node("Div", "maybe_dead", []string{"c_in", "minus3"}, []string{"maybe_dead"}),
					onnxwire.Node("Identity", "c_out", []string{"maybe_dead"}, []string{"c_out"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			output("c", onnxwire.Int64),
		want: map[string]Code{"maybe_dead": FloorTruncPossible},
	},
	{
		// c = -c twice from c = clip(x, 2, 2): 2, -2. The values c takes
		// lie in [-2, 2], where |c| / -2 may be 1 / -2; but the Loop's two
		// iterations, walked one at a time, divide 2 and 2 (seed 2603 of
		// the differential).
		name: "loop-each-iteration",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 2).i64("two", []int64{}, 2).i64("minus2", []int64{}, -2).
			node("Clip", []string{"x", "two", "two"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c", "halves"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Neg", "c_out", []string{"c_in"}, []string{"c_out"}),
					onnxwire.Node("Abs", "size", []string{"c_in"}, []string{"size"}),
					onnxwire.Node("Div", "abs_half", []string{"size", "minus2"}, []string{"abs_half"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64), onnxwire.Rankless("abs_half", onnxwire.Int64)}))).
			output("c", onnxwire.Int64).output("halves", onnxwire.Int64),
		want: map[string]Code{"abs_half": FloorTruncAgree},
	},
	{
		// c = c - 2 from c = clip(x, 3, 3): c / 2 divides 3, 1 and, at a
		// third iteration, -1. Walked one at a time, two iterations agree
		// and three do not.
		name: "loop-each-iteration-two",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 2).i64("two", []int64{}, 2).i64("three", []int64{}, 3).
			node("Clip", []string{"x", "three", "three"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c", "halves"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Sub", "c_out", []string{"c_in", "two"}, []string{"c_out"}),
					onnxwire.Node("Div", "half2", []string{"c_in", "two"}, []string{"half2"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64), onnxwire.Rankless("half2", onnxwire.Int64)}))).
			output("c", onnxwire.Int64).output("halves", onnxwire.Int64),
		want: map[string]Code{"half2": FloorTruncAgree},
	},
	{
		name: "loop-each-iteration-three",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 3).i64("two", []int64{}, 2).i64("three", []int64{}, 3).
			node("Clip", []string{"x", "three", "three"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c", "halves"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Sub", "c_out", []string{"c_in", "two"}, []string{"c_out"}),
					onnxwire.Node("Div", "half3", []string{"c_in", "two"}, []string{"half3"}),
					onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64), onnxwire.Rankless("half3", onnxwire.Int64)}))).
			output("c", onnxwire.Int64).output("halves", onnxwire.Int64),
		want: map[string]Code{"half3": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 {
			return map[string][]int64{"c": {-3}, "halves": {1, 0, 0}}
		},
	},
	{
		// As loop-last-value, but the body goes on only while c > 0: the
		// Loop stops after one iteration, at c = -1, which c / 2 floors.
		name: "loop-stops-early",
		g: new(graph).input("x", onnxwire.Int64).
			i64("trip", []int64{}, 2).i64("five", []int64{}, 5).i64("four", []int64{}, 4).i64("two", []int64{}, 2).i64("zero", []int64{}, 0).
			node("Clip", []string{"x", "five", "five"}, "c0").
			node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
			nodeN("Loop", []string{"trip", "go", "c0"}, []string{"c"},
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.Node("Sub", "c_out", []string{"four", "c_in"}, []string{"c_out"}),
					onnxwire.Node("Greater", "cond_out", []string{"c_out", "zero"}, []string{"cond_out"}),
				}, nil,
					[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Rankless("c_in", onnxwire.Int64)},
					[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("c_out", onnxwire.Int64)}))).
			node("Div", []string{"c", "two"}, "after").
			output("after", onnxwire.Int64),
		want: map[string]Code{"after": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"after": {0}} },
	},
	{
		// A Scan (a TensorIterator) summing x's elements halved, last to
		// first: each element of x reaches the body, -1 gives -1 / 2.
		name: "scan",
		g: new(graph).input("x", onnxwire.Int64, fixed(3)).i64("s0", []int64{}, 0).
			nodeN("Scan", []string{"s0", "x"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1), onnxwire.IntsAttr("scan_input_directions", 1),
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "elem_half", []string{"e", "two"}, []string{"elem_half"}),
					onnxwire.Node("Add", "s_out", []string{"s_in", "elem_half"}, []string{"s_out"}),
					onnxwire.Node("Identity", "y", []string{"elem_half"}, []string{"y"}),
				}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})},
					[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y", onnxwire.Int64)}))).
			output("s", onnxwire.Int64).output("ys", onnxwire.Int64),
		want: map[string]Code{"elem_half": FloorTrunc},
		onnx: func(in map[string][]int64) map[string][]int64 {
			var s int64
			ys := make([]int64, len(in["x"]))
			for i := len(in["x"]) - 1; i >= 0; i-- {
				ys[len(ys)-1-i] = in["x"][i] / 2
				s += in["x"][i] / 2
			}
			return map[string][]int64{"s": {s}, "ys": ys}
		},
	},
	{
		// A Scan of x's shape: dims are never negative, so each halved
		// element floors as it truncates, which the body alone (its
		// element any i64) could not tell.
		name: "scan of a shape",
		g: new(graph).input("x", onnxwire.Float, param("N"), param("M")).i64("s0", []int64{}, 0).
			node("Shape", []string{"x"}, "dims").
			nodeN("Scan", []string{"s0", "dims"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1),
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "dim_half", []string{"d", "two"}, []string{"dim_half"}),
					onnxwire.Node("Max", "s_out", []string{"s_in", "dim_half"}, []string{"s_out"}),
					onnxwire.Node("Identity", "y", []string{"dim_half"}, []string{"y"}),
				}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("d", onnxwire.Int64, []onnxwire.Dim{})},
					[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y", onnxwire.Int64)}))).
			i64("three", []int64{}, 3).node("Div", []string{"s", "three"}, "after").
			output("after", onnxwire.Int64).output("ys", onnxwire.Int64),
		// s = max(0, halved dims): at least 0 at every iteration, and
		// after the Scan too.
		want: map[string]Code{"dim_half": FloorTruncAgree, "after": FloorTruncAgree},
	},
	{
		// A Scan of min([N, -2y], 6), each element e given (e + 2) / 2: N
		// is never negative and -2y is even, so each part divides alike
		// both ways, which the walk for every part at once (e anywhere
		// below 6) cannot tell. Each part walked on its own does (seed
		// 62 of the differential).
		name: "scan-each-part",
		g: new(graph).input("x", onnxwire.Float, param("N")).input("y", onnxwire.Int64).
			i64("s0", []int64{}, 0).i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).i64("minus2", []int64{}, -2).i64("six", []int64{}, 6).
			node("Shape", []string{"x"}, "dims").node("Gather", []string{"dims", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Unsqueeze", []string{"n", "axes"}, "n1").node("Mul", []string{"y", "minus2"}, "even").node("Unsqueeze", []string{"even", "axes"}, "even1").
			node("Concat", []string{"n1", "even1"}, "parts", onnxwire.IntAttr("axis", 0)).node("Min", []string{"parts", "six"}, "clipped").
			nodeN("Scan", []string{"s0", "clipped"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1),
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Add", "e2", []string{"e", "two"}, []string{"e2"}),
					onnxwire.Node("Div", "part_half", []string{"e2", "two"}, []string{"part_half"}),
					onnxwire.Node("Add", "s_out", []string{"s_in", "part_half"}, []string{"s_out"}),
					onnxwire.Node("Identity", "y_out", []string{"part_half"}, []string{"y_out"}),
				}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})},
					[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y_out", onnxwire.Int64)}))).
			output("s", onnxwire.Int64).output("ys", onnxwire.Int64),
		want: map[string]Code{"part_half": FloorTruncAgree},
	},
	{
		// The same walked last to first: the carried value is the element
		// before, -N at the second iteration, and -N / 2 floors where it
		// truncates for an odd N; first to last it would be N.
		name: "scan-each-part-reversed",
		g: new(graph).input("x", onnxwire.Int64, param("N")).
			i64("s0", []int64{}, 0).i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).
			node("Shape", []string{"x"}, "dims").node("Gather", []string{"dims", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Unsqueeze", []string{"n", "axes"}, "n1").node("Neg", []string{"n1"}, "minus_n1").
			node("Concat", []string{"n1", "minus_n1"}, "parts", onnxwire.IntAttr("axis", 0)).
			nodeN("Scan", []string{"s0", "parts"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1), onnxwire.IntsAttr("scan_input_directions", 1),
				onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
					onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
					onnxwire.Node("Div", "before_half", []string{"s_in", "two"}, []string{"before_half"}),
					onnxwire.Node("Identity", "s_out", []string{"e"}, []string{"s_out"}),
					onnxwire.Node("Identity", "y_out", []string{"before_half"}, []string{"y_out"}),
				}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})},
					[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y_out", onnxwire.Int64)}))).
			output("s", onnxwire.Int64).output("ys", onnxwire.Int64),
		want: map[string]Code{"before_half": FloorTrunc},
		onnx: func(in map[string][]int64) map[string][]int64 {
			n := int64(len(in["x"]))
			return map[string][]int64{"s": {n}, "ys": {0, -n / 2}}
		},
	},
	{
		// The then branch runs only where y > 20, and divides 3 - 4 by T:
		// the search left y at 1 and tried the operands' candidates and
		// its edge inputs only, none of which runs the branch (seed 85).
		name: "a branch the search must pick",
		g: new(graph).input("x", onnxwire.Float, fixed(4), param("T")).input("y", onnxwire.Int64).
			i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("three", []int64{}, 3).i64("twenty", []int64{}, 20).
			node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Gather", []string{"s", "one"}, "t", onnxwire.IntAttr("axis", 0)).
			node("Sub", []string{"three", "n"}, "minus1").node("Less", []string{"twenty", "y"}, "picked").
			node("If", []string{"picked"}, "out",
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					onnxwire.Node("Div", "branch_div", []string{"minus1", "t"}, []string{"branch_div"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("branch_div", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Identity", "other", []string{"n"}, []string{"other"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("other", onnxwire.Int64)}))).
			output("out", onnxwire.Int64),
		want: map[string]Code{"branch_div": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"out": {0}} },
	},
	{
		// Not a body: int64(float(K) / 8) / -2, a value irdiv does not
		// follow (a float converted), is 1 / -2 at K in [8, 15]; the
		// search tried K = 32 and its small edge dims only, the
		// expression naming no K (seed 30).
		name: "a value irdiv does not follow is still searched by its inputs",
		g: new(graph).input("x", onnxwire.Float, fixed(1), param("K")).
			i64("one", []int64{}, 1).f32("eighth", 1.0/8).i64("minus2", []int64{}, -2).
			node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "one"}, "k", onnxwire.IntAttr("axis", 0)).
			node("Cast", []string{"k"}, "kf", onnxwire.IntAttr("to", onnxwire.Float)).node("Mul", []string{"kf", "eighth"}, "ks").
			node("Cast", []string{"ks"}, "ki", onnxwire.IntAttr("to", onnxwire.Int64)).
			node("Div", []string{"ki", "minus2"}, "cast_div").
			output("cast_div", onnxwire.Int64),
		want: map[string]Code{"cast_div": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"cast_div": {0}} },
	},
	{
		// Not a body: |y| / 3 has a remainder only at y = MIN, whose
		// absolute value is MIN; the search's evaluation of max(-y, y)
		// failed there (-MIN leaves int64), so it never offered it (seed
		// 299).
		name: "the absolute value of MIN",
		g: new(graph).input("y", onnxwire.Int64).i64("three", []int64{}, 3).
			node("Abs", []string{"y"}, "a").node("Div", []string{"a", "three"}, "abs_div").
			output("abs_div", onnxwire.Int64),
		want: map[string]Code{"abs_div": FloorTrunc},
		onnx: func(in map[string][]int64) map[string][]int64 {
			y := in["y"][0]
			if y < 0 {
				y = -y // MIN stays MIN, as in ONNX Runtime
			}
			return map[string][]int64{"abs_div": {y / 3}}
		},
	},
	{
		// Not a body: a MaxPool with ceil_mode that drops its last window
		// ([N, 1, 2, 1] gives [N, 1, 1, 1]; ONNX Runtime's shape inference
		// keeps it), fed by a Relu of the size it keeps. ONNX Runtime's
		// planner can hand the pooling's buffer only to a tensor made
		// after it, so the model runs; the search refused every input
		// (seed 379), and (2*1 - 3) / 2 was a warning.
		name: "a dropped pooling window beside a tensor made before it",
		g: new(graph).input("x", onnxwire.Float, param("N"), fixed(1), fixed(2), fixed(1)).
			i64("i2", []int64{}, 2).i64("two", []int64{}, 2).i64("three", []int64{}, 3).
			node("Relu", []string{"x"}, "r").
			node("MaxPool", []string{"r"}, "p", onnxwire.IntsAttr("kernel_shape", 1, 1), onnxwire.IntsAttr("strides", 2, 1), onnxwire.IntAttr("ceil_mode", 1)).
			node("Shape", []string{"p"}, "ps").node("Gather", []string{"ps", "i2"}, "h", onnxwire.IntAttr("axis", 0)).
			node("Mul", []string{"h", "two"}, "h2").node("Sub", []string{"h2", "three"}, "d").node("Div", []string{"d", "two"}, "pool_div").
			output("pool_div", onnxwire.Int64),
		want: map[string]Code{"pool_div": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"pool_div": {0}} },
	},
	{
		// Not a body: shape[h:] of a pooling's shape, h = ceil(L / 3) its
		// last dim, never negative; the Slice rule took the start as
		// either end, and the search evaluated the wrong one, where the
		// length 3 - h is 0 (seed 1454). L = 4 gives 1 / -2.
		name: "a slice start that is never negative",
		g: new(graph).input("x", onnxwire.Float, fixed(1), fixed(1), param("L")).
			i64("i2", []int64{}, 2).i64("zero", []int64{}, 0).i64("axis0", []int64{1}, 0).i64("max", []int64{1}, math.MaxInt64).i64("minus2", []int64{}, -2).
			node("AveragePool", []string{"x"}, "p", onnxwire.IntsAttr("kernel_shape", 1), onnxwire.IntsAttr("strides", 3), onnxwire.IntAttr("ceil_mode", 1)).
			node("Shape", []string{"p"}, "ps").node("Gather", []string{"ps", "i2"}, "h", onnxwire.IntAttr("axis", 0)).
			node("Unsqueeze", []string{"h", "axis0"}, "hv").node("Slice", []string{"ps", "hv", "max"}, "tail").
			node("Shape", []string{"tail"}, "ts").node("Gather", []string{"ts", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
			node("Div", []string{"n", "minus2"}, "slice_div").
			output("slice_div", onnxwire.Int64),
		want: map[string]Code{"slice_div": FloorTrunc},
		onnx: func(map[string][]int64) map[string][]int64 { return map[string][]int64{"slice_div": {0}} },
	},
	{
		// A Scan over x[:0], empty at every shape: its body never runs
		// (OpenVINO runs no iteration, ONNX Runtime 1.30 fails the model),
		// so its e / -3 divides nothing (seed 29 of the differential).
		name: "scan-of-nothing",
		g: new(graph).input("x", onnxwire.Int64, param("N")).i64("s0", []int64{}, 0).
			i64("zero", []int64{1}, 0).node("Slice", []string{"x", "zero", "zero"}, "none").
			nodeN("Scan", []string{"s0", "none"}, []string{"s"}, onnxwire.IntAttr("num_scan_inputs", 1), scanThirds()).
			output("s", onnxwire.Int64),
		want: map[string]Code{"elem_third": FloorTruncAgree},
	},
	{
		// As scan-of-nothing, but over x: i64[0], empty at the declared
		// shape only: x of one element 1 (a reshape) runs the body, and
		// 1 / -3. Its elements were tracked as none, so that x / -3 was
		// "proven": A = 0 (x_third). The body's was a warning only
		// (possible); as ONNX Runtime fails a Scan over nothing, the
		// model runs on no input of the declared shapes
		// (structure/never-runs), and its e / -3 is a question of other
		// shapes too.
		name: "nothing-at-the-declared-shape-only",
		g: new(graph).input("x", onnxwire.Int64, fixed(0)).i64("s0", []int64{}, 0).i64("minus3", []int64{}, -3).
			nodeN("Scan", []string{"s0", "x"}, []string{"s"}, onnxwire.IntAttr("num_scan_inputs", 1), scanThirds()).
			node("Div", []string{"x", "minus3"}, "x_third").
			output("s", onnxwire.Int64).output("x_third", onnxwire.Int64),
		want: map[string]Code{"elem_third": FloorTruncReshape, "x_third": FloorTruncReshape},
	},
}

// scanThirds is a Scan body adding e / -3 of each element e.
func scanThirds() []byte {
	return onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
		onnxwire.NodeAttrs("Constant", "minus3", nil, []string{"minus3"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(-3)))),
		onnxwire.Node("Div", "elem_third", []string{"e", "minus3"}, []string{"elem_third"}),
		onnxwire.Node("Add", "s_out", []string{"s_in", "elem_third"}, []string{"s_out"}),
	}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})},
		[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64)}))
}

// TestDivideInABodyGetsOuterValues: the Divs of If, Loop and Scan bodies are
// analysed with the values that reach them from the outer graph: proofs
// where those values make floor and truncation agree (the bodies alone
// could not tell), errors whose counter-example at the model's inputs is
// confirmed at its outputs; and ONNX Runtime, where installed, computes
// ONNX's truncation at each counter-example, where the IR floors.
func TestDivideInABodyGetsOuterValues(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	for _, tc := range bodyModels {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.g.bytes()
			r := Model(tc.g.imported(t), tc.name+".onnx", Options{})
			got := map[string]Finding{}
			for _, f := range r.Findings {
				if d := f.divide(); d != nil && verdicts[f.Code] != "" && len(d.Outputs) > 0 && len(d.Outputs[0].Names) > 0 {
					got[d.Outputs[0].Names[0]] = f
				}
			}
			for div, want := range tc.want {
				f, ok := got[div]
				if !ok || f.Code != want {
					t.Errorf("%s: %s (%s), want %s", div, f.Code, f.Message, want)
					continue
				}
				if f.Inner != nil && (!strings.Contains(f.Message, "inside the ") || f.Evidence.Get("divide") == nil) {
					t.Errorf("%s: the finding does not say where the Divide is: %s", div, f.Message)
				}
				if want != FloorTrunc {
					continue
				}
				if c := f.Evidence.Get("confirmed"); c != "outputs" {
					t.Errorf("%s: confirmed %v, want at the outputs", div, c)
				}
				if ortErr != nil {
					continue
				}
				// ONNX Runtime truncates at the counter-example: the
				// quotient it computes is the truncated one.
				dir := t.TempDir()
				path := filepath.Join(dir, "m.onnx")
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{f.CounterExample.Inputs}}})
				if err != nil || res[0][0].Err != nil {
					t.Fatalf("%s: ONNX Runtime: %v %v", div, err, res[0][0].Err)
				}
				elems := map[string][]int64{}
				for name, x := range f.CounterExample.Inputs {
					if x.Type == ir.I64 {
						elems[name] = ir.View[int64](x)
					}
				}
				for name, want := range tc.onnx(elems) {
					if o := res[0][0].Outputs[name]; o == nil || o.Type != ir.I64 || !slices.Equal(ir.View[int64](o), want) {
						t.Errorf("%s: ONNX Runtime gives %s = %v at %v, ONNX's truncation %d", div, name, o, elems, want)
					}
				}
				a, b := f.Evidence.Get("a_value").(int64), f.Evidence.Get("b_value").(int64)
				if a/b == divInt(a, b, true) {
					t.Errorf("%s: %d / %d floors and truncates alike", div, a, b)
				}
				t.Logf("%s: %s; ONNX Runtime's outputs %v", div, f.Evidence.Get("counter_example"), res[0][0].Outputs)
			}
			if len(r.Coverage.NotAnalysed) != 0 {
				t.Errorf("not analysed: %+v", r.Coverage.NotAnalysed)
			}
		})
	}
}

func le64(v int64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(uint64(v) >> (8 * i))
	}
	return b
}

// nodeN adds a node of several outputs.
func (g *graph) nodeN(op string, ins, outs []string, attrs ...[]byte) *graph {
	g.nodes = append(g.nodes, onnxwire.NodeAttrs(op, outs[0], ins, outs, attrs...))
	return g
}

// TestDivideInAScanBodyIsCounted: a Scan becomes a TensorIterator whose
// body's integer Div is analysed with the scanned values (an error: x's
// elements may be odd negatives); a Scan the import keeps opaque (scan
// inputs of different lengths) still has its Div counted and reported as
// not analysed, saying why, not skipped in silence.
func TestDivideInAScanBodyIsCounted(t *testing.T) {
	body := func(scanned ...string) []byte {
		var inputs [][]byte
		inputs = append(inputs, onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{fixed(2)}))
		for _, name := range scanned {
			inputs = append(inputs, onnxwire.ValueDims(name, onnxwire.Int64, []onnxwire.Dim{fixed(2)}))
		}
		return onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
			onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(2)))),
			onnxwire.Node("Div", "half", []string{"e", "two"}, []string{"half"}),
			onnxwire.Node("Add", "s_out", []string{"s_in", "half"}, []string{"s_out"}),
			onnxwire.Node("Identity", "y", []string{"half"}, []string{"y"}),
		}, nil, inputs, [][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y", onnxwire.Int64)}))
	}
	g := new(graph).input("x", onnxwire.Int64, fixed(3), fixed(2)).i64("s0", []int64{2}, 0, 0).
		nodeN("Scan", []string{"s0", "x"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1), body("e")).
		output("s", onnxwire.Int64).output("ys", onnxwire.Int64)
	r := Model(g.imported(t), "scan.onnx", Options{})
	if c := r.Coverage; c.IntegerDivides != 1 || c.Errors != 1 || len(c.NotAnalysed) != 0 {
		t.Fatalf("coverage %s", c)
	}
	errs := findings(r)[FloorTrunc]
	if len(errs) != 1 || errs[0].Inner == nil || errs[0].Inner.Name != "half" || errs[0].Layer.Type != "TensorIterator" {
		t.Errorf("%+v", errs)
	}

	kept := new(graph).input("x", onnxwire.Int64, fixed(3), fixed(2)).input("z", onnxwire.Int64, fixed(4), fixed(2)).i64("s0", []int64{2}, 0, 0).
		nodeN("Scan", []string{"s0", "x", "z"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 2), body("e", "unused")).
		output("s", onnxwire.Int64).output("ys", onnxwire.Int64)
	r = Model(kept.imported(t), "kept.onnx", Options{})
	if c := r.Coverage; c.IntegerDivides != 1 || len(c.NotAnalysed) != 1 {
		t.Fatalf("coverage %s", c)
	}
	warned := findings(r)[NotAnalysed]
	if len(warned) != 1 || warned[0].Inner == nil || warned[0].Inner.Name != "half" || warned[0].Layer.Type != "Scan" ||
		!strings.Contains(warned[0].Message, "the ONNX import kept this Scan as it is: ") || !strings.Contains(warned[0].Message, "give 3 and 4 iterations") {
		t.Errorf("%+v", warned)
	}
}

// tensorIteratorIR is an IR (from ONNX, its framework says) of one
// TensorIterator: it cuts x (i64[2]) and the shape of y into elements,
// sums x's halved ones (s, loop-carried) and gives both halves
// concatenated. Its body's weights: the i64 2 at offset 0.
const tensorIteratorIR = `<?xml version="1.0"?>
<net name="ti" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="2" element_type="i64"/>
			<output><port id="0" precision="I64" names="x"><dim>2</dim></port></output>
		</layer>
		<layer id="1" name="s0" type="Parameter" version="opset1">
			<data shape="1" element_type="i64"/>
			<output><port id="0" precision="I64" names="s0"><dim>1</dim></port></output>
		</layer>
		<layer id="2" name="y" type="Parameter" version="opset1">
			<data shape="?,?" element_type="f32"/>
			<output><port id="0" precision="FP32" names="y"><dim>-1</dim><dim>-1</dim></port></output>
		</layer>
		<layer id="3" name="dims" type="ShapeOf" version="opset3">
			<data output_type="i64"/>
			<input><port id="0" precision="FP32"><dim>-1</dim><dim>-1</dim></port></input>
			<output><port id="1" precision="I64"><dim>2</dim></port></output>
		</layer>
		<layer id="4" name="ti" type="TensorIterator" version="opset1">
			<input>
				<port id="0" precision="I64"><dim>2</dim></port>
				<port id="1" precision="I64"><dim>1</dim></port>
				<port id="2" precision="I64"><dim>2</dim></port>
			</input>
			<output>
				<port id="3" precision="I64" names="s"><dim>1</dim></port>
				<port id="4" precision="I64" names="halves"><dim>2</dim></port>
				<port id="5" precision="I64" names="dim_halves"><dim>2</dim></port>
			</output>
			<port_map>
				<input external_port_id="0" internal_layer_id="0" axis="0" start="0" end="-1" stride="1" part_size="1"/>
				<input external_port_id="1" internal_layer_id="1"/>
				<input external_port_id="2" internal_layer_id="2" axis="0" start="-1" end="0" stride="-1" part_size="1"/>
				<output external_port_id="3" internal_layer_id="7"/>
				<output external_port_id="4" internal_layer_id="8" axis="0"/>
				<output external_port_id="5" internal_layer_id="9" axis="0" start="-1" end="0" stride="-1"/>
			</port_map>
			<back_edges>
				<edge from-layer="7" from-port="0" to-layer="1" to-port="0"/>
			</back_edges>
			<body>
				<layers>
					<layer id="0" name="e" type="Parameter" version="opset1">
						<data shape="1" element_type="i64"/>
						<output><port id="0" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="1" name="s_in" type="Parameter" version="opset1">
						<data shape="1" element_type="i64"/>
						<output><port id="0" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="2" name="d" type="Parameter" version="opset1">
						<data shape="1" element_type="i64"/>
						<output><port id="0" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="3" name="two" type="Const" version="opset1">
						<data element_type="i64" shape="" offset="0" size="8"/>
						<output><port id="0" precision="I64"/></output>
					</layer>
					<layer id="4" name="half" type="Divide" version="opset1">
						<data auto_broadcast="numpy" m_pythondiv="true"/>
						<input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"/></input>
						<output><port id="2" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="5" name="s_out" type="Add" version="opset1">
						<data auto_broadcast="numpy"/>
						<input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"><dim>1</dim></port></input>
						<output><port id="2" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="6" name="dim_half" type="Divide" version="opset1">
						<data auto_broadcast="numpy" m_pythondiv="true"/>
						<input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"/></input>
						<output><port id="2" precision="I64"><dim>1</dim></port></output>
					</layer>
					<layer id="7" name="s_result" type="Result" version="opset1">
						<input><port id="0" precision="I64"><dim>1</dim></port></input>
					</layer>
					<layer id="8" name="half_result" type="Result" version="opset1">
						<input><port id="0" precision="I64"><dim>1</dim></port></input>
					</layer>
					<layer id="9" name="dim_half_result" type="Result" version="opset1">
						<input><port id="0" precision="I64"><dim>1</dim></port></input>
					</layer>
				</layers>
				<edges>
					<edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
					<edge from-layer="3" from-port="0" to-layer="4" to-port="1"/>
					<edge from-layer="1" from-port="0" to-layer="5" to-port="0"/>
					<edge from-layer="4" from-port="2" to-layer="5" to-port="1"/>
					<edge from-layer="2" from-port="0" to-layer="6" to-port="0"/>
					<edge from-layer="3" from-port="0" to-layer="6" to-port="1"/>
					<edge from-layer="5" from-port="2" to-layer="7" to-port="0"/>
					<edge from-layer="4" from-port="2" to-layer="8" to-port="0"/>
					<edge from-layer="6" from-port="2" to-layer="9" to-port="0"/>
				</edges>
			</body>
		</layer>
		<layer id="5" name="s_out" type="Result" version="opset1">
			<input><port id="0" precision="I64"><dim>1</dim></port></input>
		</layer>
		<layer id="6" name="halves_out" type="Result" version="opset1">
			<input><port id="0" precision="I64"><dim>2</dim></port></input>
		</layer>
		<layer id="7" name="dim_halves_out" type="Result" version="opset1">
			<input><port id="0" precision="I64"><dim>2</dim></port></input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="2" from-port="0" to-layer="3" to-port="0"/>
		<edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
		<edge from-layer="1" from-port="0" to-layer="4" to-port="1"/>
		<edge from-layer="3" from-port="1" to-layer="4" to-port="2"/>
		<edge from-layer="4" from-port="3" to-layer="5" to-port="0"/>
		<edge from-layer="4" from-port="4" to-layer="6" to-port="0"/>
		<edge from-layer="4" from-port="5" to-layer="7" to-port="0"/>
	</edges>
	<rt_info>
		<conversion_parameters>
			<framework value="onnx"/>
		</conversion_parameters>
	</rt_info>
</net>
`

// TestDivideInATensorIteratorBody: an IR's TensorIterator is read, run
// and validated as an imported Scan is: the Divide of x's elements gets an
// error confirmed at the outputs, that of the shape's elements a proof;
// and the model written again reads back the same.
func TestDivideInATensorIteratorBody(t *testing.T) {
	m, err := ir.ReadBytes([]byte(tensorIteratorIR), le64(2), ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, m *ir.Model) {
		r := Model(m, "ti.xml", Options{})
		if c := r.Coverage; c.IntegerDivides != 2 || c.Errors != 1 || c.Proven != 1 || len(c.NotAnalysed) != 0 {
			t.Fatalf("%s: coverage %s", what, c)
		}
		for code, inner := range map[Code]string{FloorTrunc: "half", FloorTruncAgree: "dim_half"} {
			fs := findings(r)[code]
			if len(fs) != 1 || fs[0].Inner == nil || fs[0].Inner.Name != inner || fs[0].Layer.Name != "ti" {
				t.Errorf("%s: %s: %+v", what, code, fs)
				continue
			}
			if code == FloorTrunc && fs[0].Evidence.Get("confirmed") != "outputs" {
				t.Errorf("%s: confirmed %v, want at the outputs", what, fs[0].Evidence.Get("confirmed"))
			}
		}
	}
	check("read", m)
	path := filepath.Join(t.TempDir(), "ti.xml")
	if err := ir.Write(m, path, ""); err != nil {
		t.Fatal(err)
	}
	back, err := ir.ReadFile(path, ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("written and read back", back)
}
