package onnx

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
)

// TestImportResizeMapping: the attributes Resize and Upsample become, as
// OpenVINO's frontend writes them (src/frontends/onnx/frontend/src/op/
// resize.cpp, upsample.cpp) and as irdiv converts them faithfully; "" is
// a node kept as it is, which convert refuses.
func TestImportResizeMapping(t *testing.T) {
	scales := func(v ...float32) []byte {
		b := make([]byte, 0, 4*len(v))
		for _, f := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		return onnxwire.Tensor("scales", onnxwire.Float, []int64{int64(len(v))}, b)
	}
	model := func(opset int64, node []byte, s []byte) []byte {
		g := onnxwire.Graph("g", [][]byte{node}, [][]byte{s}, [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 1, 2, 4)}, [][]byte{onnxwire.Value("y", onnxwire.Float)})
		return onnxwire.Model(opset, g)
	}
	resize := func(attrs ...[]byte) []byte {
		return onnxwire.NodeAttrs("Resize", "r", []string{"x", "", "scales"}, []string{"y"}, attrs...)
	}
	upsample := onnxwire.NodeAttrs("Upsample", "r", []string{"x", "scales"}, []string{"y"})
	for _, tc := range []struct {
		name               string
		model              []byte
		openvino, faithful string // coordinate_transformation_mode/nearest_mode/antialias
	}{
		// Upsample's nearest keeps Interpolate's defaults in OpenVINO's
		// import; ONNX floors x / scale, which simple does for scales of 1
		// and above.
		{"upsample nearest", model(9, upsample, scales(1, 1, 1.5, 2.5)), "half_pixel/round_prefer_floor/false", "asymmetric/simple/false"},
		{"resize-10 nearest", model(10, onnxwire.NodeAttrs("Resize", "r", []string{"x", "scales"}, []string{"y"}), scales(1, 1, 1.5, 2.5)), "asymmetric/simple/false", "asymmetric/simple/false"},
		{"resize half_pixel", model(13, resize(), scales(1, 1, 2, 2)), "half_pixel/round_prefer_floor/false", "half_pixel/round_prefer_floor/false"},
		// OpenVINO ignores antialias in mode cubic; ONNX filters.
		{"resize antialias", model(18, resize(onnxwire.StringAttr("mode", "cubic"), onnxwire.IntAttr("antialias", 1)), scales(1, 1, 0.5, 0.5)), "half_pixel/round_prefer_floor/true", ""},
		// Scale 1.2 keeps the length 2 (floor(2.4)), and Interpolate then
		// maps each output to itself where ONNX divides by 1.2.
		{"resize unchanged length", model(13, resize(onnxwire.StringAttr("mode", "linear")), scales(1, 1, 1.2, 2)), "half_pixel/round_prefer_floor/false", ""},
	} {
		m, err := Read(tc.model, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, faithful := range []bool{false, true} {
			want := tc.openvino
			if faithful {
				want = tc.faithful
			}
			im, err := Import(m, ImportOptions{Faithful: faithful})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got := ""
			for _, l := range im.Layers {
				if l.Type == "Interpolate" {
					coord, _ := l.DataAttr("coordinate_transformation_mode")
					nearest, _ := l.DataAttr("nearest_mode")
					antialias, _ := l.DataAttr("antialias")
					got = coord + "/" + nearest + "/" + antialias
				}
			}
			if got != want {
				t.Errorf("%s (faithful %v): Interpolate %q, want %q", tc.name, faithful, got, want)
			}
			readsBack(t, im)
		}
	}
}
