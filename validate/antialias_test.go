package validate

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// resizeNode is a Resize of x to constant sizes ("sizes" initializer).
func resizeNode(out string, attrs ...[]byte) []byte {
	return onnxwire.NodeAttrs("Resize", out, []string{"x", "", "", "sizes"}, []string{out}, attrs...)
}

// sizesInit is the initializer "sizes".
func sizesInit(sizes ...int64) []byte {
	raw := make([]byte, 0, 8*len(sizes))
	for _, s := range sizes {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(s))
	}
	return onnxwire.Tensor("sizes", onnxwire.Int64, []int64{int64(len(sizes))}, raw)
}

// TestAntialiasIgnored: OpenVINO's import of a Resize (opset 18) with
// antialias=1 in mode linear or cubic is an Interpolate whose reference
// ignores antialias: a warning (onnx/antialias-ignored) where an axis is
// downscaled, or may be, naming the axes; a note where none is (ONNX's
// filter does nothing there); nothing in mode nearest or without
// antialias. Inside an If's branch, on the If.
func TestAntialiasIgnored(t *testing.T) {
	aa := onnxwire.IntAttr("antialias", 1)
	linear, cubic := onnxwire.StringAttr("mode", "linear"), onnxwire.StringAttr("mode", "cubic")
	fixedX := [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 8, 8)}
	dynamicX := [][]byte{onnxwire.ValueDims("x", onnxwire.Float, []onnxwire.Dim{fixed(1), fixed(1), param("H"), param("W")})}
	y := [][]byte{onnxwire.Rankless("y", onnxwire.Float)}
	for _, tc := range []struct {
		name   string
		nodes  [][]byte
		inputs [][]byte
		sizes  []int64
		none   bool // no finding
		want   Severity
		// in: the message and evidence say so.
		in   []string
		down []string
	}{
		{name: "linear down", nodes: [][]byte{resizeNode("y", linear, aa)}, inputs: fixedX, sizes: []int64{1, 1, 4, 8},
			want: Warning, in: []string{"mode linear_onnx", "differs from ONNX", "axis 2: 8 -> 4"}, down: []string{"axis 2: 8 -> 4"}},
		{name: "cubic down", nodes: [][]byte{resizeNode("y", cubic, aa)}, inputs: fixedX, sizes: []int64{1, 1, 3, 5},
			want: Warning, in: []string{"mode cubic", "axis 2: 8 -> 3, axis 3: 8 -> 5"}, down: []string{"axis 2: 8 -> 3", "axis 3: 8 -> 5"}},
		{name: "cubic up", nodes: [][]byte{resizeNode("y", cubic, aa)}, inputs: fixedX, sizes: []int64{1, 1, 16, 8},
			want: Note, in: []string{"no axis is downscaled", "OpenVINO agrees with ONNX"}},
		{name: "linear of dynamic dims", nodes: [][]byte{resizeNode("y", linear, aa)}, inputs: dynamicX, sizes: []int64{1, 1, 16, 16},
			want: Warning, in: []string{"wherever an axis is downscaled"}},
		{name: "nearest", nodes: [][]byte{resizeNode("y", aa)}, inputs: fixedX, sizes: []int64{1, 1, 4, 4}, none: true},
		{name: "linear without antialias", nodes: [][]byte{resizeNode("y", linear)}, inputs: fixedX, sizes: []int64{1, 1, 4, 4}, none: true},
		{
			name: "in an If", inputs: append(slices.Clone(fixedX), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})), sizes: []int64{1, 1, 4, 4},
			nodes: [][]byte{onnxwire.NodeAttrs("If", "branch", []string{"c"}, []string{"y"},
				onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{resizeNode("small", linear, aa)}, nil, nil, [][]byte{onnxwire.Rankless("small", onnxwire.Float)})),
				onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{resizeNode("plain", linear)}, nil, nil, [][]byte{onnxwire.Rankless("plain", onnxwire.Float)})))},
			want: Warning, in: []string{"the Interpolate layer \"small\"", "inside the then_body of If", "axis 2: 8 -> 4"}, down: []string{"axis 2: 8 -> 4", "axis 3: 8 -> 4"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			om, err := onnx.Read(onnxwire.Model(18, onnxwire.Graph("g", tc.nodes, [][]byte{sizesInit(tc.sizes...)}, tc.inputs, y)), onnx.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := onnx.Import(om, onnx.ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := findings(Model(m, "m.onnx", Options{Imported: true}))[ONNXAntialias]
			if tc.none {
				if len(got) != 0 {
					t.Fatalf("%s: %s", got[0].Severity, got[0].Message)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != tc.want {
				t.Fatalf("got %+v, want one %s", got, tc.want)
			}
			f := got[0]
			t.Logf("%s: %s", f.Severity, f.Message)
			for _, s := range tc.in {
				if !strings.Contains(f.Message, s) {
					t.Errorf("the message does not say %q", s)
				}
			}
			if d, _ := f.Evidence.Get("downscales").([]string); !slices.Equal(d, tc.down) {
				t.Errorf("downscales %v, want %v", d, tc.down)
			}
			if tc.name == "in an If" && (f.Layer.Type != "If" || f.Inner == nil || f.Inner.Type != "Interpolate" || f.Evidence.Get("divide") == nil) {
				t.Errorf("on %s, inner %v: want on the If, naming the Interpolate", f.Layer, f.Inner)
			}
		})
	}
}

// TestAntialiasIgnoredIR: an IR's Interpolate with antialias=true in mode
// linear_onnx or cubic gets a note that the attribute has no effect in
// OpenVINO's reference; in an IR from ONNX (its framework says), where it
// downscales, a warning that OpenVINO differs from ONNX; mode linear,
// which reads it, nothing.
func TestAntialiasIgnoredIR(t *testing.T) {
	for _, tc := range []struct {
		framework, mode string
		want            Severity
		none            bool
	}{
		{"", "linear_onnx", Note, false},
		{"", "cubic", Note, false},
		{"", "linear", 0, true},
		{"onnx", "linear_onnx", Warning, false},
	} {
		b := newBuilder(t, tc.framework)
		x := b.param("x", ir.F32, "1,3,8,8")
		sizes := b.ints(ir.I64, []int64{2}, 4, 4)
		axes := b.ints(ir.I64, []int64{2}, 2, 3)
		l := b.m.AddLayer("Interpolate", "opset11", "resize", attrs("mode", tc.mode, "shape_calculation_mode", "sizes", "antialias", "true"),
			[]ir.Output{x, sizes, axes}, []*ir.Port{{Type: ir.F32, Dims: []int64{1, 3, 4, 4}}})
		b.m.AddResult("y", ir.Output{Layer: l})
		r := Model(b.m, "m.xml", Options{})
		got := findings(r)[ONNXAntialias]
		if tc.none {
			if len(got) != 0 {
				t.Errorf("%s: %s", tc.mode, got[0].Message)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != tc.want || got[0].Layer != l {
			t.Errorf("%s %q: got %+v, want one %s on the Interpolate", tc.mode, tc.framework, got, tc.want)
			continue
		}
		if tc.want == Note && !strings.Contains(got[0].Message, "has no effect") {
			t.Errorf("%s: %s", tc.mode, got[0].Message)
		}
		t.Logf("%s %q: %s: %s", tc.mode, tc.framework, got[0].Severity, got[0].Message)
	}
}
