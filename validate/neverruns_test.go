package validate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// TestNeverRuns: a layer of the model's graph that runs on no input is an
// error, structure/never-runs, and the verdict of every integer Divide of
// the model says it is moot; a layer that runs on some input, one inside
// a body (which may not run), and an IR's Gather (OpenVINO gives zeros
// outside the axis) get nothing. v is x + [1, 2, 3], of dim 3 whatever
// the input x (a scalar). Where ONNX Runtime is installed, each ONNX
// model runs on x = 1, y = 0 where there is no finding, and fails there
// where there is one.
func TestNeverRuns(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the models are not run", ortErr)
	}
	three := func() *graph {
		return new(graph).input("x", onnxwire.Int64).i64("c", []int64{3}, 1, 2, 3).i64("two", []int64{}, 2).
			node("Add", []string{"x", "c"}, "v")
	}
	for _, tc := range []struct {
		name string
		g    *graph // an ONNX model
		// inputs names its inputs
		inputs string
		ir     func(t *testing.T) *ir.Model // or an IR
		// layer is the layer of the finding; "" for none.
		layer string
	}{
		{
			name:   "Gather of index 3 on an axis of 3",
			inputs: "x",
			g: three().i64("three", []int64{}, 3).node("Gather", []string{"v", "three"}, "g", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"g", "two"}, "div").output("div", onnxwire.Int64),
			layer: "g",
		},
		{
			name:   "Gather of an index y, out of range only at some inputs",
			inputs: "x y",
			g: three().input("y", onnxwire.Int64).node("Gather", []string{"v", "y"}, "g", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"g", "two"}, "div").output("div", onnxwire.Int64),
		},
		{
			name:   "Gather of index 3 on an axis of 3 inside an If branch",
			inputs: "x",
			g: three().i64("zero", []int64{}, 0).i64("three", []int64{}, 3).
				node("Less", []string{"x", "zero"}, "cond").
				node("If", []string{"cond"}, "out",
					onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
						onnxwire.NodeAttrs("Gather", "g", []string{"v", "three"}, []string{"g"}, onnxwire.IntAttr("axis", 0)),
						onnxwire.Node("Div", "div", []string{"g", "two"}, []string{"div"}),
					}, nil, nil, [][]byte{onnxwire.Rankless("div", onnxwire.Int64)})),
					onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
						onnxwire.Node("Div", "other", []string{"x", "two"}, []string{"other"}),
					}, nil, nil, [][]byte{onnxwire.Rankless("other", onnxwire.Int64)}))).
				output("out", onnxwire.Int64),
		},
		{
			name: "Gather of index 3 on an axis of 3 in an IR",
			ir: func(t *testing.T) *ir.Model {
				b := newBuilder(t, "")
				x := b.param("x", ir.I64, "[]")
				v := b.op("Add", "opset1", attrs("auto_broadcast", "numpy"), ir.I64, []int64{3}, x, b.ints(ir.I64, []int64{3}, 1, 2, 3))
				g := b.op("Gather", "opset8", attrs("batch_dims", "0"), ir.I64, []int64{}, v, b.ints(ir.I64, []int64{}, 3), b.ints(ir.I64, []int64{}, 0))
				b.divide("div", g, b.ints(ir.I64, []int64{}, 2), true)
				return b.m
			},
		},
		{
			name:   "Squeeze of a dim of 3",
			inputs: "x",
			g: three().i64("axes", []int64{1}, 0).node("Squeeze", []string{"v", "axes"}, "s").
				node("Div", []string{"s", "two"}, "div").output("div", onnxwire.Int64),
			layer: "s",
		},
		{
			// Of floats, whose elements are not traced.
			name:   "Squeeze of a dim of 3 of floats",
			inputs: "x f",
			g: new(graph).input("x", onnxwire.Int64).input("f", onnxwire.Float).i64("axes", []int64{1}, 0).i64("three", []int64{1}, 3).
				node("Expand", []string{"f", "three"}, "e").node("Squeeze", []string{"e", "axes"}, "s").node("Shape", []string{"s"}, "n").
				node("Div", []string{"x", "n"}, "div").output("div", onnxwire.Int64).output("s", onnxwire.Float),
			layer: "s",
		},
		{
			name:   "a divisor W - W",
			inputs: "x f",
			g: new(graph).input("x", onnxwire.Int64).input("f", onnxwire.Float, param("W")).i64("zero", []int64{}, 0).i64("two", []int64{}, 2).
				node("Shape", []string{"f"}, "s").node("Gather", []string{"s", "zero"}, "w", onnxwire.IntAttr("axis", 0)).
				node("Sub", []string{"w", "w"}, "none").node("Div", []string{"x", "none"}, "div").
				node("Div", []string{"w", "two"}, "half").node("Add", []string{"div", "half"}, "out").
				output("out", onnxwire.Int64),
			layer: "div",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m *ir.Model
			if tc.g != nil {
				m = tc.g.imported(t)
			} else {
				m = tc.ir(t)
			}
			r := Model(m, "m", Options{})
			got := findings(r)[StructureNeverRuns]
			if tc.layer == "" {
				if len(got) > 0 || r.Coverage.RunsOnNoInput != 0 {
					t.Errorf("a finding where the model runs: %+v, coverage %v", got, r.Coverage)
				}
			} else {
				if len(got) != 1 || got[0].Layer.Name != tc.layer || got[0].Severity != Error || got[0].Evidence.Get("needs") == nil {
					t.Fatalf("want one error on layer %q, got %+v", tc.layer, got)
				}
				for _, f := range r.Findings {
					switch f.Code {
					case FloorTrunc, FloorTruncReshape, FloorTruncPossible, FloorTruncAgree, NotAnalysed:
						if !strings.Contains(f.Message, "moot: the model runs on no input") || f.Evidence.Get("model_runs_on_no_input") == nil {
							t.Errorf("the verdict does not say the model runs on no input: %s", f.Message)
						}
					}
				}
				c := r.Coverage
				if c.RunsOnNoInput != c.IntegerDivides || c.IntegerDivides == 0 || !strings.Contains(c.String(), "in a model that runs on no input") {
					t.Errorf("coverage %+v: %s", c, c)
				}
				if data, err := json.Marshal(r); err != nil || !strings.Contains(string(data), fmt.Sprintf(`"runs_on_no_input":%d}`, c.IntegerDivides)) {
					t.Errorf("coverage in JSON: %s %v", data, err)
				}
			}
			if ortErr == nil && tc.g != nil {
				runsAt(t, runner, tc.g, strings.Fields(tc.inputs), tc.layer == "")
			}
		})
	}
}

// runsAt runs an ONNX model of some of the inputs x (i64), y (i64) and f
// (f32) at x = 1, y = 0, f = [0]: it must run there, or fail.
func runsAt(t *testing.T, runner ortreplay.Runner, g *graph, inputs []string, runs bool) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	in := map[string]*ir.Tensor{}
	x, _ := ir.NewTensor(ir.I64, []int64{})
	x.SetInt64(0, 1)
	in["x"] = x
	in["y"], _ = ir.NewTensor(ir.I64, []int64{})
	in["f"], _ = ir.NewTensor(ir.F32, []int64{1})
	feeds := map[string]*ir.Tensor{}
	for _, name := range inputs {
		feeds[name] = in[name]
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{feeds}}})
	if err != nil {
		t.Fatal(err)
	}
	if ran := res[0][0].Err == nil; ran != runs {
		t.Errorf("ONNX Runtime at %s: ran %v (%v), want %v", inputsLine(feeds), ran, res[0][0].Err, runs)
	}
}

// TestNeverRunsAtTheDeclaredShapes: Shape(x)[x.shape[0] - k] of x
// declared [2, D] is out of its axis at k = 0 (index 2 of a rank of 2),
// but runs where x.shape[0] is 1: the model runs on no input of its
// declared shapes (an error for an ONNX model, whose runtimes take those
// shapes only), and its Divide of the gathered dim by -3 agrees there,
// nothing divided, and is a question of other shapes
// (floor-trunc-reshape); at k = 1 nothing is said, and D / -3 is an error
// (D = 1).
func TestNeverRunsAtTheDeclaredShapes(t *testing.T) {
	for _, tc := range []struct {
		k       int64
		finding bool
		want    Code
	}{
		{0, true, FloorTruncReshape},
		{1, false, FloorTrunc},
	} {
		g := new(graph).input("x", onnxwire.Float, fixed(2), param("D")).i64("zero", []int64{}, 0).i64("k", []int64{}, tc.k).i64("minus3", []int64{}, -3).
			node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "rows", onnxwire.IntAttr("axis", 0)).
			node("Sub", []string{"rows", "k"}, "i").node("Gather", []string{"s", "i"}, "d", onnxwire.IntAttr("axis", 0)).
			node("Div", []string{"d", "minus3"}, "div").output("div", onnxwire.Int64)
		r := Model(g.imported(t), "declared.onnx", Options{Imported: true})
		var never *Finding
		var verdict Code
		for i, f := range r.Findings {
			if f.Code == StructureNeverRuns {
				never = &r.Findings[i]
			}
			if verdicts[f.Code] != "" && f.Code != StructureNeverRuns {
				verdict = f.Code
			}
		}
		switch {
		case tc.finding && (never == nil || never.Severity != Error || never.Evidence.Get("declared_shapes_only") != true):
			t.Errorf("k = %d: no never-runs error at the declared shapes: %v", tc.k, r.Findings)
		case !tc.finding && never != nil:
			t.Errorf("k = %d: %s", tc.k, never.Message)
		}
		if verdict != tc.want {
			t.Errorf("k = %d: the Divide's verdict is %s, want %s: %v", tc.k, verdict, tc.want, r.Findings)
		}
	}
}
