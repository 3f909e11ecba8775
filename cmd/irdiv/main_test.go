package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate"
)

// irdiv runs the command line in-process and returns stdout, stderr and
// the exit status.
func irdiv(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestEvalDoneCriteria(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"eval", "--pythondiv=true", "[-10,-10,10,10]", "[-3,3,-3,3]", "--type", "i32"}, "[3 -4 -4 3]", 0},
		{[]string{"eval", "--pythondiv=false", "[-10,-10,10,10]", "[-3,3,-3,3]", "--type", "i32"}, "[3 -3 -3 3]", 0},
		{[]string{"eval", "--type", "i32", "[1,2]", "[1,0]"}, "integer division by zero", 1},
		{[]string{"eval", "--type", "i64", "-9223372036854775808", "-1"}, "integer division overflow", 1},
		{[]string{"eval", "-7", "2", "--type", "i16"}, "-4", 0},
		{[]string{"eval", "[[1,2],[3,4]]", "[2,0]"}, "[[0.5 +Inf] [1.5 +Inf]]", 0},
		{[]string{"eval", "--type", "u8", "200", "7"}, "28", 0},
		{[]string{"eval", "--type", "f16", "[3,4]", "[5,10]"}, "[0.6 0.4]", 0},
		{[]string{"eval", "--broadcast", "none", "[1,2,3]", "[1,2]"}, "Argument shapes are inconsistent.", 1},
		{[]string{"eval", "--broadcast", "pdpd", "--axis", "0", "[[4,6],[8,10]]", "[2,1]", "--type", "i32"}, "[[2 3] [8 10]]", 0},
		{[]string{"eval", "--type", "u8", "300", "1"}, `"300" is not a u8 value`, 1},
		{[]string{"eval", "--type", "i32", "1.5", "1"}, `"1.5" is not an i32 value`, 1},
		{[]string{"eval", "[1,[2]]", "1"}, "ragged", 1},
		{[]string{"eval", "1"}, "want two operands", 2},
		{[]string{"eval", "--type", "x", "1", "1"}, "--type", 2},
		{[]string{"eval", "--nope", "1", "1"}, "flag provided but not defined", 2},
		{[]string{"frobnicate"}, "unknown command", 2},
		{[]string{}, "Usage", 2},
	} {
		stdout, stderr, code := irdiv(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("irdiv %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
		if code == 1 && (!strings.HasPrefix(stderr, "irdiv: ") || strings.Count(stderr, "\n") != 1) {
			t.Errorf("irdiv %q: error is not one line starting with \"irdiv: \": %q", tc.args, stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"eval", "run", "info", "bench"} {
		stdout, _, code := irdiv(t, cmd, "-h")
		if code != 0 || !strings.Contains(stdout, "Usage: irdiv "+cmd) {
			t.Errorf("%s -h: exit %d, %q", cmd, code, stdout)
		}
	}
}

func TestEvalNPY(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.npy")
	out := filepath.Join(dir, "out.npy")
	writeNPY(t, a, must(ir.TensorOf(ir.I32, []int64{2, 2}, []int32{-7, 7, -8, 9})))
	// The literal takes the .npy's type.
	if _, stderr, code := irdiv(t, "eval", a, "2", "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	res, err := npy.Decode(got)
	if err != nil || res.Type != ir.I32 || len(ir.View[int32](res)) != 4 || ir.View[int32](res)[0] != -4 {
		t.Errorf("result %v %v", res, err)
	}
	// A dtype that disagrees with --type is an error, never a cast.
	if _, stderr, code := irdiv(t, "eval", a, "2", "--type", "f32"); code != 1 || !strings.Contains(stderr, "never casts") {
		t.Errorf("dtype mismatch: exit %d %q", code, stderr)
	}
	// bf16 travels as <u2 bit patterns, in and out.
	bfIn := filepath.Join(dir, "bf.npy")
	writeNPY(t, bfIn, must(ir.TensorOf(ir.U16, []int64{2}, []uint16{0x3f80, 0x4000}))) // 1, 2
	if _, stderr, code := irdiv(t, "eval", "--type", "bf16", bfIn, "[0.5,1.5]", "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	res, err = npy.ReadFile(out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Type != ir.U16 || ir.View[uint16](res)[0] != 0x4000 || ir.View[uint16](res)[1] != 0x3FAB {
		t.Errorf("bf16 result %#04x", ir.View[uint16](res))
	}
	if _, stderr, code := irdiv(t, "eval", bfIn, "1", "--type", "f16"); code != 1 || !strings.Contains(stderr, "never casts") {
		t.Errorf("u2 as f16: exit %d %q", code, stderr)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func writeNPY(t *testing.T, path string, tensor *ir.Tensor) {
	t.Helper()
	if err := npy.WriteFile(path, tensor); err != nil {
		t.Fatal(err)
	}
}

func TestRunExample(t *testing.T) {
	stdout, stderr, code := irdiv(t, "run", "../../examples/floordiv/model.xml", "-i", "a=../../examples/floordiv/a.npy", "-o", t.TempDir())
	if code != 0 || !strings.Contains(stdout, "[-4 2 1 -2 -1 0 0 -15 715827882 715827882 3 1]") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Without -i the input is generated, with the seed printed.
	stdout, stderr, code = irdiv(t, "run", "../../examples/floordiv/model.xml")
	if code != 0 || !strings.Contains(stdout, "generated (seed 1)") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code = irdiv(t, "run", "../../examples/floordiv/model.xml", "-i", "zz=x.npy"); code != 1 || !strings.Contains(stderr, "no input") {
		t.Errorf("unknown input: exit %d %q", code, stderr)
	}
}

func TestMalformedModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.xml")
	os.WriteFile(path, []byte(`<net name="x" version="11"><layers><layer id="0" name="p" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output><port id="0" precision="FP32"><dim>-7</dim></port></output></layer></layers></net>`), 0o644)
	for _, cmd := range []string{"info", "run"} {
		_, stderr, code := irdiv(t, cmd, path)
		if code != 1 || !strings.Contains(stderr, "must be greater or equal to -1") || !strings.Contains(stderr, path) {
			t.Errorf("%s: exit %d %q", cmd, code, stderr)
		}
	}
}

// TestSharedModels: info --json works on every model, and run --layer
// evaluates every Divide in them.
func TestSharedModels(t *testing.T) {
	divides := 0
	for _, f := range testutil.SharedFiles(t, "ir-models/*/*.xml") {
		stdout, stderr, code := irdiv(t, "info", "--json", f)
		if code != 0 {
			t.Fatalf("info %s: %s", f, stderr)
		}
		// Every documented key is there (decoding into the struct alone
		// would pass with keys missing).
		var keys map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &keys); err != nil {
			t.Fatalf("info %s: %v", f, err)
		}
		for _, key := range []string{"name", "ir_version", "inputs", "outputs", "layers", "edges", "unsupported", "warnings"} {
			if _, ok := keys[key]; !ok {
				t.Errorf("info --json %s lacks %q", f, key)
			}
		}
		var info infoJSON
		if err := json.Unmarshal([]byte(stdout), &info); err != nil || info.IRVersion < 10 || len(info.Layers) == 0 || info.Inputs == nil {
			t.Fatalf("info %s: %v", f, err)
		}
		for _, l := range info.Layers {
			if l.Type != "Divide" {
				continue
			}
			divides++
			if l.Attributes["auto_broadcast"] != "numpy" || l.Attributes["m_pythondiv"] != "true" || len(l.Outputs) != 1 {
				t.Errorf("%s: Divide %d described as %+v", f, l.ID, l)
			}
			stdout, stderr, code := irdiv(t, "run", f, "--layer", "id:"+jsonNumber(l.ID))
			if code != 0 || !strings.Contains(stdout, "output") {
				t.Errorf("run --layer %d of %s: exit %d %s", l.ID, f, code, stderr)
			}
		}
		if _, stderr, code := irdiv(t, "info", f); code != 0 {
			t.Errorf("info %s: %s", f, stderr)
		}
	}
	if divides < 60 {
		t.Errorf("found %d Divide layers, INDEX.md lists 64", divides)
	}
}

func jsonNumber(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func TestBenchPercentileRule(t *testing.T) {
	var lat latencies
	for _, d := range []time.Duration{4, 1, 3, 2} {
		lat.add(float64(d * time.Millisecond))
	}
	for _, tc := range []struct {
		p      float64
		median float64
	}{{50, 3}, {100, 4}, {1, 1}, {75, 4}} {
		res := benchResult{Percentile: tc.p}
		summarize(&res, &lat, 4, 10*time.Millisecond, 11*time.Millisecond)
		if res.LatencyMS.Median != tc.median || res.LatencyMS.Min != 1 || res.LatencyMS.Max != 4 || res.LatencyMS.Average != 2.5 || res.ThroughputFPS != 400 || res.WallMS != 11 {
			t.Errorf("p=%g: %+v", tc.p, res)
		}
	}
}

func TestBenchCommand(t *testing.T) {
	stdout, stderr, code := irdiv(t, "bench", "../../examples/floordiv/model.xml", "-niter", "50", "--json", "--shape", "a=[8,4]", "-nthreads", "1")
	var res map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res["count"] != 50.0 || res["threads"] != 1.0 || res["simd"] == "" {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	for _, key := range []string{"duration_ms", "throughput_fps", "latency_ms"} {
		if _, ok := res[key]; !ok {
			t.Errorf("--json lacks %q", key)
		}
	}
	stdout, _, code = irdiv(t, "bench", "../../examples/floordiv/model.xml", "-niter", "10", "--latency-percentile", "90")
	if code != 0 || !strings.Contains(stdout, "[ INFO ] Count:            10 iterations") || !strings.Contains(stdout, "90 percentile:") {
		t.Errorf("text output: %s", stdout)
	}
	if _, _, code := irdiv(t, "bench", "../../examples/floordiv/model.xml", "--shape", "a=[?,4]"); code != 2 {
		t.Errorf("dynamic --shape accepted: exit %d", code)
	}
	if _, stderr, code := irdiv(t, "bench", "../../examples/floordiv/model.xml", "-niter", "1", "--simd", "sse9"); code != 2 || !strings.Contains(stderr, "--simd sse9: must be one of auto, generic") {
		t.Errorf("--simd sse9: exit %d %s", code, stderr)
	}
	_, stderr, code = irdiv(t, "bench", "../../examples/floordiv/model.xml", "-niter", "1", "--simd", "avx512")
	if ops.SIMDAVX512.Available() != (code == 0) {
		t.Errorf("--simd avx512 where available is %v: exit %d %s", ops.SIMDAVX512.Available(), code, stderr)
	}
}

func TestHelpAndVersion(t *testing.T) {
	stdout, _, code := irdiv(t, "help", "run")
	if code != 0 || !strings.Contains(stdout, "Usage: irdiv run") || !strings.Contains(stdout, "--layer") {
		t.Errorf("help run: exit %d %q", code, stdout)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, _, code := irdiv(t, args...)
		if code != 0 || !strings.HasPrefix(stdout, "irdiv ") || !strings.Contains(stdout, " simd ") || !strings.Contains(stdout, "go1.") {
			t.Errorf("%v: exit %d %q", args, code, stdout)
		}
	}
}

// TestEvalOperandsBySyntax: an operand is a literal or a file by its
// syntax, whatever the current folder holds.
func TestEvalOperandsBySyntax(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("2", []byte("not a .npy file"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := irdiv(t, "eval", "[4,6]", "2")
	if code != 0 || !strings.Contains(stdout, "[2 3]") {
		t.Errorf("eval [4,6] 2 beside a file named 2: exit %d %q %q", code, stdout, stderr)
	}
	writeNPY(t, "x", must(ir.TensorOf(ir.I32, []int64{2}, []int32{9, -9})))
	stdout, stderr, code = irdiv(t, "eval", "x", "2")
	if code != 0 || !strings.Contains(stdout, "[4 -5]") {
		t.Errorf("eval x 2 (a .npy named x): exit %d %q %q", code, stdout, stderr)
	}
	if _, stderr, code := irdiv(t, "eval", "1e999", "2"); code != 0 {
		t.Errorf("eval 1e999 2 (a number too large for f64 is still a literal): %q", stderr)
	}
}

// TestONNXConformanceCLI: every case of ONNX's Div test data goes through
// irdiv convert and irdiv run --inputs --expected, and matches exactly.
func TestONNXConformanceCLI(t *testing.T) {
	models := testutil.SharedFiles(t, "onnx-div-tests/*/model.onnx")
	more, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(models[0])), "_*/*/model.onnx"))
	ran := 0
	for _, path := range append(models, more...) {
		if strings.Contains(path, "_other_contains_div") {
			continue // Softsign has Abs and Add: onnx's tests check the refusal
		}
		ran++
		xml := filepath.Join(t.TempDir(), "model.xml")
		if _, stderr, code := irdiv(t, "convert", path, "-o", xml); code != 0 {
			t.Errorf("convert %s: %s", path, stderr)
			continue
		}
		set := filepath.Join(filepath.Dir(path), "test_data_set_0")
		stdout, stderr, code := irdiv(t, "run", xml, "--inputs", set, "--expected", set)
		if code != 0 || !strings.Contains(stdout, "matches") {
			t.Errorf("run %s: exit %d\n%s%s", path, code, stdout, stderr)
		}
		// The .onnx runs directly too.
		if _, stderr, code := irdiv(t, "run", path, "--inputs", set, "--expected", set); code != 0 {
			t.Errorf("run %s: %s", path, stderr)
		}
	}
	if ran < 18 {
		t.Errorf("ran %d cases", ran)
	}
}

// TestExpectedMismatch: a Divide that floors where ONNX truncates fails
// --expected with the count, the indices, both values and the operands.
func TestExpectedMismatch(t *testing.T) {
	dir := testutil.SharedDir(t, "onnx-div-tests/test_div_int32_trunc")
	xml := filepath.Join(t.TempDir(), "ov.xml")
	if _, stderr, code := irdiv(t, "convert", filepath.Join(dir, "model.onnx"), "-o", xml); code != 0 {
		t.Fatal(stderr)
	}
	// As OpenVINO's importer writes it.
	text, err := os.ReadFile(xml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(xml, []byte(strings.Replace(string(text), `m_pythondiv="false"`, `m_pythondiv="true"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	set := filepath.Join(dir, "test_data_set_0")
	stdout, stderr, code := irdiv(t, "run", xml, "--inputs", set, "--expected", set)
	for _, want := range []string{"differs from", "in 2 of 4 values", "[0] got -2, expected -1 (-3 / 2)", "[3] got -2, expected -1 (3 / -2)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in\n%s", want, stdout)
		}
	}
	if code != 1 || !strings.Contains(stderr, `output "z" differs`) {
		t.Errorf("exit %d %q", code, stderr)
	}
}

// TestInfoDetails: info --json gives edges, reader warnings, which Divide
// attributes the file writes, output names and small Consts' values;
// --dot draws the graph, or the part around a layer, coloured by
// validate's findings.
func TestInfoDetails(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("../../examples/floordiv/model.xml")
	if err != nil {
		t.Fatal(err)
	}
	// m_pythondiv left to its default, auto_broadcast written twice (the
	// first wins, with a warning), and a -1 in the divisor.
	xml := strings.Replace(string(text), `<data auto_broadcast="numpy" m_pythondiv="true" />`, `<data auto_broadcast="numpy" auto_broadcast="none" />`, 1)
	if xml == string(text) {
		t.Fatal("the example's Divide changed; update the test")
	}
	path := filepath.Join(dir, "model.xml")
	divisor := must(ir.TensorOf(ir.I32, []int64{4}, []int32{3, -1, 4, -7}))
	if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.bin"), divisor.Data, 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := irdiv(t, "info", "--json", path)
	if code != 0 {
		t.Fatal(stderr)
	}
	var info infoJSON
	if err := json.Unmarshal([]byte(stdout), &info); err != nil {
		t.Fatal(err)
	}
	if len(info.Edges) != 3 || info.Edges[1] != (edgeJSON{FromLayer: 1, FromPort: 0, ToLayer: 2, ToPort: 1}) {
		t.Errorf("edges %+v", info.Edges)
	}
	if len(info.Warnings) != 1 || !strings.Contains(info.Warnings[0], "auto_broadcast") {
		t.Errorf("warnings %q", info.Warnings)
	}
	div, konst := info.Layers[2], info.Layers[1]
	if !div.Explicit["auto_broadcast"] || div.Explicit["m_pythondiv"] || div.Attributes["m_pythondiv"] != "true" || div.Attributes["auto_broadcast"] != "numpy" {
		t.Errorf("Divide %+v", div)
	}
	if len(div.Outputs) != 1 || !slices.Equal(div.Outputs[0].Names, []string{"div"}) {
		t.Errorf("Divide outputs %+v", div.Outputs)
	}
	if values, _ := json.Marshal(konst.Value); string(values) != "[3,-1,4,-7]" {
		t.Errorf("Const value %s", values)
	}

	stdout, stderr, code = irdiv(t, "info", "--dot", path)
	for _, want := range []string{`digraph "floordiv" {`, `n0 -> n2;`, `n2 -> n3;`, `n2 [label="div\nDivide i32[?,4]", fillcolor="#f6c453", tooltip="warning divide/overflow: `} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--dot: exit %d, no %q in\n%s%s", code, want, stdout, stderr)
		}
	}
	stdout, _, code = irdiv(t, "info", "--dot", "--around", "b", "--depth", "1", path)
	if code != 0 || !strings.Contains(stdout, "n1 -> n2;") || strings.Contains(stdout, "n0 ") || strings.Contains(stdout, "n3 ") {
		t.Errorf("--around b --depth 1: exit %d\n%s", code, stdout)
	}
	if _, stderr, code = irdiv(t, "info", "--dot", "--around", "nope", path); code != 1 || !strings.Contains(stderr, `no layer named "nope"`) {
		t.Errorf("--around nope: exit %d %q", code, stderr)
	}
	if _, stderr, code = irdiv(t, "info", "--around", "b", path); code != 2 {
		t.Errorf("--around without --dot: exit %d %q", code, stderr)
	}
}

// TestValidateCommand: text and JSON reports, --severity, --onnx with its
// counter-example, several models with one unreadable, folders, and exit
// statuses.
func TestValidateCommand(t *testing.T) {
	const (
		floordiv = "../../examples/floordiv/model.xml"
		imported = "../../examples/onnxdiv/openvino.xml"
		model    = "../../examples/onnxdiv/model.onnx"
	)
	stdout, stderr, code := irdiv(t, "validate", floordiv)
	if code != 0 || !strings.HasPrefix(stdout, "1 model: 0 errors, 0 warnings, 2 notes\n") || !strings.Contains(stdout, "  note    cpu/pythondiv-ignored [cpu, gpu]: layer \"div\" (id 2): ") ||
		!strings.Contains(stdout, "          Divide(Parameter(\"a\"), Const = [3,-3,4,-7])\n") {
		t.Errorf("floordiv: exit %d\n%s%s", code, stdout, stderr)
	}
	// --severity hides lines, not counts.
	if stdout, _, _ = irdiv(t, "validate", "--severity", "warning", floordiv); strings.Contains(stdout, "note ") || !strings.Contains(stdout, "2 notes") {
		t.Errorf("--severity warning:\n%s", stdout)
	}

	stdout, stderr, code = irdiv(t, "validate", imported, "--onnx", model)
	for _, want := range []string{
		`error   divide/floor-trunc [reference]: layer "div" (id 2): floors where ONNX truncates, and the model admits inputs where they differ: -3 / 2: ONNX gives -1, this IR gives -2`,
		`error   onnx/semantics: layer "div" (id 2): this Divide computes something else than the ONNX node "div" (Div, #0): [-7,-7,7,7] / [2,-2,2,-2]: ONNX gives [-3,3,3,-3], this IR gives [-4,3,3,-4]`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--onnx: no %q in\n%s", want, stdout)
		}
	}
	if code != 1 || stderr != "irdiv: 2 errors in 1 model\n" {
		t.Errorf("--onnx: exit %d %q", code, stderr)
	}
	// What irdiv convert writes agrees.
	converted := filepath.Join(t.TempDir(), "model.xml")
	if _, stderr, code := irdiv(t, "convert", model, "-o", converted); code != 0 {
		t.Fatal(stderr)
	}
	if stdout, stderr, code = irdiv(t, "validate", converted, "--onnx", model); code != 0 || !strings.Contains(stdout, string(validate.ONNXAgree)) || strings.Contains(stdout, "floor-trunc") {
		t.Errorf("converted: exit %d\n%s%s", code, stdout, stderr)
	}

	// JSON: one model is one report; its summary counts every finding, as
	// the text does, and "hidden" those --severity left out.
	stdout, _, code = irdiv(t, "validate", "--json", "--severity", "error", imported)
	var one struct {
		Model    string `json:"model"`
		Findings []struct {
			Severity string `json:"severity"`
			Code     string `json:"code"`
			Layer    *struct{ ID int }
			Evidence map[string]any `json:"evidence"`
		} `json:"findings"`
		Summary map[string]int `json:"summary"`
		Hidden  map[string]int `json:"hidden"`
	}
	if err := json.Unmarshal([]byte(stdout), &one); err != nil || code != 1 || one.Model != imported || len(one.Findings) != 1 ||
		one.Findings[0].Code != string(validate.FloorTrunc) || one.Findings[0].Layer == nil || one.Findings[0].Layer.ID != 2 ||
		one.Findings[0].Evidence["counter_example"] != "-3 / 2: ONNX gives -1, this IR gives -2" || one.Summary["errors"] != 1 || one.Summary["notes"] == 0 || one.Hidden["notes"] != one.Summary["notes"] {
		t.Errorf("--json: exit %d %v\n%s", code, err, stdout)
	}

	// Several models, a folder among them, and one that cannot be read.
	bad := filepath.Join(t.TempDir(), "bad.xml")
	if err := os.WriteFile(bad, []byte("<net"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = irdiv(t, "validate", "--json", "../../examples/floordiv", bad)
	var many struct {
		Models []struct {
			Model    string `json:"model"`
			Findings []struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"findings"`
		} `json:"models"`
		Summary map[string]int `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &many); err != nil || code != 1 || len(many.Models) != 2 || many.Models[0].Model != filepath.Join("../../examples/floordiv", "model.xml") ||
		many.Models[1].Findings[0].Code != string(validate.IRUnreadable) || !strings.Contains(many.Models[1].Findings[0].Message, bad) ||
		many.Summary["errors"] != 1 || many.Summary["notes"] != 2 || stderr != "irdiv: 1 error in 2 models\n" {
		t.Errorf("several: exit %d %v %q\n%s", code, err, stderr, stdout)
	}
	// Alone, an unreadable model is the command's error.
	if _, stderr, code = irdiv(t, "validate", bad); code != 1 || !strings.HasPrefix(stderr, "irdiv: ir: "+bad) {
		t.Errorf("unreadable: exit %d %q", code, stderr)
	}

	for _, args := range [][]string{
		{"validate"},
		{"validate", "--severity", "fatal", floordiv},
		{"validate", "--onnx", model, floordiv, imported},
	} {
		if _, stderr, code := irdiv(t, args...); code != 2 {
			t.Errorf("%q: exit %d %q", args, code, stderr)
		}
	}
	if _, stderr, code := irdiv(t, "validate", t.TempDir()); code != 1 || !strings.Contains(stderr, "holds no .onnx or .xml model") {
		t.Errorf("empty folder: exit %d %q", code, stderr)
	}
}
