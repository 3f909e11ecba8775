package validate

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/onnx"
)

// TestONNXStatedTypes: what an ONNX model states about a tensor an op
// computes (a graph output, a value_info) is held against inference, as
// an IR's declared ports are: a type that disagrees is a
// structure/port-type error, a shape a structure/port-shape warning, in
// ONNX's shape inference's words; statements that agree, or leave dims
// symbolic, give none. Both ways of importing carry the statements.
func TestONNXStatedTypes(t *testing.T) {
	div := onnxwire.Node("Div", "div", []string{"x", "x"}, []string{"t"})
	relu := onnxwire.Node("Relu", "relu", []string{"t"}, []string{"y"})
	x := onnxwire.Value("x", onnxwire.Int32, 4)
	for _, tc := range []struct {
		name    string
		out     []byte   // the graph output y
		infos   [][]byte // value_info
		code    Code
		layer   string
		message string
	}{
		{"graph output type", onnxwire.Value("y", onnxwire.Float, 4), nil, StructurePortType, "relu",
			`output port 1: the model's graph output "y" states FLOAT, but the layer computes INT32: Inferred elem type differs from existing elem type: (INT32) vs (FLOAT)`},
		{"value_info type", onnxwire.Value("y", onnxwire.Int32, 4), [][]byte{onnxwire.Value("t", onnxwire.Int64, 4)}, StructurePortType, "div",
			`output port 2: the model's value_info "t" states INT64, but the layer computes INT32`},
		{"graph output rank", onnxwire.Value("y", onnxwire.Int32, 4, 1), nil, StructurePortShape, "relu",
			`the model's graph output "y" states shape [4,1], but the layer computes [4]: Inferred shape and existing shape differ in rank: (1) vs (2)`},
		{"value_info dim", onnxwire.Value("y", onnxwire.Int32, 4), [][]byte{onnxwire.Value("t", onnxwire.Int32, 7)}, StructurePortShape, "div",
			`the model's value_info "t" states shape [7], but the layer computes [4]: Inferred shape and existing shape differ in dimension 0: (4) vs (7)`},
		{"agree", onnxwire.Value("y", onnxwire.Int32, 4), [][]byte{onnxwire.Value("t", onnxwire.Int32, 4)}, "", "", ""},
		{"symbolic dims", onnxwire.ValueInfo("y", onnxwire.Int32, -1), [][]byte{onnxwire.Rankless("t", onnxwire.Int32)}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := onnxwire.GraphWithInfo("g", [][]byte{div, relu}, nil, [][]byte{x}, [][]byte{tc.out}, tc.infos)
			om, err := onnx.Read(onnxwire.Model(13, g), onnx.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, faithful := range []bool{false, true} {
				m, err := onnx.Import(om, onnx.ImportOptions{Faithful: faithful})
				if err != nil {
					t.Fatal(err)
				}
				fs := findings(Model(m, "t", Options{Imported: !faithful}))
				got := append(fs[StructurePortType], fs[StructurePortShape]...)
				switch {
				case tc.code == "" && len(got) != 0:
					t.Errorf("%+v", got)
				case tc.code != "" && (len(got) != 1 || got[0].Code != tc.code || got[0].Layer.Name != tc.layer || !strings.Contains(got[0].Message, tc.message)):
					t.Errorf("got %+v, want %s %q", got, tc.code, tc.message)
				case tc.code == StructurePortShape && got[0].Severity != Warning, tc.code == StructurePortType && got[0].Severity != Error:
					t.Errorf("%s is a %s", tc.code, got[0].Severity)
				}
			}
		})
	}
}
