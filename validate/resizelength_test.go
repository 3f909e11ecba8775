package validate

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/onnx"
)

// TestResizeLength: OpenVINO's import of a Resize by constant scales is an
// Interpolate whose length is floor(length x (scale + 1e-6)): where ONNX's
// floor(length x scale) is one less (25 x 2.12, 50 x 1.06, on a declared
// input), a warning (onnx/resize-length) naming each axis; nothing where
// they agree (25 x 2.1), by sizes, or where the length is not known; on an
// If holding such a Resize, the If.
func TestResizeLength(t *testing.T) {
	scalesInit := func(s ...float32) []byte {
		raw := make([]byte, 0, 4*len(s))
		for _, f := range s {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
		}
		return onnxwire.Tensor("scales", onnxwire.Float, []int64{int64(len(s))}, raw)
	}
	byScales := func(out string) []byte {
		return onnxwire.NodeAttrs("Resize", out, []string{"x", "", "scales"}, []string{out}, onnxwire.StringAttr("mode", "linear"))
	}
	x := func(w int64) [][]byte { return [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 50, w)} }
	y := [][]byte{onnxwire.Rankless("y", onnxwire.Float)}
	for _, tc := range []struct {
		name   string
		nodes  [][]byte
		init   []byte
		inputs [][]byte
		axes   []string // the evidence; none: no finding
	}{
		{"25 x 2.12", [][]byte{byScales("y")}, scalesInit(1, 1, 1, 2.12), x(25), []string{"axis 3: 25 x 2.12 is 52 in ONNX, 53 here"}},
		{"two axes", [][]byte{byScales("y")}, scalesInit(1, 1, 1.06, 2.12), x(25), []string{"axis 2: 50 x 1.06 is 52 in ONNX, 53 here", "axis 3: 25 x 2.12 is 52 in ONNX, 53 here"}},
		{"25 x 2.1", [][]byte{byScales("y")}, scalesInit(1, 1, 1, 2.1), x(25), nil},
		{"by sizes", [][]byte{resizeNode("y", onnxwire.StringAttr("mode", "linear"))}, sizesInit(1, 1, 50, 53), x(25), nil},
		{"unknown width", [][]byte{byScales("y")}, scalesInit(1, 1, 1, 2.12),
			[][]byte{onnxwire.ValueDims("x", onnxwire.Float, []onnxwire.Dim{fixed(1), fixed(1), fixed(50), param("W")})}, nil},
		{"in an If", [][]byte{onnxwire.NodeAttrs("If", "branch", []string{"c"}, []string{"y"},
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{byScales("big")}, nil, nil, [][]byte{onnxwire.Rankless("big", onnxwire.Float)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{onnxwire.Node("Identity", "same", []string{"x"}, []string{"same"})}, nil, nil, [][]byte{onnxwire.Rankless("same", onnxwire.Float)})))},
			scalesInit(1, 1, 1, 2.12), append(x(25), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})), []string{"axis 3: 25 x 2.12 is 52 in ONNX, 53 here"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			om, err := onnx.Read(onnxwire.Model(13, onnxwire.Graph("g", tc.nodes, [][]byte{tc.init}, tc.inputs, y)), onnx.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := onnx.Import(om, onnx.ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := findings(Model(m, "m.onnx", Options{Imported: true}))[ONNXResizeLength]
			if tc.axes == nil {
				if len(got) != 0 {
					t.Fatalf("%s: %s", got[0].Severity, got[0].Message)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != Warning {
				t.Fatalf("got %+v, want one warning", got)
			}
			f := got[0]
			t.Logf("%s: %s", f.Severity, f.Message)
			if axes, _ := f.Evidence.Get("axes").([]string); !slices.Equal(axes, tc.axes) {
				t.Errorf("axes %v, want %v", axes, tc.axes)
			}
			if !strings.Contains(f.Message, strings.Join(tc.axes, "; ")) || !strings.Contains(f.Message, "floor(length x (scale + 1e-6))") {
				t.Errorf("the message does not name the axes and OpenVINO's rule: %s", f.Message)
			}
			if tc.name == "in an If" && (f.Layer.Type != "If" || f.Inner == nil || f.Inner.Type != "Interpolate") {
				t.Errorf("on %s, inner %v: want on the If, naming the Interpolate", f.Layer, f.Inner)
			}
		})
	}
}
