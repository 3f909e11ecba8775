package validate

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

func int64Init(name string, v ...int64) []byte {
	raw := make([]byte, 0, 8*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
	}
	return onnxwire.Tensor(name, onnxwire.Int64, []int64{int64(len(v))}, raw)
}

func float32Init(name string, v ...float32) []byte {
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return onnxwire.Tensor(name, onnxwire.Float, []int64{int64(len(v))}, raw)
}

// runTimeScalesModels are opset-13 models of a Resize (nearest) of x
// [1, 1, H, W] by scales computed when the model runs, by name: an input
// of the model; 2 on H and W, as trunc(2 x dims / dims) of x's shape in
// integers or as the float quotient of the dims converted to float; H
// and W clamped to an integer in [1, 4]; their float clamped to [1.5,
// 2.5] or to 2.12 exactly; and 64 over the dims as floats (tf2onnx's
// scales from a size).
func runTimeScalesModels() map[string][]byte {
	x := onnxwire.ValueDims("x", onnxwire.Float, []onnxwire.Dim{fixed(1), fixed(1), param("H"), param("W")})
	y := [][]byte{onnxwire.Rankless("y", onnxwire.Float)}
	resize := onnxwire.NodeAttrs("Resize", "y", []string{"x", "", "scales"}, []string{"y"}, onnxwire.StringAttr("mode", "nearest"))
	dims := [][]byte{
		onnxwire.Node("Shape", "s", []string{"x"}, []string{"s"}),
		onnxwire.Node("Slice", "hw", []string{"s", "st", "en"}, []string{"hw"}),
	}
	dimInits := [][]byte{int64Init("st", 2), int64Init("en", 4)}
	castTo := func(name, in string, to int64) []byte {
		return onnxwire.NodeAttrs("Cast", name, []string{in}, []string{name}, onnxwire.IntAttr("to", to))
	}
	concat := func(name string, ins ...string) []byte {
		return onnxwire.NodeAttrs("Concat", name, ins, []string{name}, onnxwire.IntAttr("axis", 0))
	}
	graph := func(nodes [][]byte, inits ...[]byte) []byte {
		return onnxwire.Model(13, onnxwire.Graph("g", append(append(append([][]byte{}, dims...), nodes...), resize), append(append([][]byte{}, dimInits...), inits...), [][]byte{x}, y))
	}
	floatHW := castTo("hf", "hw", 1)
	return map[string][]byte{
		"model input": onnxwire.Model(13, onnxwire.Graph("g", [][]byte{resize}, nil, [][]byte{x, onnxwire.Value("scales", onnxwire.Float, 4)}, y)),
		"2 as integers": graph([][]byte{
			onnxwire.Node("Mul", "twice", []string{"hw", "two"}, []string{"twice"}),
			onnxwire.Node("Div", "ratio", []string{"twice", "hw"}, []string{"ratio"}),
			concat("cat", "ones", "ratio"), castTo("scales", "cat", 1),
		}, int64Init("two", 2), int64Init("ones", 1, 1)),
		"2 as floats": graph([][]byte{
			onnxwire.Node("Mul", "twice", []string{"hw", "two"}, []string{"twice"}),
			castTo("tf", "twice", 1), floatHW,
			onnxwire.Node("Div", "ratio", []string{"tf", "hf"}, []string{"ratio"}),
			concat("scales", "ones", "ratio"),
		}, int64Init("two", 2), float32Init("ones", 1, 1)),
		"integer in [1, 4]": graph([][]byte{
			onnxwire.Node("Max", "atLeast", []string{"hw", "one"}, []string{"atLeast"}),
			onnxwire.Node("Min", "ratio", []string{"atLeast", "four"}, []string{"ratio"}),
			concat("cat", "ones", "ratio"), castTo("scales", "cat", 1),
		}, int64Init("one", 1), int64Init("four", 4), int64Init("ones", 1, 1)),
		"float in [1.5, 2.5]": graph([][]byte{
			floatHW,
			onnxwire.Node("Max", "atLeast", []string{"hf", "lo"}, []string{"atLeast"}),
			onnxwire.Node("Min", "ratio", []string{"atLeast", "hi"}, []string{"ratio"}),
			concat("scales", "ones", "ratio"),
		}, float32Init("lo", 1.5), float32Init("hi", 2.5), float32Init("ones", 1, 1)),
		"2.12": graph([][]byte{
			floatHW,
			onnxwire.Node("Max", "atLeast", []string{"hf", "k"}, []string{"atLeast"}),
			onnxwire.Node("Min", "ratio", []string{"atLeast", "k"}, []string{"ratio"}),
			concat("scales", "ones", "ratio"),
		}, float32Init("k", 2.12), float32Init("ones", 1, 1)),
		"64 over the dims": graph([][]byte{
			floatHW,
			onnxwire.Node("Div", "ratio", []string{"size", "hf"}, []string{"ratio"}),
			concat("scales", "ones", "ratio"),
		}, float32Init("size", 64, 64), float32Init("ones", 1, 1)),
	}
}

// importRunTime imports one of runTimeScalesModels as OpenVINO does,
// with x's shape declared as shape where not "".
func importRunTime(t *testing.T, name, shape string) *ir.Model {
	t.Helper()
	om, err := onnx.Read(runTimeScalesModels()[name], onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if shape != "" {
		for _, l := range m.Layers {
			if l.Type == "Parameter" && l.Name == "x" {
				l.SetDataAttr("shape", shape)
			}
		}
	}
	return m
}

// TestResizeRunTimeScales: an Interpolate by scales that OpenVINO's
// import of a Resize computes when the model runs gets onnx/resize-length
// from what irdiv knows of the scales and the lengths: a warning where
// it knows nothing of them (an input of the model), or a range of floats
// (with an instance), or a value whose lengths differ at a length below
// 65536 (2.12, from 25); a note where they differ only from a length of
// 65536 on (2 from 983040, computed either way from the dims, and any
// integer in [1, 4], from 917504 for 3 and 4); nothing where the dims
// are declared below that length. The message says OpenVINO's rule.
func TestResizeRunTimeScales(t *testing.T) {
	for _, tc := range []struct {
		model, shape string
		sev          Severity
		want         []string // in the message; no finding where nil
	}{
		{"model input", "", Warning, []string{"does not know the scales of axes 0, 1, 2 and 3 before the model runs", "cannot exclude", "a length of 25 by a scale of 2.12 is 52 in ONNX and 53 in OpenVINO"}},
		{"model input", "1,1,50,50", Warning, []string{"does not know the scales of axes 0, 1, 2 and 3", "a length of 50 by a scale of 1.06 is 52 in ONNX and 53 in OpenVINO"}},
		{"2 as integers", "", Note, []string{"agree on every length below 983040", "axes 2 and 3: scale 2, first at length 983040: 983040 x 2 is 1966080 in ONNX, 1966081 in OpenVINO"}},
		{"2 as floats", "", Note, []string{"agree on every length below 983040", "axes 2 and 3: scale 2, first at length 983040"}},
		{"2 as integers", "1,1,1..4096,1..983039", Note, nil},
		{"2 as floats", "1,1,1..983039,1..983039", Note, nil},
		{"2 as floats", "1,1,1..983039,1..983040", Note, []string{"axis 3: scale 2, first at length 983040"}},
		{"integer in [1, 4]", "", Note, []string{"agree on every length below 917504", "axes 2 and 3: scale an integer in [1, 4], first at length 917504 by 3"}},
		{"float in [1.5, 2.5]", "", Warning, []string{"knows only a range", "axes 2 and 3: scale in [1.5, 2.5], for instance 25 x 2.12 is 52 in ONNX, 53 in OpenVINO"}},
		{"2.12", "", Warning, []string{"they differ at some input lengths", "axes 2 and 3: scale 2.12, first at length 25: 25 x 2.12 is 52 in ONNX, 53 in OpenVINO"}},
		{"2.12", "1,1,1..24,1..24", Warning, nil},
		{"64 over the dims", "", Warning, []string{"does not know the scales of axes 2 and 3", "cannot exclude"}},
	} {
		t.Run(tc.model+" "+tc.shape, func(t *testing.T) {
			m := importRunTime(t, tc.model, tc.shape)
			got := findings(Model(m, "m.onnx", Options{Imported: true}))[ONNXResizeLength]
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("%s: %s", got[0].Severity, got[0].Message)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d findings %+v, want one %s", len(got), got, tc.sev)
			}
			f := got[0]
			t.Logf("%s: %s", f.Severity, f.Message)
			if f.Severity != tc.sev {
				t.Errorf("severity %s, want %s", f.Severity, tc.sev)
			}
			for _, w := range append(tc.want, "floor(length x (scale + 1e-6))", "computed when the model runs") {
				if !strings.Contains(f.Message, w) {
					t.Errorf("the message lacks %q", w)
				}
			}
			if f.Evidence.Get("scales") != "run-time" {
				t.Errorf("scales %v, want run-time", f.Evidence.Get("scales"))
			}
			if f.Layer.Type != "Interpolate" {
				t.Errorf("on %s %s", f.Layer.Type, f.Layer)
			}
		})
	}
}

// TestResizeRunTimeScalesInIf: a Resize by scales that are an input of
// the model inside an If's branch: the warning is on the If, naming the
// Interpolate.
func TestResizeRunTimeScalesInIf(t *testing.T) {
	then := onnxwire.Graph("then", [][]byte{onnxwire.NodeAttrs("Resize", "big", []string{"x", "", "scales"}, []string{"big"}, onnxwire.StringAttr("mode", "nearest"))},
		nil, nil, [][]byte{onnxwire.Rankless("big", onnxwire.Float)})
	els := onnxwire.Graph("else", [][]byte{onnxwire.Node("Identity", "same", []string{"x"}, []string{"same"})}, nil, nil, [][]byte{onnxwire.Rankless("same", onnxwire.Float)})
	model := onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.NodeAttrs("If", "branch", []string{"c"}, []string{"y"}, onnxwire.GraphAttr("then_branch", then), onnxwire.GraphAttr("else_branch", els))}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 50, 25), onnxwire.Value("scales", onnxwire.Float, 4), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})},
		[][]byte{onnxwire.Rankless("y", onnxwire.Float)}))
	om, err := onnx.Read(model, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := findings(Model(m, "m.onnx", Options{Imported: true}))[ONNXResizeLength]
	if len(got) != 1 || got[0].Severity != Warning {
		t.Fatalf("got %+v, want one warning", got)
	}
	if f := got[0]; f.Layer.Type != "If" || f.Inner == nil || f.Inner.Type != "Interpolate" || !strings.Contains(f.Message, "cannot exclude") {
		t.Errorf("on %s, inner %v: %s; want on the If, naming the Interpolate", f.Layer, f.Inner, f.Message)
	}
}

// TestResizeLengthRule: the rule the check applies is ops' Interpolate's
// (OpenVINO's dim::scale) on lengths and scales around where they part;
// 2 keeps ONNX's length below 983040 and not from there to 2^24, 32 and
// 1 at every length.
func TestResizeLengthRule(t *testing.T) {
	interp := &ops.Interpolate{Version: 11, Mode: "nearest", ShapeCalculationMode: "scales"}
	for _, s := range []float32{2, 2.12, 1.06, 0.5, 3, 1.9999999, 16, 1} {
		for _, n := range []int64{1, 2, 25, 50, 485738, 485739, 983039, 983040, 1 << 23} {
			scales, _ := ir.TensorOf(ir.F32, []int64{1}, []float32{s})
			out, err := interp.Infer([]ops.ValueInfo{{Type: ir.F32, Shape: shapeinfer.StaticShape(n)}, {Type: ir.F32, Shape: shapeinfer.StaticShape(1), Value: scales}})
			if err != nil {
				t.Fatal(err)
			}
			if got := openvinoLength(n, s); got != out[0].Shape.Dims[0].Min {
				t.Errorf("%d x %v: %d, ops' Interpolate %d", n, s, got, out[0].Shape.Dims[0].Min)
			}
		}
	}
	if n, ok := firstLonger(2, 0, 1<<40); !ok || n != 983040 {
		t.Errorf("scale 2: first at %d (%v), want 983040", n, ok)
	}
	for _, n := range []int64{983039, 983040, 1 << 21, 1 << 24} {
		if agree := onnx.ResizeLength(n, 2) == openvinoLength(n, 2); agree != (n < 983040) {
			t.Errorf("%d x 2: ONNX %d, OpenVINO %d", n, onnx.ResizeLength(n, 2), openvinoLength(n, 2))
		}
	}
	if n, ok := firstLonger(2, 1000, 983039); ok {
		t.Errorf("scale 2 below 983040: differs at %d", n)
	}
	for _, s := range []float32{1, 32, 33, 1000} {
		if n, ok := firstLonger(s, 0, 1<<40); ok {
			t.Errorf("scale %v: differs at %d", s, n)
		}
	}
	if n, s, ok := scaleExample(1, 4, 25, 25); !ok || n != 25 || s != 2.12 {
		t.Errorf("example at 25: %d x %v (%v), want 25 x 2.12", n, s, ok)
	}
}

// TestRunTimeScalesAgainstORT: what onnx/resize-length says of run-time
// scales holds in ONNX Runtime. The instance the warning gives for
// scales that are an input of the model (a length of 25 by 2.12), and the
// first length the note gives for 2 computed from the dims (983040), run
// in ONNX Runtime to floor(length x scale) (52, 1966080), where irdiv's
// evaluation of convert's IR, by OpenVINO's rule, gives one more (53,
// 1966081); one element shorter (983039), both give 1966078. -short
// runs the instance alone.
func TestRunTimeScalesAgainstORT(t *testing.T) {
	runner, err := ortreplay.Find()
	if err != nil {
		t.Skipf("ONNX Runtime is not installed (%v): nothing to compare with", err)
	}
	dir := t.TempDir()
	type trial struct {
		model  string
		width  int64
		scales *ir.Tensor // nil: computed by the model
		onnx   int64      // the output width in ONNX, OpenVINO's being one more where longer
		longer bool
	}
	var trials []trial
	finding := func(model string) Finding {
		t.Helper()
		got := findings(Model(importRunTime(t, model, ""), "m.onnx", Options{Imported: true}))[ONNXResizeLength]
		if len(got) != 1 {
			t.Fatalf("%s: %d findings, want one", model, len(got))
		}
		return got[0]
	}
	instance := regexp.MustCompile(`a length of (\d+) by a scale of ([0-9.]+) is (\d+) in ONNX and (\d+) in OpenVINO`).FindStringSubmatch(finding("model input").Message)
	if instance == nil {
		t.Fatalf("the warning gives no instance")
	}
	n, _ := strconv.ParseInt(instance[1], 10, 64)
	s, _ := strconv.ParseFloat(instance[2], 32)
	onnxLen, _ := strconv.ParseInt(instance[3], 10, 64)
	scales, _ := ir.TensorOf(ir.F32, []int64{4}, []float32{1, 1, 1, float32(s)})
	trials = append(trials, trial{"model input", n, scales, onnxLen, true})
	first := regexp.MustCompile(`first at length (\d+): \d+ x 2 is (\d+) in ONNX`).FindStringSubmatch(finding("2 as floats").Message)
	if first == nil {
		t.Fatalf("the note gives no first length")
	}
	n, _ = strconv.ParseInt(first[1], 10, 64)
	onnxLen, _ = strconv.ParseInt(first[2], 10, 64)
	if testing.Short() {
		t.Logf("-short: the lengths from 983039 are not run")
	} else {
		trials = append(trials, trial{"2 as floats", n, nil, onnxLen, true}, trial{"2 as floats", n - 1, nil, onnxLen - 2, false})
	}

	var jobs []ortreplay.Job
	var feeds [][]*ir.Tensor
	for i, tc := range trials {
		path := filepath.Join(dir, fmt.Sprintf("m%d.onnx", i))
		if err := os.WriteFile(path, runTimeScalesModels()[tc.model], 0o644); err != nil {
			t.Fatal(err)
		}
		x, _ := ir.NewTensor(ir.F32, []int64{1, 1, 1, tc.width})
		for k := range x.Len() {
			x.SetFloat64(k, float64(k%5))
		}
		run := map[string]*ir.Tensor{"x": x}
		feed := []*ir.Tensor{x}
		if tc.scales != nil {
			run["scales"], feed = tc.scales, append(feed, tc.scales)
		}
		jobs = append(jobs, ortreplay.Job{Model: path, Runs: []map[string]*ir.Tensor{run}})
		feeds = append(feeds, feed)
	}
	outcomes, err := runner.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range trials {
		name := fmt.Sprintf("%s, width %d", tc.model, tc.width)
		if err := outcomes[i][0].Err; err != nil {
			t.Fatalf("%s: ONNX Runtime: %v", name, err)
		}
		if got := outcomes[i][0].Outputs["y"].Shape[3]; got != tc.onnx {
			t.Errorf("%s: ONNX Runtime's width %d, the finding says %d", name, got, tc.onnx)
		}
		om, err := onnx.Read(runTimeScalesModels()[tc.model], onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := onnx.Convert(om)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ops.NewProgram(m)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Run(feeds[i], ops.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := tc.onnx
		if tc.longer {
			want++
		}
		if got := out[0].Shape[3]; got != want {
			t.Errorf("%s: irdiv's evaluation of the IR gives width %d, want %d", name, got, want)
		}
	}
}
