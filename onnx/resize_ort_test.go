package onnx

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// resizeModel is an opset-18 model of one Resize (linear, half_pixel)
// by sizes of x, optionally after a Pad of zeros (pads of 2*rank values),
// with its attributes.
func resizeModel(shape, sizes, pads []int64, attrs ...[]byte) []byte {
	raw := func(v []int64) []byte {
		b := make([]byte, 0, 8*len(v))
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		return b
	}
	in := "x"
	var nodes, inits [][]byte
	if pads != nil {
		nodes = append(nodes, onnxwire.Node("Pad", "pad", []string{"x", "pads"}, []string{"xp"}))
		inits = append(inits, onnxwire.Tensor("pads", onnxwire.Int64, []int64{int64(len(pads))}, raw(pads)))
		in = "xp"
	}
	nodes = append(nodes, onnxwire.NodeAttrs("Resize", "resize", []string{in, "", "", "sizes"}, []string{"y"},
		append([][]byte{onnxwire.StringAttr("mode", "linear")}, attrs...)...))
	inits = append(inits, onnxwire.Tensor("sizes", onnxwire.Int64, []int64{int64(len(sizes))}, raw(sizes)))
	return onnxwire.Model(18, onnxwire.Graph("g", nodes, inits, [][]byte{onnxwire.Value("x", onnxwire.Float, shape...)},
		[][]byte{onnxwire.Rankless("y", onnxwire.Float)}))
}

// runIrdiv imports model as OpenVINO does, lets edit change its
// Interpolate, and evaluates it on x.
func runIrdiv(t *testing.T, model []byte, x *ir.Tensor, edit func(l *ir.Layer)) *ir.Tensor {
	t.Helper()
	m, err := Read(model, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	im, err := Import(m, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range im.Layers {
		if l.Type == "Interpolate" && edit != nil {
			edit(l)
		}
	}
	p, err := ops.NewProgram(im)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run([]*ir.Tensor{x}, ops.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

func setData(l *ir.Layer, name, value string) {
	for k := range l.Data {
		if l.Data[k].Name == name {
			l.Data[k].Value = value
			return
		}
	}
	l.Data = append(l.Data, ir.Attr{Name: name, Value: value})
}

func maxAbsDiff(t *testing.T, a, b *ir.Tensor) float64 {
	t.Helper()
	if a.Len() != b.Len() {
		t.Fatalf("%v and %v elements", a.Shape, b.Shape)
	}
	d := 0.0
	for k := range a.Len() {
		d = max(d, math.Abs(a.Float64At(k)-b.Float64At(k)))
	}
	return d
}

// TestInterpolateAgainstORT compares irdiv's Interpolate with ONNX
// Runtime's Resize on random inputs: OpenVINO's mode linear (triangle
// filter clipped at the borders) computes ONNX's linear without
// antialias, and pads_begin/pads_end compute a Pad of zeros then the
// Resize, in every mode; ONNX's antialias, which OpenVINO's import keeps
// on an Interpolate of mode linear_onnx whose reference ignores it, gives
// other values than ONNX Runtime, equal to those without antialias.
func TestInterpolateAgainstORT(t *testing.T) {
	runner, err := ortreplay.Find()
	if err != nil {
		t.Skipf("ONNX Runtime is not installed (%v): nothing to compare with", err)
	}
	r := rand.New(rand.NewPCG(29, 4))
	dir := t.TempDir()
	ort := func(model []byte, x *ir.Tensor) *ir.Tensor {
		t.Helper()
		path := filepath.Join(dir, "m.onnx")
		if err := os.WriteFile(path, model, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runner.Run(path, map[string]*ir.Tensor{"x": x})
		if err != nil {
			t.Fatal(err)
		}
		return out["y"]
	}
	worst := map[string]float64{}
	for trial := range 24 {
		shape := []int64{1 + r.Int64N(2), 1 + r.Int64N(3), 1 + r.Int64N(9), 1 + r.Int64N(9)}
		sizes := []int64{shape[0], shape[1], 1 + r.Int64N(14), 1 + r.Int64N(14)}
		x, _ := ir.NewTensor(ir.F32, shape)
		for k := range x.Len() {
			x.SetFloat64(k, float64(float32(r.NormFloat64()*10)))
		}
		coord := []string{"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"}[trial%4]
		attr := onnxwire.StringAttr("coordinate_transformation_mode", coord)
		plain := resizeModel(shape, sizes, nil, attr)
		want := ort(plain, x)
		got := runIrdiv(t, plain, x, func(l *ir.Layer) { setData(l, "mode", "linear") })
		d := maxAbsDiff(t, got, want)
		worst["linear vs Resize linear"] = max(worst["linear vs Resize linear"], d)
		if d > 1e-4 {
			t.Errorf("trial %d (%v to %v, %s): mode linear differs from ONNX Runtime's Resize by %g", trial, shape, sizes, coord, d)
		}

		pb, pe := []int64{0, 0, r.Int64N(3), r.Int64N(3)}, []int64{0, 0, r.Int64N(3), r.Int64N(3)}
		padded := resizeModel(shape, sizes, append(append([]int64{}, pb...), pe...), attr)
		want = ort(padded, x)
		for _, mode := range []string{"linear_onnx", "linear"} {
			got = runIrdiv(t, plain, x, func(l *ir.Layer) {
				setData(l, "mode", mode)
				setData(l, "pads_begin", joinInts(pb))
				setData(l, "pads_end", joinInts(pe))
			})
			d = maxAbsDiff(t, got, want)
			worst[mode+" pads vs Pad+Resize"] = max(worst[mode+" pads vs Pad+Resize"], d)
			if d > 1e-4 {
				t.Errorf("trial %d (%v pads %v %v to %v, %s): %s with pads differs from ONNX Runtime's Pad and Resize by %g", trial, shape, pb, pe, sizes, coord, mode, d)
			}
		}
	}
	// Antialias: shrinking only, where ONNX filters.
	aaDiffers := 0
	for trial := range 8 {
		shape := []int64{1, 2, 4 + r.Int64N(9), 4 + r.Int64N(9)}
		sizes := []int64{1, 2, 1 + r.Int64N(shape[2]-1), 1 + r.Int64N(shape[3]-1)}
		x, _ := ir.NewTensor(ir.F32, shape)
		for k := range x.Len() {
			x.SetFloat64(k, float64(float32(r.NormFloat64()*10)))
		}
		model := resizeModel(shape, sizes, nil, onnxwire.IntAttr("antialias", 1))
		onnxSide := ort(model, x)
		openvino := runIrdiv(t, model, x, nil)
		without := runIrdiv(t, resizeModel(shape, sizes, nil), x, nil)
		if d := maxAbsDiff(t, openvino, without); d != 0 {
			t.Errorf("trial %d: OpenVINO's import with antialias differs by %g from the Resize without it; its reference ignores antialias in mode linear_onnx", trial, d)
		}
		d := maxAbsDiff(t, openvino, onnxSide)
		worst["antialias: OpenVINO's import vs ONNX Runtime"] = max(worst["antialias: OpenVINO's import vs ONNX Runtime"], d)
		if d > 1e-3 {
			aaDiffers++
		}
	}
	if aaDiffers == 0 {
		t.Errorf("OpenVINO's import of Resize with antialias computed ONNX Runtime's values on every input: the deviation the import and convert report would be wrong")
	}
	for k, v := range worst {
		t.Logf("%s: max abs difference %g", k, v)
	}
}

// TestResizeRunTimeScalesAgainstORT: a Resize whose scales arrive at run
// time, under align_corners and pytorch_half_pixel, in modes linear,
// nearest and cubic, converts (to an Interpolate by scales, no Resize
// kept) and computes ONNX Runtime's values, scales whose product with the
// input length is not an integer included (2 x 0.6, 4 x 1.3...): both map
// coordinates with the output's integer length. ONNX's own reference
// divides by in*scale - 1 under align_corners; the test checks that ONNX
// Runtime differs from that reading on these inputs, so that it tells the
// two apart.
func TestResizeRunTimeScalesAgainstORT(t *testing.T) {
	runner, err := ortreplay.Find()
	if err != nil {
		t.Skipf("ONNX Runtime is not installed (%v): nothing to compare with", err)
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(29, 7))
	type trial struct {
		coord, mode string
		shape       []int64
		scales      []float32
	}
	trials := []trial{
		{"align_corners", "linear", []int64{1, 2, 2, 4}, []float32{1, 1, 0.6, 0.6}},
		{"align_corners", "linear", []int64{1, 2, 3, 4}, []float32{1, 1, 1.7, 1.3}},
		{"align_corners", "linear", []int64{1, 1, 5, 7}, []float32{1, 1, 0.7, 2.5}},
		{"align_corners", "linear", []int64{1, 1, 4, 6}, []float32{1, 1, 1.2, 1.1}}, // 4.8 -> 4 and 6.6 -> 6: lengths kept
		{"align_corners", "nearest", []int64{1, 2, 3, 5}, []float32{1, 1, 1.5, 0.7}},
		{"align_corners", "cubic", []int64{1, 1, 4, 5}, []float32{1, 1, 1.3, 2.3}},
		{"pytorch_half_pixel", "linear", []int64{1, 2, 2, 5}, []float32{1, 1, 0.6, 0.5}}, // 2 x 0.6: scaled 1.2, output 1
		{"pytorch_half_pixel", "cubic", []int64{1, 1, 3, 4}, []float32{1, 1, 1.7, 0.3}},
	}
	models := make([][]byte, len(trials))
	inputs := make([][]*ir.Tensor, len(trials))
	var jobs []ortreplay.Job
	for i, tc := range trials {
		node := onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "scales"}, []string{"y"},
			onnxwire.StringAttr("mode", tc.mode), onnxwire.StringAttr("coordinate_transformation_mode", tc.coord))
		models[i] = onnxwire.Model(13, onnxwire.Graph("g", [][]byte{node}, nil,
			[][]byte{onnxwire.Value("x", onnxwire.Float, tc.shape...), onnxwire.Value("scales", onnxwire.Float, 4)},
			[][]byte{onnxwire.Rankless("y", onnxwire.Float)}))
		x, _ := ir.NewTensor(ir.F32, tc.shape)
		for k := range x.Len() {
			x.SetFloat64(k, float64(float32(r.NormFloat64()*10)))
		}
		scales, _ := ir.TensorOf(ir.F32, []int64{4}, tc.scales)
		inputs[i] = []*ir.Tensor{x, scales}
		path := filepath.Join(dir, fmt.Sprintf("m%d.onnx", i))
		if err := os.WriteFile(path, models[i], 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, ortreplay.Job{Model: path, Runs: []map[string]*ir.Tensor{{"x": x, "scales": scales}}})
	}
	outcomes, err := runner.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	fractionalDiffers := false
	for i, tc := range trials {
		name := fmt.Sprintf("%s %s %v x %v", tc.coord, tc.mode, tc.shape, tc.scales)
		if err := outcomes[i][0].Err; err != nil {
			t.Fatalf("%s: ONNX Runtime: %v", name, err)
		}
		want := outcomes[i][0].Outputs["y"]
		m, err := Read(models[i], ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		im, err := Convert(m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, l := range im.Layers {
			if l.Type == "Resize" {
				t.Fatalf("%s: convert kept the Resize (which it then refuses) where an Interpolate computes ONNX Runtime's values", name)
			}
		}
		p, err := ops.NewProgram(im)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Run(inputs[i], ops.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got[0].Shape, want.Shape) {
			t.Errorf("%s: shape %v, ONNX Runtime's %v", name, got[0].Shape, want.Shape)
			continue
		}
		if d := maxAbsDiff(t, got[0], want); d > 1e-4 {
			t.Errorf("%s: differs from ONNX Runtime by %g", name, d)
		}
		if tc.coord == "align_corners" && tc.mode == "linear" && maxAbsDiff(t, fractionalAlignCorners(inputs[i][0], tc.scales, want.Shape), want) > 1e-3 {
			fractionalDiffers = true
		}
	}
	if !fractionalDiffers {
		t.Errorf("ONNX Runtime computed ONNX's reference reading (length in*scale) on every input: these inputs do not tell the two readings of align_corners apart")
	}
}

// fractionalAlignCorners is ONNX's reference implementation of Resize
// (linear, align_corners, by scales) in float64 on the last two axes of a
// 4-D x: coordinates o*(in-1)/(in*scale-1), the output's length being
// out.
func fractionalAlignCorners(x *ir.Tensor, scales []float32, out []int64) *ir.Tensor {
	in := x.Shape
	src := func(o int64, a int) (int64, int64, float64) {
		scaled := float64(scales[a]) * float64(in[a])
		c := 0.0
		if scaled != 1 {
			c = float64(o) * float64(in[a]-1) / (scaled - 1)
		}
		c = min(max(c, 0), float64(in[a]-1))
		lo := int64(math.Floor(c))
		return lo, min(lo+1, in[a]-1), c - float64(lo)
	}
	y, _ := ir.NewTensor(ir.F32, out)
	k := 0
	for nc := range out[0] * out[1] {
		for h := range out[2] {
			h0, h1, wh := src(h, 2)
			for w := range out[3] {
				w0, w1, ww := src(w, 3)
				at := func(i, j int64) float64 { return x.Float64At(int((nc*in[2]+i)*in[3] + j)) }
				y.SetFloat64(k, (1-wh)*((1-ww)*at(h0, w0)+ww*at(h0, w1))+wh*((1-ww)*at(h1, w0)+ww*at(h1, w1)))
				k++
			}
		}
	}
	return y
}

// TestResizeScaledLengthAgainstORT: ONNX's output length for a Resize by
// scales is floor(in * scale), ONNX Runtime's product in float32, where
// OpenVINO's Interpolate multiplies by scale + 1e-6: for 25 x 2.12
// (52.999996 in float32) and 50 x 1.06 ONNX Runtime gives 52 and
// OpenVINO's import an Interpolate of 53, so convert keeps the Resize
// (and refuses it); where the lengths agree (25 x 2.1, 52.5), it maps it
// and computes ONNX Runtime's values.
func TestResizeScaledLengthAgainstORT(t *testing.T) {
	runner, err := ortreplay.Find()
	if err != nil {
		t.Skipf("ONNX Runtime is not installed (%v): nothing to compare with", err)
	}
	dir := t.TempDir()
	type trial struct {
		width          int64
		scale          float32
		onnx, openvino int64 // the output widths
	}
	trials := []trial{{25, 2.12, 52, 53}, {50, 1.06, 52, 53}, {25, 2.1, 52, 52}}
	var jobs []ortreplay.Job
	var models [][]byte
	var xs []*ir.Tensor
	for i, tc := range trials {
		scales := make([]byte, 0, 16)
		for _, s := range []float32{1, 1, 1, tc.scale} {
			scales = binary.LittleEndian.AppendUint32(scales, math.Float32bits(s))
		}
		node := onnxwire.NodeAttrs("Resize", "resize", []string{"x", "", "scales"}, []string{"y"}, onnxwire.StringAttr("mode", "linear"))
		model := onnxwire.Model(13, onnxwire.Graph("g", [][]byte{node}, [][]byte{onnxwire.Tensor("scales", onnxwire.Float, []int64{4}, scales)},
			[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 1, tc.width)}, [][]byte{onnxwire.Rankless("y", onnxwire.Float)}))
		x, _ := ir.NewTensor(ir.F32, []int64{1, 1, 1, tc.width})
		for k := range x.Len() {
			x.SetFloat64(k, float64(k%7))
		}
		path := filepath.Join(dir, fmt.Sprintf("m%d.onnx", i))
		if err := os.WriteFile(path, model, 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, ortreplay.Job{Model: path, Runs: []map[string]*ir.Tensor{{"x": x}}})
		models, xs = append(models, model), append(xs, x)
	}
	outcomes, err := runner.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range trials {
		name := fmt.Sprintf("%d x %v", tc.width, tc.scale)
		if err := outcomes[i][0].Err; err != nil {
			t.Fatalf("%s: ONNX Runtime: %v", name, err)
		}
		want := outcomes[i][0].Outputs["y"]
		if got := want.Shape[3]; got != tc.onnx {
			t.Fatalf("%s: ONNX Runtime's width is %d, not %d: the test's premise is wrong", name, got, tc.onnx)
		}
		m, err := Read(models[i], ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, faithful := range []bool{false, true} {
			im, err := Import(m, ImportOptions{Faithful: faithful})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var interp *ir.Layer
			for _, l := range im.Layers {
				if l.Type == "Interpolate" {
					interp = l
				}
			}
			switch {
			case !faithful && (interp == nil || !slices.Equal(interp.Outputs[0].Dims, []int64{1, 1, 1, tc.openvino})):
				t.Errorf("%s: OpenVINO's import: Interpolate %v, want one of width %d", name, interp, tc.openvino)
			case faithful && tc.onnx != tc.openvino && interp != nil:
				t.Errorf("%s: convert maps the Resize to an Interpolate of width %d where ONNX's is %d", name, tc.openvino, tc.onnx)
			case faithful && tc.onnx == tc.openvino:
				if interp == nil {
					t.Fatalf("%s: convert kept a Resize whose lengths agree", name)
				}
				p, err := ops.NewProgram(im)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.Run([]*ir.Tensor{xs[i]}, ops.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got[0].Shape, want.Shape) || maxAbsDiff(t, got[0], want) > 1e-5 {
					t.Errorf("%s: convert computes %v, ONNX Runtime %v", name, got[0], want)
				}
			}
		}
	}
}
