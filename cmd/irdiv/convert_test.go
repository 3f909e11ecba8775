package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
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

// TestConvertInstanceNormResize: InstanceNormalization (opsets 1 and 6,
// ranks 3 and 4, an epsilon) and Resize as raft_small exports it (linear,
// align_corners, sizes; linear align_corners by scales whose products
// 4.5 and 5.2 are not integers, mapped from the output's lengths 4 and 5
// as ONNX Runtime does; and linear half_pixel by scales, nearest
// asymmetric) convert to OpenVINO ops (MVN-6, Multiply, Add, Interpolate-11:
// no layer of no opset), read back with info and validate saying what
// they say of the .onnx, and run of the .onnx and of the IR both compute
// what ONNX specifies, checked against a float64 reference written here.
// Resize modes that Interpolate cannot say are refused, naming Resize, and
// saying why where the scales are the reason.
func TestConvertInstanceNormResize(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	f32s := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64()*2 + 0.5)
		}
		return v
	}
	raw := func(v []float32) []byte {
		b := make([]byte, 4*len(v))
		for i, f := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
		}
		return b
	}
	i64raw := func(v ...int64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
		return b
	}
	size := func(dims []int64) int {
		n := 1
		for _, d := range dims {
			n *= int(d)
		}
		return n
	}
	// instanceNorm is ONNX's InstanceNormalization in float64.
	instanceNorm := func(x []float32, dims []int64, scale, bias []float32, eps float32) []float32 {
		c, inner := int(dims[1]), size(dims[2:])
		y := make([]float32, len(x))
		for g := range len(x) / inner {
			xs := x[g*inner : (g+1)*inner]
			var mean, variance float64
			for _, v := range xs {
				mean += float64(v)
			}
			mean /= float64(inner)
			for _, v := range xs {
				variance += (float64(v) - mean) * (float64(v) - mean)
			}
			variance /= float64(inner)
			for i, v := range xs {
				y[g*inner+i] = float32(float64(scale[g%c])*(float64(v)-mean)/math.Sqrt(variance+float64(eps)) + float64(bias[g%c]))
			}
		}
		return y
	}
	// resize is ONNX's Resize of a 4-D tensor on its last two axes, in
	// float64: linear or nearest (asymmetric, floor).
	resize := func(x []float32, in, out []int64, scales []float64, coord, mode string) []float32 {
		src := func(o int64, a int) (int64, int64, float64) {
			inLen, outLen := in[a], out[a]
			var c float64
			switch coord {
			case "align_corners":
				if outLen > 1 {
					c = float64(o) * float64(inLen-1) / float64(outLen-1)
				}
			case "asymmetric":
				c = float64(o) / scales[a]
			default: // half_pixel
				c = (float64(o)+0.5)/scales[a] - 0.5
			}
			if mode == "nearest" {
				n := min(max(int64(math.Floor(c)), 0), inLen-1)
				return n, n, 0
			}
			c = min(max(c, 0), float64(inLen-1))
			lo := int64(math.Floor(c))
			return lo, min(lo+1, inLen-1), c - float64(lo)
		}
		y := make([]float32, size(out))
		k := 0
		for nc := range out[0] * out[1] {
			for h := range out[2] {
				h0, h1, wh := src(h, 2)
				for w := range out[3] {
					w0, w1, ww := src(w, 3)
					at := func(i, j int64) float64 { return float64(x[(nc*in[2]+i)*in[3]+j]) }
					y[k] = float32((1-wh)*((1-ww)*at(h0, w0)+ww*at(h0, w1)) + wh*((1-ww)*at(h1, w0)+ww*at(h1, w1)))
					k++
				}
			}
		}
		return y
	}
	type tc struct {
		name     string
		model    []byte
		x        []float32
		xDims    []int64
		want     []float32
		wantDims []int64
		layers   []string // op types the IR must hold
	}
	var cases []tc
	for _, n := range []struct {
		opset int64
		dims  []int64
		eps   float32
	}{{6, []int64{2, 3, 4, 5}, 0.01}, {6, []int64{2, 3, 7}, 1e-3}, {1, []int64{1, 2, 3, 4}, 1e-5}} {
		c := n.dims[1]
		x, scale, bias := f32s(size(n.dims)), f32s(int(c)), f32s(int(c))
		attrs := [][]byte{}
		if n.eps != 1e-5 {
			attrs = append(attrs, onnxwire.FloatAttr("epsilon", n.eps))
		}
		g := onnxwire.Graph("g", [][]byte{onnxwire.NodeAttrs("InstanceNormalization", "in", []string{"x", "s", "b"}, []string{"y"}, attrs...)},
			[][]byte{onnxwire.Tensor("s", onnxwire.Float, []int64{c}, raw(scale)), onnxwire.Tensor("b", onnxwire.Float, []int64{c}, raw(bias))},
			[][]byte{onnxwire.Value("x", onnxwire.Float, n.dims...)}, [][]byte{onnxwire.Value("y", onnxwire.Float, n.dims...)})
		cases = append(cases, tc{fmt.Sprintf("instancenorm%d-rank%d", n.opset, len(n.dims)), onnxwire.Model(n.opset, g), x, n.dims,
			instanceNorm(x, n.dims, scale, bias, n.eps), n.dims, []string{"MVN", "Multiply", "Add"}})
	}
	in := []int64{1, 2, 3, 4}
	x := f32s(size(in))
	for _, r := range []struct {
		name, coord, mode string
		out               []int64
		scales            []float64
	}{
		{"resize-raft", "align_corners", "linear", []int64{1, 2, 7, 9}, nil},
		{"resize-align-corners-scales", "align_corners", "linear", []int64{1, 2, 4, 5}, []float64{1, 1, 1.5, 1.3}},
		{"resize-half-pixel", "half_pixel", "linear", []int64{1, 2, 6, 10}, []float64{1, 1, 2, 2.5}},
		{"resize-nearest", "asymmetric", "nearest", []int64{1, 2, 6, 10}, []float64{1, 1, 2, 2.5}},
	} {
		attrs := [][]byte{onnxwire.StringAttr("coordinate_transformation_mode", r.coord), onnxwire.FloatAttr("cubic_coeff_a", -0.75),
			onnxwire.StringAttr("mode", r.mode), onnxwire.StringAttr("nearest_mode", "floor")}
		var node, init []byte
		if r.scales == nil {
			// As torch.onnx.export writes F.interpolate(size=...,
			// mode="bilinear", align_corners=True) at opset 16.
			node = onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "", "sizes"}, []string{"y"}, attrs...)
			init = onnxwire.Tensor("sizes", onnxwire.Int64, []int64{4}, i64raw(r.out...))
		} else {
			s := make([]float32, 4)
			for i, v := range r.scales {
				s[i] = float32(v)
			}
			node = onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "scales"}, []string{"y"}, attrs...)
			init = onnxwire.Tensor("scales", onnxwire.Float, []int64{4}, raw(s))
		}
		g := onnxwire.Graph("g", [][]byte{node}, [][]byte{init},
			[][]byte{onnxwire.Value("x", onnxwire.Float, in...)}, [][]byte{onnxwire.Value("y", onnxwire.Float, r.out...)})
		cases = append(cases, tc{r.name, onnxwire.Model(16, g), x, in, resize(x, in, r.out, r.scales, r.coord, r.mode), r.out, []string{"Interpolate"}})
	}

	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := filepath.Join(dir, c.name+".onnx")
			out := filepath.Join(dir, c.name+".xml")
			if err := os.WriteFile(model, c.model, 0o644); err != nil {
				t.Fatal(err)
			}
			writeNPY(t, filepath.Join(dir, c.name+"-x.npy"), must(ir.TensorOf(ir.F32, c.xDims, c.x)))
			expected := filepath.Join(dir, c.name+"-y.npy")
			writeNPY(t, expected, must(ir.TensorOf(ir.F32, c.wantDims, c.want)))
			if _, stderr, code := irdiv(t, "convert", model, "-o", out); code != 0 {
				t.Fatalf("convert: exit %d: %s", code, stderr)
			}
			x, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(x, []byte(`version="ai.onnx"`)) {
				t.Errorf("convert wrote a layer of no OpenVINO opset:\n%s", x)
			}
			for _, typ := range c.layers {
				if !bytes.Contains(x, []byte(`type="`+typ+`"`)) {
					t.Errorf("the IR holds no %s layer", typ)
				}
			}
			sameFindings(t, model, out)
			for _, m := range []string{model, out} {
				stdout, stderr, code := irdiv(t, "run", m, "-i", "x="+filepath.Join(dir, c.name+"-x.npy"), "--expected", expected, "--rtol", "1e-5", "--atol", "1e-5")
				if code != 0 {
					t.Errorf("run %s: exit %d, not ONNX's values:\n%s%s", filepath.Base(m), code, stdout, stderr)
				}
			}
		})
	}

	// What Interpolate cannot say is refused, naming Resize.
	for what, attrs := range map[string][][]byte{
		"tf_crop_and_resize":   {onnxwire.StringAttr("coordinate_transformation_mode", "tf_crop_and_resize"), onnxwire.StringAttr("mode", "linear")},
		"exclude_outside":      {onnxwire.StringAttr("mode", "linear"), onnxwire.IntAttr("exclude_outside", 1)},
		"not_larger":           {onnxwire.StringAttr("mode", "linear"), onnxwire.StringAttr("keep_aspect_ratio_policy", "not_larger")},
		"antialias":            {onnxwire.StringAttr("mode", "cubic"), onnxwire.IntAttr("antialias", 1)},
		"repeated axes":        {onnxwire.StringAttr("mode", "linear"), onnxwire.IntsAttr("axes", 2, -2, 3, 1)},
		"half_pixel_symmetric": {onnxwire.StringAttr("coordinate_transformation_mode", "half_pixel_symmetric")},
	} {
		g := onnxwire.Graph("g", [][]byte{onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "", "sizes"}, []string{"y"}, attrs...)},
			[][]byte{onnxwire.Tensor("sizes", onnxwire.Int64, []int64{4}, i64raw(1, 2, 7, 9))},
			[][]byte{onnxwire.Value("x", onnxwire.Float, in...)}, [][]byte{onnxwire.Rankless("y", onnxwire.Float)})
		model := filepath.Join(dir, "refused.onnx")
		if err := os.WriteFile(model, onnxwire.Model(18, g), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "refused.xml")
		_, stderr, code := irdiv(t, "convert", model, "-o", out)
		if code != 1 || !strings.Contains(stderr, `is ONNX's Resize, which irdiv does not write as an OpenVINO op`) {
			t.Errorf("convert of Resize with %s: exit %d, %q; want a refusal naming Resize", what, code, stderr)
		}
		if what == "antialias" && !strings.Contains(stderr, "antialias=1: OpenVINO's Interpolate ignores antialias") {
			t.Errorf("convert of Resize with antialias: %q does not say why", stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a refused convert wrote %s", out)
		}
	}

	// A Resize by constant scales that an Interpolate computes otherwise
	// is refused saying why: OpenVINO's length floor(25 x (2.12 + 1e-6))
	// is 53, ONNX's 52; scale 1.1 keeps a length of 4, and Interpolate
	// maps that axis to itself.
	for _, r := range []struct {
		width int64
		scale float32
		why   string
	}{
		{25, 2.12, "(by scales: axis 3, 25 x 2.12, is 52 long in ONNX and 53 in the Interpolate OpenVINO's import writes, whose length is floor(n x (scale + 1e-6)))"},
		{4, 1.1, "(by scales: 1.1 keeps axis 3 4 long, and an Interpolate then maps it to itself, where ONNX divides its coordinates by the scale)"},
	} {
		s := raw([]float32{1, 1, 1, r.scale})
		g := onnxwire.Graph("g", [][]byte{onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "scales"}, []string{"y"}, onnxwire.StringAttr("mode", "linear"))},
			[][]byte{onnxwire.Tensor("scales", onnxwire.Float, []int64{4}, s)},
			[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 1, r.width)}, [][]byte{onnxwire.Rankless("y", onnxwire.Float)})
		model := filepath.Join(dir, "refused-scales.onnx")
		if err := os.WriteFile(model, onnxwire.Model(13, g), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := irdiv(t, "convert", model, "-o", filepath.Join(dir, "refused-scales.xml"))
		if code != 1 || !strings.Contains(stderr, `is ONNX's Resize, which irdiv does not write as an OpenVINO op `+r.why) {
			t.Errorf("convert of Resize by %d x %v: exit %d, %q; want a refusal saying %s", r.width, r.scale, code, stderr, r.why)
		}
	}
}

// TestConvertWarnsOfRunTimeScales: convert writes a Resize by scales
// computed when the model runs as an Interpolate, and says on stderr,
// naming the layer, what validate says of it (onnx/resize-length): a
// warning for scales that are an input of the model, a note for 2
// computed from the dims (one element longer from a length of 983040
// on); nothing for constant scales whose lengths agree (25 x 2.1), which
// it compares itself.
func TestConvertWarnsOfRunTimeScales(t *testing.T) {
	dir := t.TempDir()
	f32 := func(name string, v ...float32) []byte {
		raw := make([]byte, 0, 4*len(v))
		for _, f := range v {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
		}
		return onnxwire.Tensor(name, onnxwire.Float, []int64{int64(len(v))}, raw)
	}
	i64 := func(name string, v ...int64) []byte {
		raw := make([]byte, 0, 8*len(v))
		for _, x := range v {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
		}
		return onnxwire.Tensor(name, onnxwire.Int64, []int64{int64(len(v))}, raw)
	}
	x := onnxwire.ValueDims("x", onnxwire.Float, []onnxwire.Dim{{Value: 1}, {Value: 1}, {Param: "H"}, {Param: "W"}})
	y := [][]byte{onnxwire.Rankless("y", onnxwire.Float)}
	resize := onnxwire.NodeAttrs("Resize", "up", []string{"x", "", "scales"}, []string{"y"}, onnxwire.StringAttr("mode", "nearest"))
	for _, tc := range []struct {
		name  string
		model []byte
		want  []string // on stderr; nothing where nil
	}{
		{"input", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{resize}, nil, [][]byte{x, onnxwire.Value("scales", onnxwire.Float, 4)}, y)),
			[]string{"irdiv: convert: warning onnx/resize-length: layer \"up\"", "cannot exclude", "a length of 25 by a scale of 2.12 is 52 in ONNX and 53 in OpenVINO"}},
		{"twice", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{
			onnxwire.Node("Shape", "s", []string{"x"}, []string{"s"}),
			onnxwire.Node("Slice", "hw", []string{"s", "st", "en"}, []string{"hw"}),
			onnxwire.Node("Mul", "twice", []string{"hw", "two"}, []string{"twice"}),
			onnxwire.Node("Div", "ratio", []string{"twice", "hw"}, []string{"ratio"}),
			onnxwire.NodeAttrs("Concat", "cat", []string{"ones", "ratio"}, []string{"cat"}, onnxwire.IntAttr("axis", 0)),
			onnxwire.NodeAttrs("Cast", "scales", []string{"cat"}, []string{"scales"}, onnxwire.IntAttr("to", 1)),
			resize,
		}, [][]byte{i64("st", 2), i64("en", 4), i64("two", 2), i64("ones", 1, 1)}, [][]byte{x}, y)),
			[]string{"irdiv: convert: note onnx/resize-length: layer \"up\"", "agree on every length below 983040"}},
		{"constant", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{resize}, [][]byte{f32("scales", 1, 1, 1, 2.1)}, [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 50, 25)}, y)), nil},
	} {
		path := filepath.Join(dir, tc.name+".onnx")
		if err := os.WriteFile(path, tc.model, 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := irdiv(t, "convert", path)
		if code != 0 || !strings.HasPrefix(stdout, "wrote ") {
			t.Errorf("%s: exit %d, %q %q: want it written", tc.name, code, stdout, stderr)
			continue
		}
		if tc.want == nil {
			if stderr != "" {
				t.Errorf("%s: stderr %q, want nothing", tc.name, stderr)
			}
			continue
		}
		if strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line", tc.name, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q: %s", tc.name, w, stderr)
			}
		}
		// validate of the IR written says the same.
		out, _, _ := irdiv(t, "validate", strings.TrimSuffix(path, ".onnx")+".xml")
		if !strings.Contains(out, string(validate.ONNXResizeLength)) || !strings.Contains(out, tc.want[len(tc.want)-1]) {
			t.Errorf("%s: validate of the IR does not say what convert did:\n%s", tc.name, out)
		}
	}
}
