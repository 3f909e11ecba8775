package ortreplay

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/safename"
	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
)

const pytorchDir = "../../testdata/pytorch"

// runner returns ONNX Runtime or skips the test, saying why.
func runner(t *testing.T) Runner {
	t.Helper()
	r, err := Find()
	if err != nil {
		t.Skipf("skipped: ONNX Runtime is not available: %v", err)
	}
	t.Logf("running on %v", r)
	return r
}

type expectedModel struct {
	Model     string `json:"model"`
	File      string `json:"file"`
	FloorFile string `json:"floor_file"`
	Divs      []struct {
		Output         string `json:"output"`
		Verdict        string `json:"verdict"`
		CounterExample *struct {
			Dir    string `json:"dir"`
			Inputs map[string]struct {
				Type   string        `json:"type"`
				Shape  []int64       `json:"shape"`
				Values []json.Number `json:"values"`
			} `json:"inputs"`
		} `json:"counter_example"`
	} `json:"divs"`
}

func readExpected(t *testing.T) []expectedModel {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(pytorchDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var models []expectedModel
	if err := d.Decode(&models); err != nil {
		t.Fatal(err)
	}
	if len(models) == 0 {
		t.Fatal("expected.json lists no models")
	}
	return models
}

// TestReplayCounterExamples replays every committed counter-example: the
// export and its flooring twin must give different outputs, and the
// export against itself the same ones.
func TestReplayCounterExamples(t *testing.T) {
	r := runner(t)
	replayed := 0
	dirs := map[string]bool{}
	for _, m := range readExpected(t) {
		for _, div := range m.Divs {
			ce := div.CounterExample
			if (ce != nil) != (div.Verdict == "error") {
				t.Errorf("%s: Div %s: verdict %s with counter-example %v", m.Model, div.Output, div.Verdict, ce != nil)
			}
			if ce == nil {
				continue
			}
			if testing.Short() && replayed >= 4 {
				continue
			}
			dirs[filepath.Clean(ce.Dir)] = true
			replayed++
			t.Run(ce.Dir, func(t *testing.T) {
				t.Parallel() // each replay waits on node processes
				dir := filepath.Join(pytorchDir, ce.Dir)
				model, floor := filepath.Join(pytorchDir, m.File), filepath.Join(pytorchDir, m.FloorFile)
				differ, detail, err := ReplayDir(r, model, floor, dir)
				if err != nil {
					t.Fatal(err)
				}
				if !differ {
					t.Errorf("%s and %s agree on the counter-example of Div %s: %s", m.File, m.FloorFile, div.Output, detail)
				}
				if strings.HasSuffix(m.Model, "_op14") {
					// The difference comes from the flooring, not from ORT: the
					// export against itself agrees (checked at one opset, to save time).
					same, detail, err := ReplayDir(r, model, model, dir)
					if err != nil || same {
						t.Errorf("%s against itself: differ=%v %s %v", m.File, same, detail, err)
					}
				}
				checkFolderMatchesJSON(t, dir, ce.Inputs)
			})
		}
	}
	if !testing.Short() {
		// Every folder on disk is one expected.json describes.
		found, _ := filepath.Glob(filepath.Join(pytorchDir, "cex", "*", "*"))
		for _, f := range found {
			rel, _ := filepath.Rel(pytorchDir, f)
			if !dirs[rel] {
				t.Errorf("%s is not a counter-example of expected.json", rel)
			}
		}
	}
	t.Logf("replaying %d counter-examples on %v: each must change the outputs of the flooring twin", replayed, r)
}

// checkFolderMatchesJSON compares the .npy files with the values
// expected.json gives for them.
func checkFolderMatchesJSON(t *testing.T, dir string, inputs map[string]struct {
	Type   string        `json:"type"`
	Shape  []int64       `json:"shape"`
	Values []json.Number `json:"values"`
}) {
	t.Helper()
	files := safename.Files(slices.Collect(maps.Keys(inputs)))
	for name, want := range inputs {
		got, err := npy.ReadFile(filepath.Join(dir, files[name]), 0)
		if err != nil {
			t.Error(err)
			continue
		}
		if typeNames[got.Type] != want.Type || !slices.Equal(got.Shape, want.Shape) || got.Len() != len(want.Values) {
			t.Errorf("%s/%s.npy: %s%v, expected.json says %s%v", dir, name, got.Type, got.Shape, want.Type, want.Shape)
			continue
		}
		for i, v := range want.Values {
			if !numberIs(got, i, v) {
				t.Errorf("%s/%s.npy: element %d is %s, expected.json says %s", dir, name, i, elem(got, i), v)
				break
			}
		}
	}
}

func numberIs(t *ir.Tensor, i int, v json.Number) bool {
	if t.Type.IsFloat() {
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == float(t, i)
	}
	return elem(t, i) == string(v)
}

// TestFlooringTwins checks the committed twins of the one-Div value
// models with Go's own arithmetic: the export truncates (Go's /), the twin
// floors (testutil.FloorDiv), for every pair of edge values.
func TestFlooringTwins(t *testing.T) {
	r := runner(t)
	edges := []int32{0, 1, -1, 2, -2, 3, -3, 5, -5, 7, -7, 15, -15, 16, -16, 17, -17, 100, -100,
		math.MaxInt32, math.MaxInt32 - 1, math.MinInt32, math.MinInt32 + 1}
	for _, opset := range []string{"9", "11", "13", "14"} {
		// quant_shift: acc // 16, one input.
		acc, _ := ir.TensorOf(ir.I32, []int64{1, int64(len(edges))}, edges)
		check := func(file string, want func(i int) int32, inputs map[string]*ir.Tensor) {
			t.Helper()
			out, err := r.Run(filepath.Join(pytorchDir, file), inputs)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 {
				t.Fatalf("%s: %d outputs", file, len(out))
			}
			for _, y := range out {
				got := ir.View[int32](y)
				for i := range got {
					if got[i] != want(i) {
						t.Errorf("%s: element %d is %d, want %d", file, i, got[i], want(i))
					}
				}
			}
		}
		check("quant_shift_op"+opset+".onnx", func(i int) int32 { return edges[i] / 16 }, map[string]*ir.Tensor{"acc": acc})
		check("quant_shift_op"+opset+".floor.onnx", func(i int) int32 { return testutil.FloorDiv(edges[i], 16) }, map[string]*ir.Tensor{"acc": acc})

		// div_trunc: a / b, two inputs; every pair but b = 0 and MIN / -1.
		var as, bs []int32
		for _, a := range edges {
			for _, b := range edges {
				if b != 0 && (a != math.MinInt32 || b != -1) {
					as, bs = append(as, a), append(bs, b)
				}
			}
		}
		a, _ := ir.TensorOf(ir.I32, []int64{1, int64(len(as))}, as)
		b, _ := ir.TensorOf(ir.I32, []int64{1, int64(len(bs))}, bs)
		in := map[string]*ir.Tensor{"a": a, "b": b}
		check("div_trunc_op"+opset+".onnx", func(i int) int32 { return as[i] / bs[i] }, in)
		check("div_trunc_op"+opset+".floor.onnx", func(i int) int32 { return testutil.FloorDiv(as[i], bs[i]) }, in)
	}
}

// TestRunONNXTestData runs ONNX's own Div tests and compares with their
// expected outputs, exactly: the runner's encoding of every type is right.
func TestRunONNXTestData(t *testing.T) {
	r := runner(t)
	models := testutil.SharedFiles(t, "onnx-div-tests/test_div*/model.onnx")
	for _, model := range models {
		set := filepath.Join(filepath.Dir(model), "test_data_set_0")
		x, xName, err := onnx.ReadTensorFile(filepath.Join(set, "input_0.pb"), onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		y, yName, err := onnx.ReadTensorFile(filepath.Join(set, "input_1.pb"), onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, zName, err := onnx.ReadTensorFile(filepath.Join(set, "output_0.pb"), onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Run(model, map[string]*ir.Tensor{xName: x, yName: y})
		if err != nil {
			t.Errorf("%s: %v", model, err)
			continue
		}
		got := out[zName]
		if got == nil {
			t.Errorf("%s: no output %q", model, zName)
			continue
		}
		if got.Type != want.Type || !slices.Equal(got.Shape, want.Shape) || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("%s: ONNX Runtime gives %s%v %s, the test data %s%v %s", filepath.Base(filepath.Dir(model)),
				got.Type, got.Shape, differ(got, want), want.Type, want.Shape, differ(want, got))
		}
	}
	t.Logf("%d ONNX Div tests give their expected outputs bit for bit", len(models))
}

// sanitizedModel is y = Identity(x) with input name "in:0/x" (a
// TensorFlow-style name) and an initializer that is also a graph input,
// which is not fed.
func sanitizedModel(t *testing.T) string {
	t.Helper()
	raw := make([]byte, 4)
	g := onnxwire.Graph("g",
		[][]byte{onnxwire.Node("Add", "add", []string{"in:0/x", "bias"}, []string{"y"})},
		[][]byte{onnxwire.Tensor("bias", onnxwire.Int32, []int64{1}, raw)},
		[][]byte{onnxwire.Value("in:0/x", onnxwire.Int32, 2), onnxwire.Value("bias", onnxwire.Int32, 1)},
		[][]byte{onnxwire.Value("y", onnxwire.Int32, 2)})
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, g), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInputNames(t *testing.T) {
	names, err := InputNames(sanitizedModel(t))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"in:0/x"}) {
		t.Errorf("InputNames = %q, want [in:0/x] (the initializer bias is not an input to feed)", names)
	}
	bad := filepath.Join(t.TempDir(), "bad.onnx")
	os.WriteFile(bad, []byte{0x3a, 0x05, 1}, 0o644) // field 7, length 5, 1 byte
	if _, err := InputNames(bad); err == nil || !strings.Contains(err.Error(), "malformed ONNX model") {
		t.Errorf("InputNames of a truncated model: %v", err)
	}
}

// TestReplayDirFiles checks the folder rules: files matched by sanitised
// name, a missing or an extra file named in the error.
func TestReplayDirFiles(t *testing.T) {
	r := runner(t)
	model := sanitizedModel(t)
	dir := t.TempDir()
	x, _ := ir.TensorOf(ir.I32, []int64{2}, []int32{-3, 4})
	if f := safename.Files([]string{"in:0/x"})["in:0/x"]; f != "in_0_x.npy" {
		t.Fatalf("the file of input in:0/x is %q", f)
	}
	file := filepath.Join(dir, "in_0_x.npy")

	if _, _, err := ReplayDir(r, model, model, dir); err == nil || !strings.Contains(err.Error(), "missing file in_0_x.npy") {
		t.Errorf("empty folder: %v", err)
	}
	if err := npy.WriteFile(file, x); err != nil {
		t.Fatal(err)
	}
	differ, detail, err := ReplayDir(r, model, model, dir)
	if err != nil || differ {
		t.Errorf("model against itself: differ=%v %q %v", differ, detail, err)
	}
	if err := npy.WriteFile(filepath.Join(dir, "bias.npy"), x); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReplayDir(r, model, model, dir); err == nil || !strings.Contains(err.Error(), "extra file bias.npy") {
		t.Errorf("extra file: %v", err)
	}
}

// TestCompare covers what counts as different without running anything.
func TestCompare(t *testing.T) {
	f := func(v ...float32) *ir.Tensor { x, _ := ir.TensorOf(ir.F32, []int64{int64(len(v))}, v); return x }
	i := func(v ...int64) *ir.Tensor { x, _ := ir.TensorOf(ir.I64, []int64{int64(len(v))}, v); return x }
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	fail := result{err: os.ErrInvalid}
	for _, tc := range []struct {
		name   string
		a, b   result
		differ bool
	}{
		{"equal", result{outputs: map[string]*ir.Tensor{"y": i(1, -2)}}, result{outputs: map[string]*ir.Tensor{"y": i(1, -2)}}, false},
		{"element", result{outputs: map[string]*ir.Tensor{"y": i(0, 1)}}, result{outputs: map[string]*ir.Tensor{"y": i(-1, 1)}}, true},
		{"shape", result{outputs: map[string]*ir.Tensor{"y": i(0)}}, result{outputs: map[string]*ir.Tensor{"y": i(0, 0)}}, true},
		{"type", result{outputs: map[string]*ir.Tensor{"y": i(0)}}, result{outputs: map[string]*ir.Tensor{"y": f(0)}}, true},
		{"NaN equals NaN", result{outputs: map[string]*ir.Tensor{"y": f(nan, 1)}}, result{outputs: map[string]*ir.Tensor{"y": f(nan, 1)}}, false},
		{"-0 equals 0", result{outputs: map[string]*ir.Tensor{"y": f(negZero)}}, result{outputs: map[string]*ir.Tensor{"y": f(0)}}, false},
		{"float element", result{outputs: map[string]*ir.Tensor{"y": f(0.5)}}, result{outputs: map[string]*ir.Tensor{"y": f(0.25)}}, true},
		{"one fails", fail, result{outputs: map[string]*ir.Tensor{"y": i(0)}}, true},
		{"other fails", result{outputs: map[string]*ir.Tensor{"y": i(0)}}, fail, true},
		{"both fail", fail, fail, false},
	} {
		got, detail := compare(tc.a, tc.b)
		if got != tc.differ {
			t.Errorf("%s: differ = %v (%s), want %v", tc.name, got, detail, tc.differ)
		}
	}
	_, detail := compare(result{outputs: map[string]*ir.Tensor{"y": i(5, 0, 1)}}, result{outputs: map[string]*ir.Tensor{"y": i(5, -1, 1)}})
	if want := `output "y": 1 of 3 elements differ, first at [1]: 0, flooring -1`; detail != want {
		t.Errorf("detail %q, want %q", detail, want)
	}
}

// TestFindHonoursIRDIV_ORT_DIR: a set variable that names no package is
// an error naming it, not a silent fallback to bench/out.
func TestFindHonoursIRDIV_ORT_DIR(t *testing.T) {
	if _, err := Find(); err != nil && strings.Contains(err.Error(), "node is not on PATH") {
		t.Skipf("skipped: %v", err)
	}
	dir := t.TempDir()
	t.Setenv("IRDIV_ORT_DIR", dir)
	_, err := Find()
	if err == nil || !strings.Contains(err.Error(), "IRDIV_ORT_DIR="+dir) {
		t.Errorf("Find with IRDIV_ORT_DIR=%s (empty): %v", dir, err)
	}
}

// TestRunJobs: each job's model sees its own runs; a run ONNX Runtime
// refuses, and a model it cannot load, are outcomes, not a failed batch.
func TestRunJobs(t *testing.T) {
	r := runner(t)
	model := sanitizedModel(t) // y = in:0/x + 0, int32[2]
	broken := filepath.Join(t.TempDir(), "broken.onnx")
	if err := os.WriteFile(broken, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := func(vs ...int32) map[string]*ir.Tensor {
		x, _ := ir.TensorOf(ir.I32, []int64{int64(len(vs))}, vs)
		return map[string]*ir.Tensor{"in:0/x": x}
	}
	res, err := r.RunJobs([]Job{
		{Model: model, Runs: []map[string]*ir.Tensor{in(1, -2), in(7, 8, 9), in(-5, 6)}},
		{Model: broken, Runs: []map[string]*ir.Tensor{in(1, 2)}},
		{Model: model, Runs: []map[string]*ir.Tensor{in(3, 4)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || len(res[0]) != 3 || len(res[1]) != 1 || len(res[2]) != 1 {
		t.Fatalf("outcomes %v", res)
	}
	for _, tc := range []struct {
		name string
		got  Outcome
		want []int32 // nil: an error
	}{
		{"first run", res[0][0], []int32{1, -2}},
		{"wrong shape", res[0][1], nil},
		{"third run", res[0][2], []int32{-5, 6}},
		{"unloadable model", res[1][0], nil},
		{"second job", res[2][0], []int32{3, 4}},
	} {
		if tc.want == nil {
			if tc.got.Err == nil {
				t.Errorf("%s: outputs %v, want an error", tc.name, tc.got.Outputs)
			}
			continue
		}
		y := tc.got.Outputs["y"]
		if tc.got.Err != nil || y == nil || !slices.Equal(ir.View[int32](y), tc.want) {
			t.Errorf("%s: %v %v, want y = %v", tc.name, tc.got.Outputs, tc.got.Err, tc.want)
		}
	}
	if !strings.Contains(res[1][0].Err.Error(), "cannot load") {
		t.Errorf("unloadable model: %v", res[1][0].Err)
	}
}

// TestRunJobsDivisionByZero: ONNX Runtime fails a run whose integer Div
// or Mod divides by zero with an error, and the batch goes on (a
// zero-divisor counter-example replays as that run's Err), even where
// the output is empty; MIN / -1 and MIN % -1 of Mod with fmod 0 kill node
// (SIGFPE), the batch's error; fmod 1 gives 0 there.
func TestRunJobsDivisionByZero(t *testing.T) {
	r := runner(t)
	dir := t.TempDir()
	model := func(name, op string, attrs ...[]byte) string {
		g := onnxwire.Graph("g",
			[][]byte{onnxwire.NodeAttrs(op, "op", []string{"x", "y"}, []string{"z"}, attrs...)}, nil,
			[][]byte{onnxwire.ValueDims("x", onnxwire.Int64, []onnxwire.Dim{{Param: "n"}}), onnxwire.ValueDims("y", onnxwire.Int64, []onnxwire.Dim{{Param: "m"}})},
			[][]byte{onnxwire.ValueDims("z", onnxwire.Int64, nil)})
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, onnxwire.Model(13, g), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	div, mod, fmod := model("div.onnx", "Div"), model("mod.onnx", "Mod"), model("fmod.onnx", "Mod", onnxwire.IntAttr("fmod", 1))
	in := func(x, y []int64) map[string]*ir.Tensor {
		xt, _ := ir.TensorOf(ir.I64, []int64{int64(len(x))}, x)
		yt, _ := ir.TensorOf(ir.I64, []int64{int64(len(y))}, y)
		return map[string]*ir.Tensor{"x": xt, "y": yt}
	}
	res, err := r.RunJobs([]Job{
		{Model: div, Runs: []map[string]*ir.Tensor{in([]int64{6, 7}, []int64{2, 0}), in([]int64{}, []int64{0}), in([]int64{6, 7}, []int64{2, 7})}},
		{Model: mod, Runs: []map[string]*ir.Tensor{in([]int64{6, 7}, []int64{0, 1})}},
		{Model: fmod, Runs: []map[string]*ir.Tensor{in([]int64{6, 7}, []int64{0, 1})}},
	})
	if err != nil {
		t.Fatalf("a batch with divisions by zero: %v", err)
	}
	for _, tc := range []struct {
		name string
		got  Outcome
		want string // the error's text; "" for outputs
	}{
		{"Div by 0", res[0][0], "Integer division by zero"},
		{"Div by 0 of an empty x", res[0][1], "Integer division by zero"},
		{"Div after", res[0][2], ""},
		{"Mod by 0", res[1][0], "Integer modulo by zero"},
		{"fmod by 0", res[2][0], "Integer modulo by zero"},
	} {
		if tc.want == "" {
			if z := tc.got.Outputs["z"]; tc.got.Err != nil || z == nil || !slices.Equal(ir.View[int64](z), []int64{3, 1}) {
				t.Errorf("%s: %v %v, want z = [3 1]", tc.name, tc.got.Outputs, tc.got.Err)
			}
			continue
		}
		if tc.got.Err == nil || !strings.Contains(tc.got.Err.Error(), tc.want) {
			t.Errorf("%s: %v %v, want the error %q", tc.name, tc.got.Outputs, tc.got.Err, tc.want)
		}
	}
	_, err = r.RunJobs([]Job{{Model: div, Runs: []map[string]*ir.Tensor{in([]int64{math.MinInt64}, []int64{-1})}}})
	if err == nil || !strings.Contains(err.Error(), "floating point exception") {
		t.Errorf("MIN / -1: %v, want node killed by SIGFPE", err)
	}
	// MIN % -1: Mod (fmod 0) computes C's %, which traps as / does;
	// fmod 1 computes it in double, 0 (validate's mod/overflow says so).
	_, err = r.RunJobs([]Job{{Model: mod, Runs: []map[string]*ir.Tensor{in([]int64{math.MinInt64}, []int64{-1})}}})
	if err == nil || !strings.Contains(err.Error(), "floating point exception") {
		t.Errorf("MIN %% -1 (fmod 0): %v, want node killed by SIGFPE", err)
	}
	res, err = r.RunJobs([]Job{{Model: fmod, Runs: []map[string]*ir.Tensor{in([]int64{math.MinInt64}, []int64{-1})}}})
	if err != nil || res[0][0].Err != nil || !slices.Equal(ir.View[int64](res[0][0].Outputs["z"]), []int64{0}) {
		t.Errorf("MIN %% -1 (fmod 1): %v %v, want z = [0]", err, res)
	}
}

// TestMaxMemory: with MaxMemory, a run that would allocate beyond it
// fails with an error of its own, and the batch goes on (without it,
// node took 22 GB of a 24 GB host in the random models' differential
// before the kernel killed it).
func TestMaxMemory(t *testing.T) {
	r := runner(t)
	r.MaxMemory = 2 << 30
	g := onnxwire.Graph("g",
		[][]byte{
			onnxwire.Node("ConstantOfShape", "fill", []string{"shape"}, []string{"big"}),
			onnxwire.NodeAttrs("ReduceSum", "sum", []string{"big"}, []string{"s"}, onnxwire.IntAttr("keepdims", 0)),
		}, nil,
		[][]byte{onnxwire.ValueDims("shape", onnxwire.Int64, []onnxwire.Dim{{Value: 1}})},
		[][]byte{onnxwire.ValueDims("s", onnxwire.Float, nil)})
	path := filepath.Join(t.TempDir(), "fill.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, g), 0o644); err != nil {
		t.Fatal(err)
	}
	shape := func(n int64) map[string]*ir.Tensor {
		x, _ := ir.TensorOf(ir.I64, []int64{1}, []int64{n})
		return map[string]*ir.Tensor{"shape": x}
	}
	res, err := r.RunJobs([]Job{{Model: path, Runs: []map[string]*ir.Tensor{shape(1 << 30), shape(4)}}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0][0].Err == nil {
		t.Errorf("4 GiB of floats under a 2 GiB limit: outputs %v, want an error", res[0][0].Outputs)
	}
	if res[0][1].Err != nil || res[0][1].Outputs["s"] == nil {
		t.Errorf("16 bytes: %v %v, want a sum", res[0][1].Outputs, res[0][1].Err)
	}
}
