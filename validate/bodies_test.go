package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// bodyModels are ONNX models whose integer Divs sit inside If and Loop
// bodies, fed by the outer graph; for each Div, the verdict it must get
// now that the values of the outer graph reach it.
var bodyModels = []struct {
	name string
	g    *graph
	want map[string]Code // by the Div's output
	// onnx computes the outputs checked as ONNX does (truncating), from
	// the scalar inputs.
	onnx func(in map[string]int64) map[string]int64
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
		onnx: func(in map[string]int64) map[string]int64 {
			if in["y"] > 0 {
				return map[string]int64{"out": in["x"] / 2}
			}
			return map[string]int64{"out": in["x"] - 1}
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
		onnx: func(in map[string]int64) map[string]int64 { return map[string]int64{"v": 3 * (in["x"] / 3)} },
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
}

// TestDivideInABodyGetsOuterValues: the Divs of If and Loop bodies are
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
			data := onnxwire.Model(13, onnxwire.Graph("g", tc.g.nodes, tc.g.inits, tc.g.inputs, tc.g.outputs))
			om, err := onnx.Read(data, onnx.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := onnx.Import(om, onnx.ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := Model(m, tc.name+".onnx", Options{})
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
				scalars := map[string]int64{}
				for name, x := range f.CounterExample.Inputs {
					if x.Len() == 1 && x.Type == ir.I64 {
						scalars[name] = ir.View[int64](x)[0]
					}
				}
				for name, want := range tc.onnx(scalars) {
					if o := res[0][0].Outputs[name]; o == nil || o.Len() != 1 || ir.View[int64](o)[0] != want {
						t.Errorf("%s: ONNX Runtime gives %s = %v at %v, ONNX's truncation %d", div, name, o, scalars, want)
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
