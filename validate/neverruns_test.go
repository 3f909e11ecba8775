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
			// Of two symbols: the range of the index, not a bisection.
			name:   "Gather of index clip(x, 0, 1) + clip(y, 0, 1) + 3 on an axis of 3",
			inputs: "x y",
			g: three().input("y", onnxwire.Int64).i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("three", []int64{}, 3).
				node("Clip", []string{"x", "zero", "one"}, "cx").node("Clip", []string{"y", "zero", "one"}, "cy").
				node("Add", []string{"cx", "cy"}, "s").node("Add", []string{"s", "three"}, "i").
				node("Gather", []string{"v", "i"}, "g", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"g", "two"}, "div").output("div", onnxwire.Int64),
			layer: "g",
		},
		{
			name:   "Gather of index x + y on an empty axis",
			inputs: "x y",
			g: three().input("y", onnxwire.Int64).i64("three", []int64{1}, 3).node("Slice", []string{"v", "three", "three"}, "empty").
				node("Add", []string{"x", "y"}, "i").node("Gather", []string{"empty", "i"}, "g", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"g", "two"}, "div").output("div", onnxwire.Int64),
			layer: "g",
		},
		{
			name:   "Range of a step x - x",
			inputs: "x",
			g: three().node("Sub", []string{"x", "x"}, "z").node("Range", []string{"x", "two", "z"}, "r").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("r", onnxwire.Int64),
			layer: "r",
		},
		{
			// The pooling's window narrows f.shape[0] to 2 or more in
			// OpenVINO only: a walk without that narrowing finds it.
			name:   "Range of a step x - x beside a MaxPool",
			inputs: "x f",
			g: new(graph).input("x", onnxwire.Int64).input("f", onnxwire.Float, param("W")).i64("two", []int64{}, 2).i64("axes", []int64{2}, 0, 1).
				node("Unsqueeze", []string{"f", "axes"}, "f3").node("MaxPool", []string{"f3"}, "p", onnxwire.IntsAttr("kernel_shape", 2)).
				node("Sub", []string{"x", "x"}, "z").node("Range", []string{"x", "two", "z"}, "r").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("r", onnxwire.Int64).output("p", onnxwire.Float),
			layer: "r",
		},
		{
			name:   "Range of a step x, 0 at some inputs only",
			inputs: "x",
			g: three().node("Range", []string{"two", "x", "x"}, "r").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("r", onnxwire.Int64),
		},
		{
			// OpenVINO's Range-4 makes no elements of a step of 0.
			name: "Range-4 of a step x - x in an IR",
			ir:   irRange("opset4", "", attrs("output_type", "i64")),
		},
		{
			name:  "Range-1 of a step x - x in an IR",
			ir:    irRange("opset1", "r", nil),
			layer: "r",
		},
		{
			name:   "Reshape of 3 elements to 2",
			inputs: "x",
			g: opaqueTwo(three()).node("Unsqueeze", []string{"two1", "axes"}, "shape").node("Reshape", []string{"v", "shape"}, "re").
				node("Div", []string{"re", "two"}, "div").output("div", onnxwire.Int64),
			layer: "re",
		},
		{
			name:   "Reshape of 3 elements to [-1, 2]",
			inputs: "x",
			g: opaqueTwo(three()).i64("minus1", []int64{1}, -1).node("Unsqueeze", []string{"two1", "axes"}, "d1").
				node("Concat", []string{"minus1", "d1"}, "shape", onnxwire.IntAttr("axis", 0)).node("Reshape", []string{"v", "shape"}, "re").
				node("Div", []string{"re", "two"}, "div").output("div", onnxwire.Int64),
			layer: "re",
		},
		{
			name:   "Reshape of 3 elements to [-1, x - x], a 0 past the input's rank",
			inputs: "x",
			g: three().i64("minus1", []int64{1}, -1).i64("axes", []int64{1}, 0).node("Sub", []string{"x", "x"}, "z").
				node("Unsqueeze", []string{"z", "axes"}, "z1").node("Concat", []string{"minus1", "z1"}, "shape", onnxwire.IntAttr("axis", 0)).
				node("Reshape", []string{"v", "shape"}, "re").
				node("Div", []string{"re", "two"}, "div").output("div", onnxwire.Int64),
			layer: "re",
		},
		{
			// x = 1 makes 3.
			name:   "Reshape of 3 elements to clip(x, 0, 5) + 2",
			inputs: "x",
			g: three().i64("zero", []int64{}, 0).i64("five", []int64{}, 5).i64("axes", []int64{1}, 0).
				node("Clip", []string{"x", "zero", "five"}, "cl").node("Add", []string{"cl", "two"}, "n").
				node("Unsqueeze", []string{"n", "axes"}, "shape").node("Reshape", []string{"v", "shape"}, "re").
				node("Div", []string{"re", "two"}, "div").output("div", onnxwire.Int64),
		},
		{
			name:   "ConstantOfShape of a dim -1 - clip(x, 0, 5)",
			inputs: "x",
			g: negativeDim().node("Unsqueeze", []string{"neg", "axes"}, "shape").node("ConstantOfShape", []string{"shape"}, "c").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("c", onnxwire.Float),
			layer: "c",
		},
		{
			name:   "Expand of [1, 2, 3] to a dim -1 - clip(x, 0, 5)",
			inputs: "x",
			g: negativeDim().node("Add", []string{"x", "c3"}, "v").node("Unsqueeze", []string{"neg", "axes"}, "shape").
				node("Expand", []string{"v", "shape"}, "e").
				node("Div", []string{"e", "two"}, "div").output("div", onnxwire.Int64),
			layer: "e",
		},
		{
			// f of any dim: 0 resized to -1 fails too.
			name:   "Resize of f to x - x - 1",
			inputs: "x f",
			g: new(graph).input("x", onnxwire.Int64).input("f", onnxwire.Float, param("W")).i64("two", []int64{}, 2).i64("one", []int64{}, 1).
				i64("axes", []int64{1}, 0).node("Sub", []string{"x", "x"}, "z").node("Sub", []string{"z", "one"}, "m").
				node("Unsqueeze", []string{"m", "axes"}, "sizes").node("Resize", []string{"f", "", "", "sizes"}, "rs").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("rs", onnxwire.Float),
			layer: "rs",
		},
		{
			name:   "Scan over Range(x, x, 2), empty",
			inputs: "x",
			g: three().node("Range", []string{"x", "x", "two"}, "r").
				node("Scan", []string{"r"}, "s", onnxwire.IntAttr("num_scan_inputs", 1),
					onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
						onnxwire.Node("Div", "div", []string{"e", "two"}, []string{"q"}),
					}, nil, [][]byte{onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{})}, [][]byte{onnxwire.ValueDims("q", onnxwire.Int64, []onnxwire.Dim{})}))).
				output("s", onnxwire.Int64),
			layer: "s",
		},
		{
			// ONNX Runtime refuses [-2, 0] too (x = 1).
			name:   "ConstantOfShape of dims [-1 - clip(x, 0, 5), clip(x - 1, 0, 5)]",
			inputs: "x",
			g: negativeDim().i64("one", []int64{}, 1).node("Sub", []string{"x", "one"}, "x1").node("Clip", []string{"x1", "zero", "five"}, "other").
				node("Unsqueeze", []string{"neg", "axes"}, "d0").node("Unsqueeze", []string{"other", "axes"}, "d1").
				node("Concat", []string{"d0", "d1"}, "shape", onnxwire.IntAttr("axis", 0)).node("ConstantOfShape", []string{"shape"}, "c").
				node("Div", []string{"x", "two"}, "div").output("div", onnxwire.Int64).output("c", onnxwire.Float),
			layer: "c",
		},
		{
			// OpenVINO's product is 0 where x.shape[0] is 0: not said to
			// stop an IR.
			name: "Broadcast to [x.shape[0], -1] in an IR",
			ir: func(t *testing.T) *ir.Model {
				b := newBuilder(t, "")
				x := b.param("x", ir.I64, "[?]")
				s := b.op("ShapeOf", "opset3", attrs("output_type", "i64"), ir.I64, []int64{1}, x)
				target := b.op("Concat", "opset1", attrs("axis", "0"), ir.I64, []int64{2}, s, b.ints(ir.I64, []int64{1}, -1))
				c := b.op("Broadcast", "opset3", attrs("mode", "numpy"), ir.I64, []int64{-1, -1}, b.ints(ir.I64, []int64{}, 0), target)
				b.m.AddResult("c_out", c)
				b.divide("div", x, b.ints(ir.I64, []int64{}, 2), true)
				return b.m
			},
		},
		{
			name: "Broadcast to [x.shape[0] + 1, -1] in an IR",
			ir: func(t *testing.T) *ir.Model {
				b := newBuilder(t, "")
				x := b.param("x", ir.I64, "[?]")
				s := b.op("ShapeOf", "opset3", attrs("output_type", "i64"), ir.I64, []int64{1}, x)
				s1 := b.op("Add", "opset1", attrs("auto_broadcast", "numpy"), ir.I64, []int64{1}, s, b.ints(ir.I64, []int64{1}, 1))
				target := b.op("Concat", "opset1", attrs("axis", "0"), ir.I64, []int64{2}, s1, b.ints(ir.I64, []int64{1}, -1))
				c := b.op("Broadcast", "opset3", attrs("mode", "numpy"), ir.I64, []int64{-1, -1}, b.ints(ir.I64, []int64{}, 0), target)
				c.Layer.Name = "c"
				b.m.AddResult("c_out", c)
				b.divide("div", x, b.ints(ir.I64, []int64{}, 2), true)
				return b.m
			},
			layer: "c",
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
		{
			name:   "a divisor [0, x], one element 0",
			inputs: "x",
			g: new(graph).input("x", onnxwire.Int64).i64("axes", []int64{1}, 0).i64("zero", []int64{1}, 0).
				node("Unsqueeze", []string{"x", "axes"}, "ux").node("Concat", []string{"zero", "ux"}, "d", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"x", "d"}, "div").output("div", onnxwire.Int64),
			layer: "div",
		},
		{
			name:   "a divisor [1, x]",
			inputs: "x",
			g: new(graph).input("x", onnxwire.Int64).i64("axes", []int64{1}, 0).i64("one", []int64{1}, 1).
				node("Unsqueeze", []string{"x", "axes"}, "ux").node("Concat", []string{"one", "ux"}, "d", onnxwire.IntAttr("axis", 0)).
				node("Div", []string{"x", "d"}, "div").output("div", onnxwire.Int64),
		},
		{
			name:   "a Mod by x - x",
			inputs: "x",
			g: new(graph).input("x", onnxwire.Int64).i64("two", []int64{}, 2).node("Sub", []string{"x", "x"}, "none").
				node("Mod", []string{"x", "none"}, "mod").node("Div", []string{"mod", "two"}, "div").output("div", onnxwire.Int64),
			layer: "mod",
		},
		{
			name:   "a Loop of 3 iterations dividing by the iteration",
			inputs: "x",
			g:      loopDividing(new(graph).input("x", onnxwire.Int64).i64("trip", []int64{}, 3)),
			layer:  "v",
		},
		{
			name:   "a Loop of y iterations dividing by the iteration",
			inputs: "x y",
			g:      loopDividing(new(graph).input("x", onnxwire.Int64).input("y", onnxwire.Int64).node("Identity", []string{"y"}, "trip")),
		},
		{
			name:   "an If whose branches both divide by x - x",
			inputs: "x",
			g:      ifDividing(new(graph).input("x", onnxwire.Int64), "none"),
			layer:  "out",
		},
		{
			name:   "an If whose then_branch divides by x - x",
			inputs: "x",
			g:      ifDividing(new(graph).input("x", onnxwire.Int64), "two"),
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

// loopDividing adds to g (of x and trip) v, the Loop of trip
// iterations whose body gives x / i at iteration i: a division by 0 at
// iteration 0, where the Loop runs one.
func loopDividing(g *graph) *graph {
	return g.node("Constant", nil, "go", onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Bool, []int64{}, []byte{1}))).
		nodeN("Loop", []string{"trip", "go"}, []string{"v"},
			onnxwire.GraphAttr("body", onnxwire.Graph("body", [][]byte{
				onnxwire.Node("Div", "by_i", []string{"x", "i"}, []string{"by_i"}),
				onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
			}, nil,
				[][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{})},
				[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("by_i", onnxwire.Int64)}))).
		output("v", onnxwire.Int64)
}

// ifDividing adds to g (of x) out, an If on x < 0 whose then_branch
// gives x / (x - x) and whose else_branch gives 2 / else (else is
// "none", x - x, or "two").
func ifDividing(g *graph, els string) *graph {
	return g.i64("zero", []int64{}, 0).i64("two", []int64{}, 2).
		node("Sub", []string{"x", "x"}, "none").node("Less", []string{"x", "zero"}, "cond").
		node("If", []string{"cond"}, "out",
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Div", "then_div", []string{"x", "none"}, []string{"then_div"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("then_div", onnxwire.Int64)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.Node("Div", "else_div", []string{"two", els}, []string{"else_div"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("else_div", onnxwire.Int64)}))).
		output("out", onnxwire.Int64)
}

// irRange is an IR of a Range of the given version (named name, unless
// empty) from x to 2 by x - x.
func irRange(version, name string, data []ir.Attr) func(t *testing.T) *ir.Model {
	return func(t *testing.T) *ir.Model {
		b := newBuilder(t, "")
		x := b.param("x", ir.I64, "[]")
		z := b.op("Subtract", "opset1", attrs("auto_broadcast", "numpy"), ir.I64, []int64{}, x, x)
		r := b.op("Range", version, data, ir.I64, []int64{-1}, x, b.ints(ir.I64, []int64{}, 2), z)
		if name != "" {
			r.Layer.Name = name
		}
		b.m.AddResult("r_out", r)
		b.divide("div", x, b.ints(ir.I64, []int64{}, 2), true)
		return b.m
	}
}

// opaqueTwo adds to g (of x and two) two1 = x * 0 + 2, which the import
// does not fold, and axes = [0].
func opaqueTwo(g *graph) *graph {
	return g.i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).
		node("Mul", []string{"x", "zero"}, "x0").node("Add", []string{"x0", "two"}, "two1")
}

// negativeDim is a graph of x (i64) and neg = -1 - clip(x, 0, 5), a
// negative dim at every input, with c3 = [1, 2, 3], two, zero, five and
// axes = [0].
func negativeDim() *graph {
	return new(graph).input("x", onnxwire.Int64).i64("c3", []int64{3}, 1, 2, 3).i64("two", []int64{}, 2).
		i64("zero", []int64{}, 0).i64("five", []int64{}, 5).i64("minus1", []int64{}, -1).i64("axes", []int64{1}, 0).
		node("Clip", []string{"x", "zero", "five"}, "cl").node("Sub", []string{"minus1", "cl"}, "neg")
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

// TestNeverRunsReshapeAtTheDeclaredShapes: a Reshape of x declared
// [2, 3] to Shape(x) + [2] (folded by the import: its inference fails)
// or to [-1, 4] needs 6 elements to make 12, or to be a multiple of 4:
// it runs on no input of the declared shapes (an error for an ONNX
// model), though a reshape of x to [2, 0] or [2, 2] runs it; y / -3
// agrees there, nothing divided, and is a question of other shapes
// (floor-trunc-reshape).
func TestNeverRunsReshapeAtTheDeclaredShapes(t *testing.T) {
	base := func() *graph {
		return new(graph).input("x", onnxwire.Float, fixed(2), fixed(3)).input("y", onnxwire.Int64).
			i64("minus3", []int64{}, -3).i64("zero", []int64{}, 0).node("Div", []string{"y", "minus3"}, "div").output("div", onnxwire.Int64)
	}
	for _, tc := range []struct {
		name string
		g    *graph
	}{
		{"to Shape(x) + [2]", base().i64("two", []int64{1}, 2).node("Shape", []string{"x"}, "s").
			node("Concat", []string{"s", "two"}, "shape", onnxwire.IntAttr("axis", 0)).
			node("Reshape", []string{"x", "shape"}, "re").output("re", onnxwire.Float)},
		{"to [-1, 4]", base().i64("four", []int64{}, 4).i64("minus1", []int64{1}, -1).i64("axes", []int64{1}, 0).
			node("Mul", []string{"y", "zero"}, "y0").node("Add", []string{"y0", "four"}, "four1").node("Unsqueeze", []string{"four1", "axes"}, "d1").
			node("Concat", []string{"minus1", "d1"}, "shape", onnxwire.IntAttr("axis", 0)).
			node("Reshape", []string{"x", "shape"}, "re").output("re", onnxwire.Float)},
	} {
		r := Model(tc.g.imported(t), "declared.onnx", Options{Imported: true})
		got := findings(r)
		never := got[StructureNeverRuns]
		if len(never) != 1 || never[0].Layer.Name != "re" || never[0].Severity != Error || never[0].Evidence.Get("declared_shapes_only") != true {
			t.Errorf("%s: want a never-runs error at the declared shapes on re, got %v", tc.name, r.Findings)
		}
		if len(got[FloorTruncReshape]) != 1 {
			t.Errorf("%s: the Divide is not floor-trunc-reshape: %v", tc.name, r.Findings)
		}
	}
}
