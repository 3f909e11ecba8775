package validate

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// i32 adds an i32 initializer to g.
func (g *graph) i32(name string, dims []int64, vs ...int32) *graph {
	raw := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
	}
	g.inits = append(g.inits, onnxwire.Tensor(name, onnxwire.Int32, dims, raw))
	return g
}

// TestModOverflow: an i32 or i64 Mod (ONNX's fmod 0, OpenVINO's
// FloorMod; fmod 1, OpenVINO's Mod) whose dividend the model's inputs can
// make the type's minimum where its divisor is -1 is a warning with a
// counter-example (mod/overflow); constants that are MIN and -1 are an
// error; a dividend that is never MIN, or an i8 (promoted to int before
// %, which does not trap), gets nothing. Where ONNX Runtime is installed,
// each counter-example is replayed on the ONNX model in node, a child
// process: with fmod 0, ONNX Runtime 1.30 dies of SIGFPE there; with
// fmod 1 it computes 0.
func TestModOverflow(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", ortErr)
	}
	four := []onnxwire.Dim{fixed(4)}
	mod := func(dt int32, fmod int64) *graph {
		return new(graph).input("x", dt, four...).input("y", dt, four...).
			node("Mod", []string{"x", "y"}, "z", onnxwire.IntAttr("fmod", fmod)).output("z", dt)
	}
	// atMinusOne checks that the counter-example makes x MIN and y -1 at
	// the finding's index.
	atMinusOne := func(minimum int64) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			x, y, i := f.CounterExample.Inputs["x"], f.CounterExample.Inputs["y"], f.Evidence.Get("index").(int)
			if x == nil || y == nil || x.Format(i) != strconv.FormatInt(minimum, 10) || y.Format(i) != "-1" {
				t.Errorf("x = %v, y = %v at index %d: want %d and -1 there", x, y, i, minimum)
			}
			if ex, _ := f.Evidence.Get("example").(string); ex != strconv.FormatInt(minimum, 10)+" % -1" {
				t.Errorf("example %q", ex)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		g        *graph
		severity Severity // 0: no mod/overflow finding
		check    func(*testing.T, Finding)
		says     string // in the message: what the runtimes do
		ort      string // ONNX Runtime at the counter-example: its error, "" for a run
		// runs are inputs of a case without finding at which ONNX
		// Runtime, where installed, runs the model (no SIGFPE).
		runs map[string]*ir.Tensor
	}{
		{
			name: "i64 x mod y", g: mod(onnxwire.Int64, 0), severity: Warning,
			check: atMinusOne(math.MinInt64), says: "whose quotient overflows i64 (FloorMod: 0 in irdiv and in OpenVINO's reference", ort: "floating point exception",
		},
		{
			name: "i32 x mod y", g: mod(onnxwire.Int32, 0), severity: Warning,
			check: atMinusOne(math.MinInt32), says: "ONNX Runtime 1.30's Mod (fmod 0) dies of SIGFPE", ort: "floating point exception",
		},
		{
			name: "i32 x fmod y", g: mod(onnxwire.Int32, 1), severity: Warning,
			check: atMinusOne(math.MinInt32), says: "(Mod: 0 in irdiv and in ONNX Runtime 1.30's Mod (fmod 1)",
		},
		{
			name: "i64 MIN mod -1, constants",
			g: new(graph).input("x", onnxwire.Int64).i64("a", []int64{}, math.MinInt64).i64("b", []int64{}, -1).
				node("Mod", []string{"a", "b"}, "r").node("Add", []string{"x", "r"}, "z").output("z", onnxwire.Int64),
			severity: Error, says: "dies of SIGFPE",
		},
		{
			name: "i32 MIN fmod -1, constants",
			g: new(graph).input("x", onnxwire.Int32).i32("a", []int64{}, math.MinInt32).i32("b", []int64{}, -1).
				node("Mod", []string{"a", "b"}, "r", onnxwire.IntAttr("fmod", 1)).node("Add", []string{"x", "r"}, "z").output("z", onnxwire.Int32),
			severity: Error, says: "C++'s x % y, undefined there",
		},
		{
			// max(x, 0) is never MIN, though y may be -1.
			name: "i64 max(x, 0) mod y",
			g: new(graph).input("x", onnxwire.Int64, four...).input("y", onnxwire.Int64, four...).i64("zero", []int64{}, 0).
				node("Max", []string{"x", "zero"}, "m").node("Mod", []string{"m", "y"}, "z").output("z", onnxwire.Int64),
		},
		{
			name: "i64 x mod 3",
			g: new(graph).input("x", onnxwire.Int64, four...).i64("three", []int64{}, 3).
				node("Mod", []string{"x", "three"}, "z").output("z", onnxwire.Int64),
		},
		{
			// -128 % -1 is computed in int: 0, no trap.
			name: "i8 x mod y", g: mod(3, 0), // TensorProto.INT8
			runs: map[string]*ir.Tensor{"x": i8s(-128, 1, 2, 3), "y": i8s(-1, -1, -1, -1)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(Model(tc.g.imported(t), "m.onnx", Options{}))[ModOverflow]
			if tc.severity == 0 {
				if len(got) != 0 {
					t.Fatalf("%s %s: %s", got[0].Severity, got[0].Code, got[0].Message)
				}
				if tc.runs != nil && ortErr == nil {
					checkRuns(t, tc.g, tc.runs, runner)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != tc.severity {
				t.Fatalf("got %+v, want one %s %s", got, tc.severity, ModOverflow)
			}
			f := got[0]
			t.Logf("%s: %s", f.Code, f.Message)
			if !strings.Contains(f.Message, tc.says) {
				t.Errorf("the message does not say %q", tc.says)
			}
			checkFault(t, f, tc.g, tc.check, runner, ortErr, tc.ort)
		})
	}
}

func i8s(vs ...int8) *ir.Tensor {
	t, err := ir.TensorOf(ir.I8, []int64{int64(len(vs))}, vs)
	if err != nil {
		panic(err)
	}
	return t
}

// checkRuns runs the model of g in ONNX Runtime (node, a child process)
// at inputs, which must run and give 0 for every element of z.
func checkRuns(t *testing.T, g *graph, inputs map[string]*ir.Tensor, runner ortreplay.Runner) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: []map[string]*ir.Tensor{inputs}}})
	if err != nil || res[0][0].Err != nil {
		t.Fatalf("ONNX Runtime: %v %v, want a run", err, res)
	}
	z := res[0][0].Outputs["z"]
	for i := range z.Len() {
		if z.Format(i) != "0" {
			t.Errorf("ONNX Runtime: z = %v, want zeros", z)
		}
	}
}
