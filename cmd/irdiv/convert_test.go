package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/validate"
)

// TestConvertReadsBack: every model convert writes, irdiv reads back:
// the PyTorch exports of testdata/pytorch, ONNX's node tests of
// testdata/onnx-node and onnx/testdata/node, models of dynamic rank (an
// input and outputs of unknown rank, which an IR writes as it writes a
// scalar, without dims) and one of the ops of detection models that
// irdiv only types (HardSigmoid, NonZero, TopK, RoiAlign, ScatterElements,
// GatherND) convert, hold only ops of OpenVINO's opsets, and info and
// validate read what they wrote and say of it what they say of the
// .onnx (sameFindings); a model whose IR the reader would refuse (past
// its caps) is refused by convert, which then writes nothing.
// IRDIV_ARCH_DIR names a folder of exports made by testdata/pytorch/gen.py
// --architectures (torchvision's Faster R-CNN, RetinaNet, SSDlite, Swin-T...:
// about 2 minutes to export, 30 s more here), converted and compared too.
func TestConvertReadsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("converts and reads back 760 models; go test without -short runs it (.ci/run does, twice)")
	}
	var models []string
	for _, pattern := range []string{"../../testdata/pytorch/*.onnx", "../../testdata/onnx-node/*/model.onnx", "../../onnx/testdata/node/*/model.onnx"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, found...)
	}
	if len(models) < 700 {
		t.Fatalf("found %d models; testdata/pytorch and the node tests hold more than 700", len(models))
	}
	dir := t.TempDir()
	// Ops of another domain compute tensors of unknown rank, which ops
	// that need a rank read.
	erf := onnxwire.Node("Erf", "erf", []string{"x"}, []string{"u"})
	for name, node := range map[string][]byte{
		"rankless-transpose": onnxwire.NodeAttrs("Transpose", "t", []string{"u"}, []string{"y"}, onnxwire.IntsAttr("perm", 1, 0)),
		"rankless-flatten":   onnxwire.NodeAttrs("Flatten", "f", []string{"u"}, []string{"y"}, onnxwire.IntAttr("axis", 1)),
		"rankless-tile":      onnxwire.Node("Tile", "tile", []string{"u", "r"}, []string{"y"}),
	} {
		g := onnxwire.Graph("g", [][]byte{erf, node}, [][]byte{onnxwire.Tensor("r", onnxwire.Int64, []int64{2}, make([]byte, 16))},
			[][]byte{onnxwire.Rankless("x", onnxwire.Float)}, [][]byte{onnxwire.Rankless("y", onnxwire.Float)})
		path := filepath.Join(dir, name+".onnx")
		if err := os.WriteFile(path, onnxwire.Model(13, g), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, path)
	}
	mustConvert := map[string]bool{}
	for _, m := range models[len(models)-3:] {
		mustConvert[m] = true
	}
	detection := filepath.Join(dir, "detection.onnx")
	if err := os.WriteFile(detection, detectionOps(), 0o644); err != nil {
		t.Fatal(err)
	}
	models = append(models, detection)
	mustConvert[detection] = true
	if arch := os.Getenv("IRDIV_ARCH_DIR"); arch != "" {
		found, _ := filepath.Glob(filepath.Join(arch, "*.onnx"))
		if len(found) == 0 {
			t.Fatalf("IRDIV_ARCH_DIR=%s holds no .onnx (make them with /usr/bin/python3 testdata/pytorch/gen.py --architectures DIR --no-check)", arch)
		}
		models = append(models, found...)
	} else {
		t.Log("IRDIV_ARCH_DIR unset: torchvision's architectures not converted (gen.py --architectures DIR --no-check makes them)")
	}
	converted := 0
	for i, model := range models {
		out := filepath.Join(dir, "out", strings.ReplaceAll(strings.TrimPrefix(model, "../../"), "/", "_")+".xml")
		if i == 0 {
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, stderr, code := irdiv(t, "convert", model, "-o", out)
		if code != 0 {
			// Refused (a node test irdiv refuses, such as a random
			// Dropout): then nothing is written.
			if _, err := os.Stat(out); err == nil || !strings.HasPrefix(stderr, "irdiv: ") || mustConvert[model] {
				t.Errorf("convert %s: exit %d, %q, and it wrote %s", model, code, stderr, out)
			}
			t.Logf("refused: %s", strings.TrimSpace(stderr))
			continue
		}
		converted++
		if x, err := os.ReadFile(out); err != nil || bytes.Contains(x, []byte(`version="ai.onnx"`)) {
			t.Errorf("convert %s wrote a layer of no OpenVINO opset (or no file: %v)", model, err)
		}
		if _, stderr, code := irdiv(t, "info", out); code != 0 {
			t.Errorf("convert %s wrote an IR info cannot read: %s", model, stderr)
		}
		if stdout, stderr, _ := irdiv(t, "validate", out); !strings.Contains(stdout, "1 model:") || strings.Contains(stdout, string(validate.IRUnreadable)) {
			t.Errorf("convert %s wrote an IR validate cannot read: %s%s", model, stdout, stderr)
		}
		sameFindings(t, model, out)
	}
	t.Logf("%d of %d models converted and read back", converted, len(models))
	if converted < len(models)-20 {
		t.Errorf("only %d of %d models converted", converted, len(models))
	}

	// 270,000 Adds (a Sum of one input repeated): more layers than the
	// reader takes (ir.DefaultMaxLayers) and more XML nodes. An 800 KB
	// model, too large for testdata/bad, whose cases must allocate
	// little.
	inputs := make([]string, 270000)
	for i := range inputs {
		inputs[i] = "x"
	}
	g := onnxwire.Graph("g", [][]byte{onnxwire.Node("Sum", "sum", inputs, []string{"y"})}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1)}, [][]byte{onnxwire.Value("y", onnxwire.Float, 1)})
	big := filepath.Join(dir, "sum.onnx")
	if err := os.WriteFile(big, onnxwire.Model(13, g), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sum.xml")
	_, stderr, code := irdiv(t, "convert", big, "-o", out)
	if code != 1 || !strings.Contains(stderr, "irdiv would write an IR it cannot read back, so it writes none") || !strings.Contains(stderr, "ReadOptions.Max") {
		t.Errorf("convert of 270,000 Adds: exit %d, %q; want a refusal naming the reader's cap", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("convert of 270,000 Adds wrote %s", out)
	}
}

// sameFindings checks that info and validate say of the IR convert wrote
// what they say of the .onnx. info --json shows an .onnx as convert
// converts it: the same inputs, outputs, ops irdiv does not execute, and
// layers (name, type, opset, output types and shapes). validate checks
// an .onnx as OpenVINO's frontend imports it, every Div flooring, and the
// IR as written, every Div truncating as ONNX means: the floor-versus-
// truncation findings (divide/floor-trunc*, cpu/pythondiv-ignored) are
// about the import alone; every other finding is the same, by code,
// severity and layer name, but for what the .onnx states of its tensors
// (value_info, graph output shapes), which the IR does not hold and
// validate holds against inference. (Integer Divides are not counted alike: the
// conversion guards a Range of unknown length with one, OpenVINO's import
// does not.)
func sameFindings(t *testing.T, model, out string) {
	t.Helper()
	importOnly := map[validate.Code]bool{validate.FloorTrunc: true, validate.FloorTruncReshape: true, validate.FloorTruncPossible: true,
		validate.FloorTruncAgree: true, validate.CPUPythonDivIgnore: true}
	type layer struct {
		Name, Type, Version string
		Outputs             json.RawMessage
	}
	type info struct {
		Inputs, Outputs, Unsupported json.RawMessage
		Layers                       []layer
	}
	var infos [2]info
	var findings [2][]string
	for i, path := range []string{model, out} {
		stdout, stderr, code := irdiv(t, "info", "--json", path)
		if err := json.Unmarshal([]byte(stdout), &infos[i]); code != 0 || err != nil {
			t.Errorf("info --json %s: exit %d, %v: %s", path, code, err, stderr)
			return
		}
		stdout, stderr, _ = irdiv(t, "validate", "--json", path)
		var report struct {
			Findings []struct {
				Severity, Code, Message string
				Layer                   struct{ Name string }
			}
		}
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Errorf("validate --json %s: %v: %s", path, err, stderr)
			return
		}
		for _, f := range report.Findings {
			// What the .onnx states about a tensor (value_info, graph
			// outputs), compared with inference, is not in the IR.
			stated := (f.Code == string(validate.StructurePortShape) || f.Code == string(validate.StructurePortType)) && strings.Contains(f.Message, " states ")
			if i == 0 && (importOnly[validate.Code(f.Code)] || stated) {
				continue
			}
			findings[i] = append(findings[i], fmt.Sprintf("%s %s %q", f.Severity, f.Code, f.Layer.Name))
		}
		slices.Sort(findings[i])
	}
	a, b := infos[0], infos[1]
	if !bytes.Equal(a.Inputs, b.Inputs) || !bytes.Equal(a.Outputs, b.Outputs) || !bytes.Equal(a.Unsupported, b.Unsupported) || len(a.Layers) != len(b.Layers) {
		t.Errorf("info of %s and of its IR differ: inputs %s / %s, outputs %s / %s, unsupported %s / %s, %d / %d layers",
			model, a.Inputs, b.Inputs, a.Outputs, b.Outputs, a.Unsupported, b.Unsupported, len(a.Layers), len(b.Layers))
		return
	}
	for i := range a.Layers {
		x, y := a.Layers[i], b.Layers[i]
		if x.Name != y.Name || x.Type != y.Type || x.Version != y.Version || !bytes.Equal(x.Outputs, y.Outputs) {
			t.Errorf("info of %s and of its IR differ at layer %d: %s %s %s %s / %s %s %s %s", model, i, x.Name, x.Type, x.Version, x.Outputs, y.Name, y.Type, y.Version, y.Outputs)
			return
		}
	}
	if !slices.Equal(findings[0], findings[1]) {
		t.Errorf("validate of %s and of its IR differ:\n.onnx: %q\nIR:    %q", model, findings[0], findings[1])
	}
}

// detectionOps is an ONNX model (opset 16) of the ops of detection models
// that irdiv only types, each of which convert writes as OpenVINO's op:
// HardSigmoid-1, TopK-11, NonZero-3, ROIAlign-9, ScatterElementsUpdate-3,
// GatherND-8.
func detectionOps() []byte {
	f32 := func(vs ...float32) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	i64 := func(vs ...int64) []byte {
		b := make([]byte, 8*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
		return b
	}
	nodes := [][]byte{
		onnxwire.NodeAttrs("HardSigmoid", "hsig", []string{"x"}, []string{"h"}, onnxwire.FloatAttr("alpha", 0.25)),
		onnxwire.NodeAttrs("TopK", "topk", []string{"h", "k"}, []string{"values", "indices"}, onnxwire.IntAttr("axis", -1)),
		onnxwire.Node("NonZero", "nonzero", []string{"x"}, []string{"nz"}),
		onnxwire.NodeAttrs("RoiAlign", "roialign", []string{"x", "rois", "batch"}, []string{"pooled"}, onnxwire.IntAttr("output_height", 2), onnxwire.IntAttr("output_width", 2)),
		onnxwire.NodeAttrs("ScatterElements", "scatter", []string{"x", "idx", "x"}, []string{"scattered"}, onnxwire.IntAttr("axis", 1)),
		onnxwire.Node("GatherND", "gathernd", []string{"x", "nd"}, []string{"gathered"}),
	}
	inits := [][]byte{
		onnxwire.Tensor("k", onnxwire.Int64, []int64{1}, i64(2)),
		onnxwire.Tensor("rois", onnxwire.Float, []int64{1, 4}, f32(0, 0, 2, 2)),
		onnxwire.Tensor("batch", onnxwire.Int64, []int64{1}, i64(0)),
		onnxwire.Tensor("idx", onnxwire.Int64, []int64{1, 2, 4, 4}, make([]byte, 8*32)),
		onnxwire.Tensor("nd", onnxwire.Int64, []int64{1, 2}, i64(0, 1)),
	}
	g := onnxwire.Graph("detection", nodes, inits, [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 2, 4, 4)}, [][]byte{
		onnxwire.Rankless("values", onnxwire.Float), onnxwire.Rankless("indices", onnxwire.Int64), onnxwire.Rankless("nz", onnxwire.Int64),
		onnxwire.Rankless("pooled", onnxwire.Float), onnxwire.Rankless("scattered", onnxwire.Float), onnxwire.Rankless("gathered", onnxwire.Float)})
	return onnxwire.Model(16, g)
}
