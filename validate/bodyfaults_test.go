package validate

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// bodyConst is a Constant node of a body: an i64 scalar.
func bodyConst(name string, v int64) []byte {
	return onnxwire.NodeAttrs("Constant", name, nil, []string{name}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, le64(v))))
}

// ifModel is an If on y > 0 whose then_branch computes q with nodes (of x
// and y) and whose else_branch gives x back.
func ifModel(then ...[]byte) *graph {
	return new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64).
		i64("zero", []int64{}, 0).
		node("Greater", []string{"y", "zero"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", then, nil, nil, [][]byte{onnxwire.Rankless("q", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Identity", "same", []string{"x"}, []string{"same"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("same", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
}

// loopModel is a Loop of three iterations summing r, which nodes compute
// of x and the iteration i, into v.
func loopModel(nodes ...[]byte) *graph {
	nodes = append(nodes,
		onnxwire.Node("Add", "v_out", []string{"v_in", "r"}, []string{"v_out"}),
		onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}))
	return new(graph).input("x", onnxwire.Int64).
		i64("trip", []int64{}, 3).i64("v0", []int64{}, 0).
		node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
		nodeN("Loop", []string{"trip", "go", "v0"}, []string{"v"},
			onnxwire.GraphAttr("body", onnxwire.Graph("body", nodes, nil,
				[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}),
					onnxwire.Rankless("v_in", onnxwire.Int64)},
				[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("v_out", onnxwire.Int64)}))).
		output("v", onnxwire.Int64)
}

// TestFaultsInBodies: a zero divisor or a MIN / -1 (MIN % -1) that the
// model's inputs can make at a Div or Mod inside an If, Loop or Scan
// (TensorIterator) body is a warning with a counter-example at the
// model's inputs, on the layer that holds the body (Finding.Inner the Div
// or Mod), as one of the outer graph is;
// a constant 0 divisor in a body stays an error; a divisor that cannot be
// 0 (or -1) gets nothing. Where ONNX Runtime is installed, each
// counter-example is replayed on the ONNX model: a zero divisor fails the
// run with ONNX Runtime's error, MIN / -1 and MIN % -1 of fmod 0 kill
// node with SIGFPE (node runs ONNX Runtime, not this process), MIN % -1
// of fmod 1 runs.
func TestFaultsInBodies(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	type want struct {
		code     Code
		severity Severity
	}
	for _, tc := range []struct {
		name   string
		g      *graph
		holder string // the type of the layer that holds the body
		inner  string // the Div or Mod the findings name
		want   []want // the zero-divisor and overflow findings, in any order
		// check looks at a warning's counter-example.
		check func(t *testing.T, f Finding)
	}{
		{
			// y > 0 in the branch: y = 3 makes the divisor 0, y = 2 -1.
			name: "if x / (y - 3)",
			g: ifModel(bodyConst("three", 3),
				onnxwire.Node("Sub", "d", []string{"y", "three"}, []string{"d"}),
				onnxwire.Node("Div", "q", []string{"x", "d"}, []string{"q"})),
			holder: "If", inner: "q",
			want: []want{{ZeroDivisor, Warning}, {Overflow, Warning}},
			check: func(t *testing.T, f Finding) {
				x, y := ir.View[int64](f.CounterExample.Inputs["x"])[0], ir.View[int64](f.CounterExample.Inputs["y"])[0]
				ex, _ := f.Evidence.Get("example").(string)
				switch {
				case f.Code == ZeroDivisor && (y != 3 || !strings.HasSuffix(ex, " / 0")):
					t.Errorf("y = %d, example %q: want 3, a division by 0", y, ex)
				case f.Code == Overflow && (x != math.MinInt64 || y != 2):
					t.Errorf("x = %d, y = %d: want MIN and 2", x, y)
				}
			},
		},
		{
			// The divisor i - 1 is 0 at the second iteration, whatever x,
			// and -1 at the first: MIN % -1 where x is MIN.
			name: "loop x % (i - 1)",
			g: loopModel(bodyConst("one", 1),
				onnxwire.Node("Sub", "d", []string{"i", "one"}, []string{"d"}),
				onnxwire.Node("Mod", "r", []string{"x", "d"}, []string{"r"})),
			holder: "Loop", inner: "r",
			want: []want{{ModZeroDivisor, Warning}, {ModOverflow, Warning}},
			check: func(t *testing.T, f Finding) {
				ex, _ := f.Evidence.Get("example").(string)
				switch {
				case f.Code == ModZeroDivisor && !strings.HasSuffix(ex, " % 0"):
					t.Errorf("example %q", ex)
				case f.Code == ModOverflow && ir.View[int64](f.CounterExample.Inputs["x"])[0] != math.MinInt64:
					t.Errorf("x = %v, want MIN", f.CounterExample.Inputs["x"])
				}
				if !strings.Contains(f.Message, "the FloorMod layer \"r\"") || !strings.Contains(f.Message, "inside the body of Loop") {
					t.Errorf("the message does not say where the Mod is: %s", f.Message)
				}
			},
		},
		{
			// -y is in [-MAX, -1] where y > 0: MIN % -1 at y = 1, which
			// ONNX Runtime computes (fmod 1) as 0.
			name: "if x fmod -y",
			g: ifModel(onnxwire.Node("Neg", "d", []string{"y"}, []string{"d"}),
				onnxwire.NodeAttrs("Mod", "q", []string{"x", "d"}, []string{"q"}, onnxwire.IntAttr("fmod", 1))),
			holder: "If", inner: "q",
			want: []want{{ModOverflow, Warning}},
			check: func(t *testing.T, f Finding) {
				x, y := f.CounterExample.Inputs["x"], f.CounterExample.Inputs["y"]
				if x == nil || y == nil || ir.View[int64](x)[0] != math.MinInt64 || ir.View[int64](y)[0] != 1 {
					t.Errorf("x = %v, y = %v, want MIN and 1", x, y)
				}
			},
		},
		{
			// -y is in [-MAX, -1] where y > 0: never 0, -1 at y = 1.
			name: "if x / -y",
			g: ifModel(onnxwire.Node("Neg", "d", []string{"y"}, []string{"d"}),
				onnxwire.Node("Div", "q", []string{"x", "d"}, []string{"q"})),
			holder: "If", inner: "q",
			want: []want{{Overflow, Warning}},
			check: func(t *testing.T, f Finding) {
				x, y := f.CounterExample.Inputs["x"], f.CounterExample.Inputs["y"]
				if x == nil || y == nil || ir.View[int64](x)[0] != math.MinInt64 || ir.View[int64](y)[0] != 1 {
					t.Errorf("x = %v, y = %v, want MIN and 1", x, y)
				}
			},
		},
		{
			// An If nested in the Loop's body, dividing x by i - 1: 0 at
			// the second iteration (the nested If's inference, run with
			// the iteration's values, fails there first), -1 at the first.
			name: "loop > if x / (i - 1)",
			g: loopModel(onnxwire.NodeAttrs("If", "branch", []string{"cond_in"}, []string{"r"},
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
					bodyConst("one", 1),
					onnxwire.Node("Sub", "d", []string{"i", "one"}, []string{"d"}),
					onnxwire.Node("Div", "q", []string{"x", "d"}, []string{"q"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("q", onnxwire.Int64)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
					onnxwire.Node("Identity", "same", []string{"x"}, []string{"same"}),
				}, nil, nil, [][]byte{onnxwire.Rankless("same", onnxwire.Int64)})))),
			holder: "Loop", inner: "q",
			want: []want{{ZeroDivisor, Warning}, {Overflow, Warning}},
			check: func(t *testing.T, f Finding) {
				if p, _ := f.Evidence.Get("divide").(string); !strings.Contains(p, "body > layer \"branch\"") {
					t.Errorf("path %q", p)
				}
			},
		},
		{
			// A Scan (a TensorIterator) of x's elements e: e / (e - 3) is
			// a division by zero where an element of x is 3, never MIN / -1.
			name: "scan e / (e - 3)",
			g: new(graph).input("x", onnxwire.Int64, fixed(3)).i64("s0", []int64{}, 0).
				nodeN("Scan", []string{"s0", "x"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1),
					onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
						bodyConst("three", 3),
						onnxwire.Node("Sub", "d", []string{"e", "three"}, []string{"d"}),
						onnxwire.Node("Div", "q", []string{"e", "d"}, []string{"q"}),
						onnxwire.Node("Add", "s_out", []string{"s_in", "q"}, []string{"s_out"}),
						onnxwire.Node("Identity", "y", []string{"q"}, []string{"y"}),
					}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})},
						[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64), onnxwire.Rankless("y", onnxwire.Int64)}))).
				output("s", onnxwire.Int64).output("ys", onnxwire.Int64),
			holder: "TensorIterator", inner: "q",
			want: []want{{ZeroDivisor, Warning}},
			check: func(t *testing.T, f Finding) {
				if x := f.CounterExample.Inputs["x"]; x == nil || !slices.Contains(ir.View[int64](x), 3) {
					t.Errorf("x = %v, want a 3", x)
				}
			},
		},
		{
			name: "if x / 0",
			g: ifModel(bodyConst("zero_d", 0),
				onnxwire.Node("Div", "q", []string{"x", "zero_d"}, []string{"q"})),
			holder: "If", inner: "q",
			want: []want{{ZeroDivisor, Error}},
		},
		{
			name: "loop x % 0",
			g: loopModel(bodyConst("zero_d", 0),
				onnxwire.Node("Mod", "r", []string{"x", "zero_d"}, []string{"r"})),
			holder: "Loop", inner: "r",
			want: []want{{ModZeroDivisor, Error}},
		},
		{
			// y > 0 in the branch: never 0, never -1.
			name: "if x / y",
			g:    ifModel(onnxwire.Node("Div", "q", []string{"x", "y"}, []string{"q"})),
		},
		{
			// i + 1 is in [1, 3].
			name: "loop x % (i + 1)",
			g: loopModel(bodyConst("one", 1),
				onnxwire.Node("Add", "d", []string{"i", "one"}, []string{"d"}),
				onnxwire.Node("Mod", "r", []string{"x", "d"}, []string{"r"})),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Model(tc.g.imported(t), "m.onnx", Options{})
			fs := findings(r)
			var got []Finding
			for _, c := range []Code{ZeroDivisor, ModZeroDivisor, Overflow, ModOverflow} {
				got = append(got, fs[c]...)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %v", got, tc.want)
			}
			for i, w := range tc.want {
				f := got[i]
				if f.Code != w.code || f.Severity != w.severity {
					t.Fatalf("%s %s, want %s %s: %s", f.Severity, f.Code, w.severity, w.code, f.Message)
				}
				t.Logf("%s: %s", f.Code, f.Message)
				if f.Layer.Type != tc.holder || f.Inner == nil || f.Inner.Name != tc.inner || f.Evidence.Get("divide") == nil {
					t.Errorf("on %s, inner %v, path %v: want on the %s, naming %s", f.Layer, f.Inner, f.Evidence.Get("divide"), tc.holder, tc.inner)
				}
				ort := map[Code]string{ZeroDivisor: "Integer division by zero", ModZeroDivisor: "Integer modulo by zero", Overflow: "floating point exception"}[f.Code]
				if f.Code == ModOverflow && f.Inner.Type == "FloorMod" {
					ort = "floating point exception" // ONNX's Mod, fmod 0; fmod 1 computes 0 (ort "")
				}
				checkFault(t, f, tc.g, tc.check, runner, ortErr, ort)
			}
		})
	}
}
