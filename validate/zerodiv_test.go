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

// TestReachableZeroDivisor: an integer Div, Mod or FloorMod whose divisor
// the model's inputs can make 0 at an element it computes is a warning
// with a counter-example (divide/zero-divisor, mod/zero-divisor); a
// constant 0 stays an error; a divisor that can be 0 only where nothing
// is divided, or whose values irdiv does not follow, gets nothing. Where
// ONNX Runtime is installed, each counter-example is replayed on the ONNX
// model, which must fail with ONNX Runtime's division-by-zero error (it
// does not crash: 1.30 checks the divisor before dividing).
func TestReachableZeroDivisor(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	four := []onnxwire.Dim{fixed(4)}
	for _, tc := range []struct {
		name string
		g    *graph
		// code and severity of the one finding wanted; "" for none of
		// either zero-divisor code.
		code     Code
		severity Severity
		// check looks at the counter-example of a warning.
		check func(t *testing.T, f Finding)
		// ort is what ONNX Runtime's error says at the counter-example.
		ort string
	}{
		{
			name: "x / (y - 3)",
			g: new(graph).input("x", onnxwire.Int64, four...).input("y", onnxwire.Int64, four...).i64("three", []int64{}, 3).
				node("Sub", []string{"y", "three"}, "d").node("Div", []string{"x", "d"}, "z").output("z", onnxwire.Int64),
			code: ZeroDivisor, severity: Warning,
			check: func(t *testing.T, f Finding) {
				y, i := f.CounterExample.Inputs["y"], f.Evidence.Get("index").(int)
				if y == nil || ir.View[int64](y)[i] != 3 {
					t.Errorf("y = %v at index %d, want 3 there", y, i)
				}
				if ex, _ := f.Evidence.Get("example").(string); !strings.HasSuffix(ex, " / 0") {
					t.Errorf("example %q", ex)
				}
			},
			ort: "Integer division by zero",
		},
		{
			// Random model 12 of the differential: the divisor is 0 at y =
			// -2, where ONNX Runtime fails; a Range of step y / -2 and an
			// Expand to min(divisor, 6) need the same y to run. A
			// requirement that the divisor not be 0, narrowing y, hid the
			// warning.
			name: "random model 12",
			g: new(graph).input("x", onnxwire.Int32, fixed(3), fixed(2), fixed(1)).input("y", onnxwire.Int32).
				i32("minus2", []int64{}, -2).i32("eight32", []int64{}, 8).i32("minus1", []int64{}, -1).
				i64("lo", []int64{}, -8).i64("hi", []int64{}, 8).i64("six", []int64{}, 6).i64("zero", []int64{}, 0).i64("axes", []int64{1}, 0).
				node("Shape", []string{"x"}, "v1").node("Div", []string{"y", "minus2"}, "v5").node("Cast", []string{"v1"}, "v6", onnxwire.IntAttr("to", int64(onnxwire.Int32))).
				node("Div", []string{"v6", "eight32"}, "v9").node("Cast", []string{"v5"}, "v12", onnxwire.IntAttr("to", int64(onnxwire.Int64))).
				node("Clip", []string{"v12", "lo", "hi"}, "v15").node("Range", []string{"v15", "v15", "v12"}, "v22").
				node("Cast", []string{"v15"}, "v23", onnxwire.IntAttr("to", int64(onnxwire.Int32))).node("Add", []string{"v23", "minus1"}, "v25").
				node("Div", []string{"v9", "v25"}, "v26").node("Shape", []string{"v22"}, "v29").node("Gather", []string{"v29", "zero"}, "v31", onnxwire.IntAttr("axis", 0)).
				node("Cast", []string{"v25"}, "v32", onnxwire.IntAttr("to", int64(onnxwire.Int64))).node("Unsqueeze", []string{"v32", "axes"}, "v34").
				node("Min", []string{"v34", "six"}, "v36").node("Expand", []string{"v31", "v36"}, "v38").
				output("v26", onnxwire.Int32).output("v38", onnxwire.Int64),
			code: ZeroDivisor, severity: Warning,
			ort: "Integer division by zero",
		},
		{
			name: "x mod (y - 3)", // ONNX's Mod of integers, fmod 0: OpenVINO's FloorMod
			g: new(graph).input("x", onnxwire.Int64, four...).input("y", onnxwire.Int64, four...).i64("three", []int64{}, 3).
				node("Sub", []string{"y", "three"}, "d").node("Mod", []string{"x", "d"}, "z").output("z", onnxwire.Int64),
			code: ModZeroDivisor, severity: Warning,
			check: func(t *testing.T, f Finding) {
				y, i := f.CounterExample.Inputs["y"], f.Evidence.Get("index").(int)
				if y == nil || ir.View[int64](y)[i] != 3 {
					t.Errorf("y = %v at index %d, want 3 there", y, i)
				}
				if ex, _ := f.Evidence.Get("example").(string); !strings.HasSuffix(ex, " % 0") {
					t.Errorf("example %q", ex)
				}
			},
			ort: "Integer modulo by zero",
		},
		{
			name: "x fmod (y - 3)", // fmod 1: OpenVINO's Mod
			g: new(graph).input("x", onnxwire.Int64, four...).input("y", onnxwire.Int64, four...).i64("three", []int64{}, 3).
				node("Sub", []string{"y", "three"}, "d").node("Mod", []string{"x", "d"}, "z", onnxwire.IntAttr("fmod", 1)).output("z", onnxwire.Int64),
			code: ModZeroDivisor, severity: Warning,
			ort: "Integer modulo by zero",
		},
		{
			// Shape(x)[0] is 0 where x is empty, and y, which has 4
			// elements whatever x is, is divided by it: a division by zero
			// for real, but only with an empty x. A divisor computed from
			// dims alone is not searched: a large model has many (every
			// window Divide of swin_t), and their searches made validate
			// of torchvision's exports four times slower.
			name: "y / Shape(x)[0], y not empty",
			g: new(graph).input("x", onnxwire.Float, param("n"), fixed(3)).input("y", onnxwire.Int64, four...).i64("zero", []int64{}, 0).
				node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n").node("Div", []string{"y", "n"}, "z").output("z", onnxwire.Int64),
		},
		{
			// x / Shape(x)[0]: the divisor is 0 only where x, and so
			// the output, is empty: nothing is divided.
			name: "x / Shape(x)[0]",
			g: new(graph).input("x", onnxwire.Int64, param("n"), fixed(3)).i64("zero", []int64{}, 0).
				node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n").node("Div", []string{"x", "n"}, "z").output("z", onnxwire.Int64),
		},
		{
			// |y| + 1 is never 0 (but at MAX, where it wraps to MIN).
			name: "x / (|y| + 1)",
			g: new(graph).input("x", onnxwire.Int64, four...).input("y", onnxwire.Int64, four...).i64("one", []int64{}, 1).
				node("Abs", []string{"y"}, "a").node("Add", []string{"a", "one"}, "d").node("Div", []string{"x", "d"}, "z").output("z", onnxwire.Int64),
		},
		{
			name: "x / 0",
			g: new(graph).input("x", onnxwire.Int64, four...).i64("zero", []int64{}, 0).
				node("Div", []string{"x", "zero"}, "z").output("z", onnxwire.Int64),
			code: ZeroDivisor, severity: Error,
		},
		{
			name: "x mod 0",
			g: new(graph).input("x", onnxwire.Int64, four...).i64("zero", []int64{}, 0).
				node("Mod", []string{"x", "zero"}, "z").output("z", onnxwire.Int64),
			code: ModZeroDivisor, severity: Error,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Model(tc.g.imported(t), "m.onnx", Options{})
			fs := findings(r)
			got := append(fs[ZeroDivisor], fs[ModZeroDivisor]...)
			if tc.code == "" {
				if len(got) != 0 {
					t.Fatalf("%s: %s", got[0].Code, got[0].Message)
				}
				return
			}
			if len(got) != 1 || got[0].Code != tc.code || got[0].Severity != tc.severity {
				t.Fatalf("got %+v, want one %s %s", got, tc.severity, tc.code)
			}
			f := got[0]
			t.Logf("%s: %s", f.Code, f.Message)
			checkFault(t, f, tc.g, tc.check, runner, ortErr, tc.ort)
		})
	}
}

// checkFault checks a zero-divisor or overflow finding f of the model g:
// a certain one (an error) has no counter-example; a reachable one has
// one, with its inputs and index, which check (if any) looks at further,
// and under which ONNX Runtime, where found, fails with an error holding
// ort ("Integer division by zero"; MIN / -1 kills node, not this
// process, and RunJobs says so), or runs where ort is "" (MIN % -1 of
// Mod with fmod 1, which it computes as 0).
func checkFault(t *testing.T, f Finding, g *graph, check func(*testing.T, Finding), runner ortreplay.Runner, ortErr error, ort string) {
	t.Helper()
	if f.Severity == Error {
		if f.CounterExample != nil {
			t.Errorf("a certain fault with a counter-example")
		}
		return
	}
	if f.CounterExample == nil || f.Evidence.Get("inputs") == nil || f.Evidence.Get("index") == nil {
		t.Fatalf("no counter-example: %+v", f.Evidence)
	}
	if check != nil {
		check(t, f)
	}
	if ortErr != nil {
		return
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{f.CounterExample.Inputs}}})
	switch {
	case ort == "":
		if err != nil || res[0][0].Err != nil {
			t.Errorf("ONNX Runtime at the counter-example: %v %v, want a run", err, res)
		}
	case err != nil:
		if !strings.Contains(err.Error(), ort) {
			t.Errorf("ONNX Runtime at the counter-example: %v, want %q", err, ort)
		}
	case res[0][0].Err == nil || !strings.Contains(res[0][0].Err.Error(), ort):
		t.Errorf("ONNX Runtime at the counter-example: %v %v, want %q", res[0][0].Outputs, res[0][0].Err, ort)
	}
}

// TestReachableZeroDivisorOpaque: a divisor irdiv does not follow (an op
// it does not know) may be 0, but no input is found: nothing is said.
func TestReachableZeroDivisorOpaque(t *testing.T) {
	b := newBuilder(t, "")
	x := b.param("x", ir.I32, "3")
	unknown := b.op("TopK", "opset11", nil, ir.I32, []int64{}, x)
	b.divide("d", x, unknown, false)
	if f := findings(Model(b.m, "t", Options{}))[ZeroDivisor]; len(f) != 0 {
		t.Errorf("%+v", f)
	}
}
