package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate"
)

// TestFixExample: fix rewrites the U-Net example's two hazardous Divs,
// keeps the two proven ones, changes nothing else (node names,
// initializers, opset, producer), and the fixed model is proven whole; a
// second fix has nothing to do; --keep-proven=false rewrites all four.
func TestFixExample(t *testing.T) {
	fixed := filepath.Join(t.TempDir(), "fixed.onnx")
	stdout, stderr, code := irdiv(t, "fix", unetModel, "-o", fixed)
	if code != 0 || !strings.Contains(stdout, "rewrote 2 integer Divs (kept 2 others that validate proves safe)") || !strings.Contains(stdout, "checked: validate proves every rewritten Div") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := ortreplay.Find(); err == nil && !strings.Contains(stdout, "identical outputs on 2 input sets (ONNX Runtime") {
		t.Errorf("ONNX Runtime is here, but the outputs were not compared on it:\n%s", stdout)
	}
	report, _, code := irdiv(t, "validate", fixed)
	if code != 0 || !strings.Contains(report, "4 integer Divides: 4 proven, 0 with errors") {
		t.Errorf("validate of the fixed model: exit %d\n%s", code, report)
	}
	before, err := onnx.ReadFile(unetModel, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := onnx.ReadFile(fixed, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(m *onnx.Model) []string {
		var out []string
		for _, n := range m.Graph.Nodes {
			out = append(out, n.Name)
		}
		return out
	}
	for _, name := range names(before) {
		if !slices.Contains(names(after), name) {
			t.Errorf("node %q is gone", name)
		}
	}
	if len(names(after)) != len(names(before))+4 || len(after.Graph.Initializers) != len(before.Graph.Initializers) ||
		after.Opset != before.Opset || after.Producer != before.Producer || after.Graph.Name != before.Graph.Name {
		t.Errorf("%d nodes (was %d), %d initializers (was %d), opset %d (%d), producer %q (%q)", len(names(after)), len(names(before)),
			len(after.Graph.Initializers), len(before.Graph.Initializers), after.Opset, before.Opset, after.Producer, before.Producer)
	}
	again := filepath.Join(t.TempDir(), "again.onnx")
	if stdout, _, code := irdiv(t, "fix", fixed, "-o", again); code != 0 || !strings.Contains(stdout, "nothing to fix") {
		t.Errorf("fixing the fixed model: exit %d %s", code, stdout)
	}
	if _, err := os.Stat(again); err == nil {
		t.Error("nothing to fix, but a file was written")
	}
	if stdout, _, code := irdiv(t, "fix", unetModel, "-o", again, "--keep-proven=false"); code != 0 || !strings.Contains(stdout, "rewrote 4 integer Divs") {
		t.Errorf("--keep-proven=false: exit %d %s", code, stdout)
	}
	if _, stderr, code := irdiv(t, "fix", unetModel, "-o", unetModel); code == 0 || !strings.Contains(stderr, "-o") {
		t.Errorf("fix over its own input: exit %d %q", code, stderr)
	}
}

// TestFixReplaysWithoutONNXRuntime: where ONNX Runtime is not found, the
// fixed and the original model are compared in irdiv's own evaluation, on
// the test data beside the model and the counter-example, and fix says so.
func TestFixReplaysWithoutONNXRuntime(t *testing.T) {
	t.Setenv("IRDIV_ORT_DIR", filepath.Join(t.TempDir(), "none"))
	dir, model := divONNX(t)
	tensor := func(name string, vs ...int32) []byte {
		return onnxwire.Tensor(name, onnxwire.Int32, []int64{4}, int32s(vs...))
	}
	writeFiles(t, dir, map[string][]byte{
		"test_data_set_0/input_0.pb": tensor("x", 7, -7, 7, -7), "test_data_set_0/input_1.pb": tensor("y", 2, 2, -2, -2),
	})
	fixed := filepath.Join(dir, "fixed.onnx")
	stdout, stderr, code := irdiv(t, "fix", model, "-o", fixed)
	if code != 0 || !strings.Contains(stdout, "identical outputs on 2 input sets (irdiv's own evaluation (ONNX Runtime not found") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// The fixed model gives ONNX's truncation as OpenVINO imports it too.
	if stdout, stderr, code := irdiv(t, "validate", fixed); code != 0 || !strings.Contains(stdout, string(validate.FloorTruncAgree)) || !strings.Contains(stdout, "0 with errors") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestFixPyTorchExports: every committed PyTorch export that validate
// does not prove is fixed into a model it proves, with its outputs
// unchanged on the counter-examples; those of opset 9, which has no Mod,
// in the form of operands made non-positive. The outputs are compared
// in irdiv's own evaluation, or with IRDIV_FIX_ORT=1 in ONNX Runtime
// (.ci/run does so once: about 1.5 minutes of node processes).
func TestFixPyTorchExports(t *testing.T) {
	if testing.Short() {
		t.Skip("validates every PyTorch export twice")
	}
	if os.Getenv("IRDIV_FIX_ORT") == "" {
		t.Setenv("IRDIV_ORT_DIR", filepath.Join(t.TempDir(), "none"))
	} else if _, err := ortreplay.Find(); err != nil {
		t.Fatalf("IRDIV_FIX_ORT is set, but ONNX Runtime is not found: %v", err)
	}
	models, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pytorch", "*.onnx"))
	if len(models) < 100 {
		t.Fatalf("found %d exports", len(models))
	}
	fixedCount := 0
	for _, model := range models {
		out := filepath.Join(t.TempDir(), "fixed.onnx")
		stdout, stderr, code := irdiv(t, "fix", model, "-o", out)
		switch {
		case code != 0:
			t.Errorf("%s: exit %d %s", model, code, stderr)
		case strings.Contains(stdout, "nothing to fix"):
		default:
			fixedCount++
			if strings.Contains(model, "_op9") != strings.Contains(stdout, "made non-positive") {
				t.Errorf("%s: the form of its opset:\n%s", model, stdout)
			}
			if os.Getenv("IRDIV_FIX_ORT") != "" && !strings.Contains(stdout, "(ONNX Runtime") && !strings.Contains(stdout, "no test data set or counter-example") {
				t.Errorf("%s: not compared in ONNX Runtime:\n%s", model, stdout)
			}
			if r, _, code := irdiv(t, "validate", out); code != 0 || strings.Contains(r, "floor-trunc-possible") {
				t.Errorf("%s: the fixed model:\n%s", model, r)
			}
		}
	}
	if fixedCount < 60 {
		t.Errorf("fixed %d models", fixedCount)
	}
}

// TestFixIR: an IR from ONNX gets m_pythondiv="false" on the Divides
// validate does not prove, and nothing else in its files changes; an IR
// from PyTorch gets a truncating Divide and a flooring correction, so that
// it floors under OpenVINO's reference and under its CPU plugin, which
// truncates whatever m_pythondiv says, and validate no longer warns.
func TestFixIR(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "unet.xml")
	if _, stderr, code := irdiv(t, "convert", unetModel, "-o", xml); code != 0 {
		t.Fatal(stderr)
	}
	text, _ := os.ReadFile(xml)
	if err := os.WriteFile(xml, bytes.ReplaceAll(text, []byte(`m_pythondiv="false"`), []byte(`m_pythondiv="true"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	fixed := filepath.Join(dir, "fixed.xml")
	stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
	if code != 0 || !strings.Contains(stdout, "fixed 2 integer Divides from onnx (kept 2)") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	before, _ := os.ReadFile(xml)
	after, _ := os.ReadFile(fixed)
	if got := bytes.Count(after, []byte(`m_pythondiv="false"`)); got != 2 || len(before) != len(after)+2*len(`true`)-2*len(`false`) {
		t.Errorf("%d Divides truncate; %d bytes, was %d", got, len(after), len(before))
	}
	if report, _, code := irdiv(t, "validate", fixed); code != 0 {
		t.Errorf("the fixed IR:\n%s", report)
	}

	// From PyTorch: a // b.
	m := &ir.Model{Name: "floordiv", Version: 11, Meta: []*ir.Node{{Tag: "rt_info", Children: []*ir.Node{{Tag: "conversion_parameters", Children: []*ir.Node{
		{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: "pytorch"}}}}}}}}}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("[4]"))
	b := m.AddParameter("b", ir.I32, shapeinfer.MustParseShape("[4]"))
	d, err := ops.AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		t.Fatal(err)
	}
	m.AddResult("q", ir.Output{Layer: d})
	torch := filepath.Join(dir, "torch.xml")
	if err := ir.Write(m, torch, filepath.Join(dir, "torch.bin")); err != nil {
		t.Fatal(err)
	}
	if report, _, _ := irdiv(t, "validate", torch); !strings.Contains(report, string(validate.CPUPythonDivIgnore)) {
		t.Fatalf("no CPU warning to fix:\n%s", report)
	}
	torchFixed := filepath.Join(dir, "torch_fixed.xml")
	if stdout, stderr, code := irdiv(t, "fix", torch, "-o", torchFixed); code != 0 || !strings.Contains(stdout, "fixed 1 integer Divide from pytorch") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if report, _, _ := irdiv(t, "validate", torchFixed); strings.Contains(report, string(validate.CPUPythonDivIgnore)) {
		t.Errorf("the fixed IR still differs on the CPU plugin:\n%s", report)
	}
	fm, err := ir.ReadFile(torchFixed, ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	xs, ys := []int32{7, -7, 7, -7}, []int32{2, 2, -2, -2}
	out, err := evaluate(fm, map[string]*ir.Tensor{"a": tensorOf(t, xs), "b": tensorOf(t, ys)})
	if err != nil {
		t.Fatal(err)
	}
	if got := ir.View[int32](out["q"]); !slices.Equal(got, []int32{3, -4, -4, 3}) {
		t.Errorf("the fixed IR gives %v, want Python's // [3 -4 -4 3]", got)
	}
	for _, l := range fm.Layers {
		if l.Type == "Divide" {
			if v, _ := l.DataAttr("m_pythondiv"); v != "false" {
				t.Errorf("%s keeps m_pythondiv=%q, which the CPU plugin ignores", l, v)
			}
		}
	}
}

// TestFixBodies: the integer Divs inside an If branch and a Loop body,
// which validate finds hazardous with the values the outer graph passes,
// are rewritten where they are, and the fixed model proves both; the
// original and the fixed model agree on the counter-examples (the Loop's
// x / 3 at x = -2, the branch's x / 2 at x = -3, y = 1).
func TestFixBodies(t *testing.T) {
	i64 := func(v int64) []byte {
		return onnxwire.Tensor("", onnxwire.Int64, []int64{}, binary.LittleEndian.AppendUint64(nil, uint64(v)))
	}
	constant := func(name string, v int64) []byte {
		return onnxwire.NodeAttrs("Constant", name, nil, []string{name}, onnxwire.TensorAttr("value", i64(v)))
	}
	scalar := func(name string, t int32) []byte { return onnxwire.ValueDims(name, t, []onnxwire.Dim{}) }
	then := onnxwire.Graph("then", [][]byte{constant("two", 2), onnxwire.Node("Div", "half", []string{"x", "two"}, []string{"half"})},
		nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int64)})
	els := onnxwire.Graph("else", [][]byte{constant("one", 1), onnxwire.Node("Sub", "less", []string{"x", "one"}, []string{"less"})},
		nil, nil, [][]byte{onnxwire.Rankless("less", onnxwire.Int64)})
	body := onnxwire.Graph("body", [][]byte{
		constant("three", 3), onnxwire.Node("Div", "third", []string{"x", "three"}, []string{"third"}),
		onnxwire.Node("Add", "v_out", []string{"v_in", "third"}, []string{"v_out"}), onnxwire.Node("Identity", "c_out", []string{"c_in"}, []string{"c_out"}),
	}, nil, [][]byte{scalar("i", onnxwire.Int64), scalar("c_in", onnxwire.Bool), onnxwire.Rankless("v_in", onnxwire.Int64)},
		[][]byte{onnxwire.Rankless("c_out", onnxwire.Bool), onnxwire.Rankless("v_out", onnxwire.Int64)})
	graph := onnxwire.Graph("g", [][]byte{
		constant("zero", 0), constant("trip", 3),
		onnxwire.Node("Greater", "cond", []string{"y", "zero"}, []string{"cond"}),
		onnxwire.NodeAttrs("If", "out", []string{"cond"}, []string{"out"}, onnxwire.GraphAttr("then_branch", then), onnxwire.GraphAttr("else_branch", els)),
		onnxwire.NodeAttrs("Loop", "v", []string{"trip", "", "zero"}, []string{"v"}, onnxwire.GraphAttr("body", body)),
	}, nil, [][]byte{scalar("x", onnxwire.Int64), scalar("y", onnxwire.Int64)}, [][]byte{scalar("out", onnxwire.Int64), scalar("v", onnxwire.Int64)})
	dir := t.TempDir()
	model, fixed := filepath.Join(dir, "bodies.onnx"), filepath.Join(dir, "fixed.onnx")
	writeFiles(t, dir, map[string][]byte{"bodies.onnx": onnxwire.Model(13, graph)})
	if stdout, _, code := irdiv(t, "validate", model); code != 1 || !strings.Contains(stdout, "2 integer Divides: 0 proven, 2 with errors") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	stdout, stderr, code := irdiv(t, "fix", model, "-o", fixed)
	if code != 0 || !strings.Contains(stdout, "rewrote 2 integer Divs") || !strings.Contains(stdout, `Div of "half"`) || !strings.Contains(stdout, `Div of "third"`) ||
		!strings.Contains(stdout, "identical outputs on 2 input sets") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := irdiv(t, "validate", fixed); code != 0 || !strings.Contains(stdout, "2 integer Divides: 2 proven, 0 with errors") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// The OpenVINO side of each counter-example: openvino.onnx floors
	// the Divs of bodies too, so that ONNX Runtime shows both sides.
	cex := filepath.Join(dir, "cex")
	if _, stderr, code := irdiv(t, "validate", "--counter-examples", cex, model); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	runner, err := ortreplay.Find()
	if err != nil {
		t.Logf("ONNX Runtime is not available (%v): the counter-examples are not replayed", err)
		return
	}
	for _, name := range []string{"0-out", "1-v"} {
		differ, detail, err := ortreplay.ReplayDir(runner, model, filepath.Join(cex, "bodies", "openvino.onnx"), filepath.Join(cex, "bodies", name))
		if err != nil || !differ {
			t.Errorf("%s: the replay shows no difference: %s %v", name, detail, err)
		}
	}
}

// TestFixIRCPUExact: i32 Divides whose dividend reaches 2^24, which
// OpenVINO's CPU plugin divides in float32, get the exact form where the
// divisor is at most 2^22 (a constant, negative too, or a value clamped
// to [1, 4096]) and a note saying why none exists where it may be larger;
// the fixed IR then has no CPU note on the forms, and computes ONNX's
// truncation (from ONNX) or Python's floor (from PyTorch) at the edges of
// i32 under OpenVINO's reference and under its CPU plugin (ops.CPUPlugin),
// under which the original is wrong.
func TestFixIRCPUExact(t *testing.T) {
	as := []int32{math.MinInt32, math.MinInt32 + 1, -1<<24 - 1, -1 << 24, -7, -1, 0, 1, 7, 1<<24 - 1, 1 << 24, 1<<24 + 1, 0x40000001, math.MaxInt32 - 64, math.MaxInt32}
	bs := []int32{1, 2, 3, 4096, 4095, -5, 1 << 30, -1 << 30, 100}
	var xs, ys []int32
	for _, a := range as {
		for _, b := range bs {
			xs, ys = append(xs, a), append(ys, b)
		}
	}
	n := int64(len(xs))
	for _, framework := range []string{"onnx", "pytorch"} {
		t.Run(framework, func(t *testing.T) {
			dir := t.TempDir()
			m := &ir.Model{Name: "big", Version: 11, Meta: []*ir.Node{{Tag: "rt_info", Children: []*ir.Node{{Tag: "conversion_parameters", Children: []*ir.Node{
				{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: framework}}}}}}}}}
			a := ir.Output{Layer: m.AddParameter("a", ir.I32, shapeinfer.StaticShape(n))}
			b := ir.Output{Layer: m.AddParameter("b", ir.I32, shapeinfer.StaticShape(n))}
			clamp := func(name string, lo, hi int64) ir.Output {
				return ir.Output{Layer: m.AddLayer("Clamp", "opset1", name, []ir.Attr{{Name: "min", Value: strconv.FormatInt(lo, 10)}, {Name: "max", Value: strconv.FormatInt(hi, 10)}},
					[]ir.Output{b}, []*ir.Port{{Type: ir.I32, Dims: []int64{n}}})}
			}
			constant := func(name string, v int32) ir.Output {
				c, _ := ir.TensorOf(ir.I32, []int64{}, []int32{v})
				return ir.Output{Layer: m.AddConst(name, c)}
			}
			divisors := []ir.Output{constant("three", 3), clamp("small", 1, 4096), constant("minus_seven", -7), clamp("large", -1<<30, -1<<23)}
			for i, d := range divisors {
				l, err := ops.AddDivide(m, "div"+strconv.Itoa(i), a, d, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
				if err != nil {
					t.Fatal(err)
				}
				m.AddResult("q"+strconv.Itoa(i), ir.Output{Layer: l})
			}
			xml := filepath.Join(dir, "big.xml")
			if err := ir.Write(m, xml, filepath.Join(dir, "big.bin")); err != nil {
				t.Fatal(err)
			}
			fixed := filepath.Join(dir, "fixed.xml")
			stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
			if code != 0 || strings.Count(stdout, "exact form (a Newton step") != 3 || !strings.Contains(stdout, "no exact form") || !strings.Contains(stdout, "needs |B| <= 2^22") {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			report, _, _ := irdiv(t, "validate", fixed)
			for _, line := range strings.Split(report, "\n") {
				if strings.Contains(line, string(validate.CPUI32Float32)) && !strings.Contains(line, `"div3"`) {
					t.Errorf("a CPU note besides div3's:\n%s", report)
				}
			}

			in := []*ir.Tensor{tensorOf(t, xs), tensorOf(t, ys)}
			cpuRun := func(m *ir.Model) []*ir.Tensor {
				p, err := ops.NewProgram(m)
				if err != nil {
					t.Fatal(err)
				}
				out, err := p.Run(in, ops.Options{BodyLayer: func(_ *ir.Layer, op ops.Op, _ []*ir.Tensor) (ops.Op, error) { return ops.CPUPlugin(op), nil }})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			divisor := func(i, y int) int { return []int{3, min(max(y, 1), 4096), -7, min(max(y, -1<<30), -1<<23)}[i] }
			want := func(i, x, y int) int32 { // the quotient the source means
				y = divisor(i, y)
				q := x / y
				if framework == "pytorch" && x%y != 0 && (x < 0) != (y < 0) {
					q--
				}
				return int32(q)
			}
			wrong := 0
			for i, q := range cpuRun(m)[:3] {
				for j, got := range ir.View[int32](q) {
					if got != want(i, int(xs[j]), int(ys[j])) {
						wrong++
					}
				}
			}
			if wrong == 0 {
				t.Fatal("the original IR is right everywhere under the CPU plugin")
			}
			fm, err := ir.ReadFile(fixed, ir.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// The fixed IR reads back and writes again byte for byte.
			again := filepath.Join(dir, "again.xml")
			if err := ir.Write(fm, again, filepath.Join(dir, "again.bin")); err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{".xml", ".bin"} {
				x, _ := os.ReadFile(strings.TrimSuffix(fixed, ".xml") + ext)
				y, _ := os.ReadFile(strings.TrimSuffix(again, ".xml") + ext)
				if len(x) == 0 || !bytes.Equal(x, y) {
					t.Errorf("the fixed IR's %s changes when read and written again (%d bytes, then %d)", ext, len(x), len(y))
				}
			}
			ref, err := evaluate(fm, map[string]*ir.Tensor{"a": in[0], "b": in[1]})
			if err != nil {
				t.Fatal(err)
			}
			cpu := cpuRun(fm)
			for i := range divisors {
				name := "q" + strconv.Itoa(i)
				for j := range xs {
					w := want(i, int(xs[j]), int(ys[j]))
					if r := ir.View[int32](ref[name])[j]; r != w {
						t.Fatalf("%s: %d / %d: reference %d, want %d", name, xs[j], divisor(i, int(ys[j])), r, w)
					}
					if c := ir.View[int32](cpu[i])[j]; i < 3 && c != w {
						t.Fatalf("%s: %d / %d: CPU plugin %d, want %d", name, xs[j], divisor(i, int(ys[j])), c, w)
					}
				}
			}
		})
	}
}

// TestFixIRCPUExactI64: an i64 Divide whose operands stay i32 values
// (clamped) but pass 2^24, which the CPU plugin narrows to i32 and divides
// in float32, gets the exact form too, and the fixed IR has no CPU note;
// where the dividend may pass the i32 range, the note says no form helps.
func TestFixIRCPUExactI64(t *testing.T) {
	dir := t.TempDir()
	m := &ir.Model{Name: "big64", Version: 11, Meta: []*ir.Node{{Tag: "rt_info", Children: []*ir.Node{{Tag: "conversion_parameters", Children: []*ir.Node{
		{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: "onnx"}}}}}}}}}
	x := ir.Output{Layer: m.AddParameter("x", ir.I64, shapeinfer.StaticShape(4))}
	a := ir.Output{Layer: m.AddLayer("Clamp", "opset1", "i32_range", []ir.Attr{{Name: "min", Value: "-2147483648"}, {Name: "max", Value: "2147483647"}},
		[]ir.Output{x}, []*ir.Port{{Type: ir.I64, Dims: []int64{4}}})}
	three, _ := ir.TensorOf(ir.I64, []int64{}, []int64{3})
	for i, in := range []ir.Output{a, x} {
		d, err := ops.AddDivide(m, "div"+strconv.Itoa(i), in, ir.Output{Layer: m.AddConst("three"+strconv.Itoa(i), three)}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
		if err != nil {
			t.Fatal(err)
		}
		m.AddResult("q"+strconv.Itoa(i), ir.Output{Layer: d})
	}
	xml := filepath.Join(dir, "big64.xml")
	if err := ir.Write(m, xml, filepath.Join(dir, "big64.bin")); err != nil {
		t.Fatal(err)
	}
	fixed := filepath.Join(dir, "fixed.xml")
	stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
	if code != 0 || strings.Count(stdout, "exact form (a Newton step") != 1 || !strings.Contains(stdout, "no form of ops helps") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	report, _, _ := irdiv(t, "validate", fixed)
	if strings.Contains(report, string(validate.CPUI64Narrowed)+` [cpu]: layer "div0"`) {
		t.Errorf("the form's Divide keeps its CPU note:\n%s", report)
	}
	fm, err := ir.ReadFile(fixed, ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vs := []int64{math.MinInt32, -1<<24 - 1, 1<<24 + 1, math.MaxInt32}
	in, _ := ir.TensorOf(ir.I64, []int64{4}, vs)
	p, err := ops.NewProgram(fm)
	if err != nil {
		t.Fatal(err)
	}
	for _, cpu := range []bool{false, true} {
		o := ops.Options{}
		if cpu {
			o.BodyLayer = func(_ *ir.Layer, op ops.Op, _ []*ir.Tensor) (ops.Op, error) { return ops.CPUPlugin(op), nil }
		}
		out, err := p.Run([]*ir.Tensor{in}, o)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vs {
			if got := ir.View[int64](out[0])[i]; got != v/3 {
				t.Errorf("CPU plugin %v: %d / 3 = %d, want %d", cpu, v, got, v/3)
			}
		}
	}
}

// TestFixIRCPURemainder: irdiv fix writes the exact forms of an i32
// FloorMod and Mod whose dividend passes 2^24 (|B| <= 2^22) and of a
// Select of such values, so that the fixed IR gives the exact remainders
// and choices under the reference and under OpenVINO's CPU plugin
// (ops.CPUPlugin), which computes the originals in float32; a FloorMod by
// a divisor beyond 2^22 keeps validate's note, which says why.
func TestFixIRCPURemainder(t *testing.T) {
	as := []int32{math.MinInt32, math.MinInt32 + 1, -1<<24 - 1, -1 << 24, -7, -1, 0, 1, 7, 1<<24 - 1, 1 << 24, 1<<24 + 1, 0x40000001, math.MaxInt32 - 64, math.MaxInt32}
	bs := []int32{1, 2, 3, 4096, 4095, -5, 1 << 30, -1 << 30, 100}
	var xs, ys []int32
	for _, a := range as {
		for _, b := range bs {
			xs, ys = append(xs, a), append(ys, b)
		}
	}
	n := int64(len(xs))
	dir := t.TempDir()
	m := &ir.Model{Name: "rem", Version: 11, Meta: []*ir.Node{{Tag: "rt_info", Children: []*ir.Node{{Tag: "conversion_parameters", Children: []*ir.Node{
		{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: "onnx"}}}}}}}}}
	a := ir.Output{Layer: m.AddParameter("a", ir.I32, shapeinfer.StaticShape(n))}
	b := ir.Output{Layer: m.AddParameter("b", ir.I32, shapeinfer.StaticShape(n))}
	port := func(typ ir.ElementType) []*ir.Port { return []*ir.Port{{Type: typ, Dims: []int64{n}}} }
	numpy := []ir.Attr{{Name: "auto_broadcast", Value: "numpy"}}
	clamp := func(name string, lo, hi int64) ir.Output {
		return ir.Output{Layer: m.AddLayer("Clamp", "opset1", name, []ir.Attr{{Name: "min", Value: strconv.FormatInt(lo, 10)}, {Name: "max", Value: strconv.FormatInt(hi, 10)}},
			[]ir.Output{b}, port(ir.I32))}
	}
	three, _ := ir.TensorOf(ir.I32, []int64{}, []int32{-3})
	zero, _ := ir.TensorOf(ir.I32, []int64{}, []int32{0})
	// FloorMod by -3, Mod by b in [1, 4096], FloorMod by b in [2^23, 2^30]
	// (no form), and b > 0 ? a : b.
	ops3 := []struct {
		op string
		b  ir.Output
	}{{"FloorMod", ir.Output{Layer: m.AddConst("minus_three", three)}}, {"Mod", clamp("small", 1, 4096)}, {"FloorMod", clamp("large", 1<<23, 1<<30)}}
	for i, o := range ops3 {
		m.AddResult("r"+strconv.Itoa(i), ir.Output{Layer: m.AddLayer(o.op, "opset1", "rem"+strconv.Itoa(i), numpy, []ir.Output{a, o.b}, port(ir.I32))})
	}
	positive := m.AddLayer("Greater", "opset1", "positive", numpy, []ir.Output{b, {Layer: m.AddConst("zero", zero)}}, port(ir.Boolean))
	m.AddResult("s", ir.Output{Layer: m.AddLayer("Select", "opset1", "where", numpy, []ir.Output{{Layer: positive}, a, b}, port(ir.I32))})
	xml := filepath.Join(dir, "rem.xml")
	if err := ir.Write(m, xml, filepath.Join(dir, "rem.bin")); err != nil {
		t.Fatal(err)
	}
	fixed := filepath.Join(dir, "fixed.xml")
	stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
	if code != 0 || !strings.Contains(stdout, "fixed 0 integer Divides and 3 other integer ops") || strings.Count(stdout, "exact form (A - q*B") != 2 || !strings.Contains(stdout, "Select: y + Convert(c)*(x - y)") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	report, _, _ := irdiv(t, "validate", fixed)
	notes := 0
	for _, line := range strings.Split(report, "\n") {
		if strings.Contains(line, string(validate.CPUI32Float32)) {
			notes++
			if !strings.Contains(line, `"rem2"`) || !strings.Contains(line, "no exact form") {
				t.Errorf("a CPU note besides rem2's:\n%s", report)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d CPU notes, want rem2's:\n%s", notes, report)
	}
	want := func(i int, x, y int32) int32 {
		if i == 3 {
			if y > 0 {
				return x
			}
			return y
		}
		d := []int64{-3, min(max(int64(y), 1), 4096), min(max(int64(y), 1<<23), 1<<30)}[i]
		r := int64(x) % d
		if i != 1 && r != 0 && (r < 0) != (d < 0) {
			r += d
		}
		return int32(r)
	}
	in := []*ir.Tensor{tensorOf(t, xs), tensorOf(t, ys)}
	cpuRun := func(m *ir.Model) []*ir.Tensor {
		p, err := ops.NewProgram(m)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Run(in, ops.Options{BodyLayer: func(_ *ir.Layer, op ops.Op, _ []*ir.Tensor) (ops.Op, error) { return ops.CPUPlugin(op), nil }})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for i, r := range cpuRun(m) {
		wrong := 0
		for j, got := range ir.View[int32](r) {
			if got != want(i, xs[j], ys[j]) {
				wrong++
			}
		}
		if wrong == 0 {
			t.Fatalf("result %d of the original IR is right everywhere under the CPU plugin", i)
		}
	}
	fm, err := ir.ReadFile(fixed, ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := evaluate(fm, map[string]*ir.Tensor{"a": in[0], "b": in[1]})
	if err != nil {
		t.Fatal(err)
	}
	cpu := cpuRun(fm)
	for i, name := range []string{"r0", "r1", "r2", "s"} {
		for j := range xs {
			w := want(i, xs[j], ys[j])
			if r := ir.View[int32](ref[name])[j]; r != w {
				t.Fatalf("%s: a %d, b %d: reference %d, want %d", name, xs[j], ys[j], r, w)
			}
			if c := ir.View[int32](cpu[i])[j]; i != 2 && c != w {
				t.Fatalf("%s: a %d, b %d: CPU plugin %d, want %d", name, xs[j], ys[j], c, w)
			}
		}
	}
}
