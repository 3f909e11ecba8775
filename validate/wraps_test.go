package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
)

// TestWrapAtLargeDims: shape arithmetic that a large constant multiplies
// wraps int64 only at a large dim (d * (2^40 + 3) at d = 2^23), which the
// search's usual candidates (below 2^14) never reach; it tries the dims
// where the product first wraps, the other dims as small as the model
// runs with, and the Div is an error whose counter-example names the dim
// (seeds 1954 and 68 of the differential had such products, left
// possible). Where ONNX Runtime is installed, each counter-example is
// replayed on the ONNX model: its Div truncates there, as the finding
// says. A product that wraps only beyond the dims tried stays a warning.
func TestWrapAtLargeDims(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	// wrapped is Div(Gather(Shape(src), axis) * c, 5), src made by g.
	wrapped := func(g *graph, src string, axis, c int64) *graph {
		return g.i64("axis", []int64{}, axis).i64("c", []int64{}, c).i64("five", []int64{}, 5).
			node("Shape", []string{src}, "s").node("Gather", []string{"s", "axis"}, "d", onnxwire.IntAttr("axis", 0)).
			node("Mul", []string{"d", "c"}, "w").node("Div", []string{"w", "five"}, "div").
			output("div", onnxwire.Int64)
	}
	for _, tc := range []struct {
		name string
		g    *graph
		// The counter-example's input's largest dim must be in [least,
		// least+8); input "" for a case that must stay a warning.
		input string
		least int64
		says  string
		// wraps is the layer the message must name as wrapping: "" for
		// the Multiply w, "-" for none.
		wraps string
	}{
		{
			// Seed 1954: x: f32[3,W,T,1], y: i64[W1,T]; Shape(y)[1] *
			// (2^40 + 3) / 5 is MIN + 3*2^23 over 5 at T = 2^23.
			name: "a dim times 2^40 + 3",
			g: wrapped(new(graph).input("x", onnxwire.Float, fixed(3), param("W"), param("T"), fixed(1)).
				input("y", onnxwire.Int64, param("W1"), param("T")), "y", 1, 1<<40+3),
			input: "y", least: 1 << 23, says: `at y.shape[1] = 83886`,
		},
		{
			// Seed 68: the last dim of a MaxPool's output, (S - 3) / 2 + 1
			// rounded up, times 2^40 + 3: S near 2^24. (A window of 1 on
			// the third axis lets its dim be 1: the input is 64 MiB.)
			name: "a pooled dim times 2^40 + 3",
			g: wrapped(new(graph).input("x", onnxwire.Float, param("H"), param("C"), param("K"), param("S")).
				node("MaxPool", []string{"x"}, "pool", onnxwire.IntsAttr("kernel_shape", 1, 3), onnxwire.IntsAttr("strides", 1, 2), onnxwire.IntAttr("ceil_mode", 1)), "pool", 3, 1<<40+3),
			input: "x", least: 1<<24 - 1, says: `at x.shape[3] = 167772`,
		},
		{
			// M * N * (2^40 + 3): at M = 0 the product is 0 whatever N,
			// so the other dims are 1 next.
			name: "a product of dims times 2^40 + 3",
			g: new(graph).input("x", onnxwire.Float, param("M"), param("N")).
				i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("c", []int64{}, 1<<40+3).i64("five", []int64{}, 5).
				node("Shape", []string{"x"}, "s").
				node("Gather", []string{"s", "zero"}, "m", onnxwire.IntAttr("axis", 0)).node("Gather", []string{"s", "one"}, "n", onnxwire.IntAttr("axis", 0)).
				node("Mul", []string{"m", "n"}, "mn").node("Mul", []string{"mn", "c"}, "w").node("Div", []string{"w", "five"}, "div").
				output("div", onnxwire.Int64),
			input: "x", least: 1 << 23, says: `] = 83886`,
		},
		{
			// d * 2^31 wraps at d = 2^32, beyond the dims tried: x would
			// be empty there, at M = 0, but onnxruntime-node refuses a
			// dim of 2^32.
			name:  "a dim times 2^31",
			g:     wrapped(new(graph).input("x", onnxwire.Float, param("M"), param("N")), "x", 1, 1<<31),
			input: "",
		},
		{
			// int32(d) / 16 wraps at d = 2^31 (seed 702): x: [0, 2^31].
			name: "a dim converted to int32",
			g: new(graph).input("x", onnxwire.Float, param("M"), param("N")).
				i64("one", []int64{}, 1).i32("sixteen", []int64{}, 16).
				node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "one"}, "d", onnxwire.IntAttr("axis", 0)).
				node("Cast", []string{"d"}, "d32", onnxwire.IntAttr("to", int64(onnxwire.Int32))).
				node("Div", []string{"d32", "sixteen"}, "div").output("div", onnxwire.Int32),
			input: "x", least: 1 << 31, says: `at x.shape[1] = 21474836`, wraps: "-",
		},
		{
			// The same of y: [N], which is never empty at such a dim.
			name: "a dim of a one-dim input converted to int32",
			g: new(graph).input("y", onnxwire.Float, param("N")).
				i64("zero", []int64{}, 0).i32("sixteen", []int64{}, 16).
				node("Shape", []string{"y"}, "s").node("Gather", []string{"s", "zero"}, "d", onnxwire.IntAttr("axis", 0)).
				node("Cast", []string{"d"}, "d32", onnxwire.IntAttr("to", int64(onnxwire.Int32))).
				node("Div", []string{"d32", "sixteen"}, "div").output("div", onnxwire.Int32),
			input: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var div *Finding
			r := Model(tc.g.imported(t), "m.onnx", Options{})
			for i, f := range r.Findings {
				if f.Layer != nil && f.Layer.Name == "div" && strings.HasPrefix(string(f.Code), string(FloorTrunc)) {
					div = &r.Findings[i]
				}
			}
			if div == nil {
				t.Fatalf("no floor/truncation finding on div: %v", r.Findings)
			}
			if tc.input == "" {
				if div.Code != FloorTruncPossible {
					t.Fatalf("%s: %s, want %s", div.Code, div.Message, FloorTruncPossible)
				}
				return
			}
			if div.Code != FloorTrunc || div.CounterExample == nil {
				t.Fatalf("%s: %s, want %s with a counter-example", div.Code, div.Message, FloorTrunc)
			}
			in := div.CounterExample.Inputs[tc.input]
			if in == nil || len(in.Shape) == 0 || slices.Max(in.Shape) < tc.least || slices.Max(in.Shape) >= tc.least+8 {
				t.Fatalf("counter-example %v: want a dim of %s in [%d, %d)", div.CounterExample.Inputs, tc.input, tc.least, tc.least+8)
			}
			if !strings.Contains(div.Message, tc.says) || tc.wraps == "" && !strings.Contains(div.Message, `layer "w" (Multiply) wraps around int64`) {
				t.Errorf("message %q: want %q and the Multiply named", div.Message, tc.says)
			}
			size := 0
			for _, x := range div.CounterExample.Inputs {
				size += len(x.Data)
			}
			if size > 64<<20 {
				t.Errorf("counter-example of %d bytes: the other dims are not the smallest", size)
			}
			if ortErr != nil {
				return
			}
			path := filepath.Join(t.TempDir(), "m.onnx")
			if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", tc.g.nodes, tc.g.inits, tc.g.inputs, tc.g.outputs)), 0o644); err != nil {
				t.Fatal(err)
			}
			outs, err := runner.Run(path, div.CounterExample.Inputs)
			if err != nil {
				t.Fatalf("ONNX Runtime at the counter-example: %v", err)
			}
			got, want := outs["div"], div.Evidence.Get("truncated")
			if got == nil || got.Len() != 1 || got.Format(0) != fmt.Sprint(want) || fmt.Sprint(want) == fmt.Sprint(div.Evidence.Get("floored")) {
				t.Errorf("ONNX Runtime gives div = %v; the finding says ONNX gives %v, this IR %v", got, want, div.Evidence.Get("floored"))
			}
		})
	}
}
