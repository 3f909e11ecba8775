package ops

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

func layerOf(typ, version string, data ...string) *ir.Layer {
	l := &ir.Layer{ID: 3, Name: "n", Type: typ, Version: version}
	for i := 0; i+1 < len(data); i += 2 {
		l.Data = append(l.Data, ir.Attr{Name: data[i], Value: data[i+1]})
	}
	return l
}

// TestVersions checks which version of an op each opset holds, against
// OpenVINO's opsetN_tbl.hpp, and the errors for what irdiv cannot build.
func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		typ, opset string
		want       string // OpType version, or the error's text
	}{
		{"Gather", "opset1", "opset1"}, {"Gather", "opset6", "opset1"}, {"Gather", "opset7", "opset7"},
		{"Gather", "opset8", "opset8"}, {"gather", "opset15", "opset8"},
		{"ShapeOf", "opset2", "opset1"}, {"ShapeOf", "opset3", "opset3"}, {"ShapeOf", "opset16", "opset3"},
		{"Range", "opset3", "opset1"}, {"Range", "opset4", "opset4"},
		{"Broadcast", "opset2", "opset1"}, {"Broadcast", "opset3", "opset3"},
		{"MaxPool", "opset7", "opset1"}, {"MaxPool", "opset13", "opset8"}, {"MaxPool", "opset14", "opset14"},
		{"AvgPool", "opset13", "opset1"}, {"AvgPool", "opset14", "opset14"},
		{"Softmax", "opset1", "opset1"}, {"SoftMax", "opset8", "opset8"},
		{"Pad", "opset11", "opset1"}, {"Pad", "opset12", "opset12"},
		{"Squeeze", "opset14", "opset1"}, {"Squeeze", "opset15", "opset15"},
		{"Gelu", "opset2", "opset2"}, {"Gelu", "opset7", "opset7"},
		{"BatchNormInference", "opset4", "opset1"}, {"BatchNormInference", "opset5", "opset5"},
		{"Interpolate", "opset4", "opset4"}, {"Interpolate", "opset11", "opset11"},
		{"ReLU", "opset1", "opset1"}, {"Const", "opset1", "opset1"}, {"Constant", "opset1", "opset1"},
		{"Round", "opset5", "opset5"}, {"Slice", "opset8", "opset8"}, {"HSwish", "opset4", "opset4"},
		{"Convert", "opset16", "opset1"}, {"Parameter", "opset16", "opset1"},
		// Types an opset lacks, in OpenVINO's words.
		{"Round", "opset4", "Opset opset4 doesn't contain the operation with type: Round"},
		{"Slice", "opset7", "Opset opset7 doesn't contain the operation with type: Slice"},
		{"Gelu", "opset1", "Opset opset1 doesn't contain the operation with type: Gelu"},
		{"Add", "opset16", "Opset opset16 doesn't contain the operation with type: Add"},
		{"Divide", "opset16", "Opset opset16 doesn't contain the operation with type: Divide"},
		// Opsets OpenVINO does not know.
		{"Relu", "extension", "Cannot create Relu layer n id:3 from unsupported opset: extension"},
		{"Add", "opset17", "Cannot create Add layer n id:3 from unsupported opset: opset17"},
		// Versions and types irdiv does not implement.
		{"Interpolate", "opset3", "irdiv does not implement Interpolate-1"},
		{"AvgPool", "opset16", "irdiv does not implement AvgPool-16"},
		{"TopK", "opset11", "irdiv cannot execute TopK (opset11)"},
		{"Erf", "opset99", "irdiv cannot execute Erf (opset99)"},
	} {
		l := layerOf(tc.typ, tc.opset, "element_type", "f32", "shape", "2")
		l.Outputs = []*ir.Port{{Type: ir.F32, Dims: []int64{2}}}
		op, err := New(l)
		if strings.HasPrefix(tc.want, "opset") {
			if err != nil {
				t.Errorf("%s %s: %v", tc.typ, tc.opset, err)
				continue
			}
			if _, v := op.OpType(); v != tc.want {
				t.Errorf("%s %s: version %s, want %s", tc.typ, tc.opset, v, tc.want)
			}
			continue
		}
		if !errors.Is(err, ErrUnsupportedOp) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `layer "n" (id 3)`) {
			t.Errorf("%s %s: error %v, want ErrUnsupportedOp and %q", tc.typ, tc.opset, err, tc.want)
		}
	}
}

// TestAttrsRoundTrip reads layers with non-default attributes, writes them
// back with Attrs and reads them again: the op must be the same, and the
// type and version must name the op read.
func TestAttrsRoundTrip(t *testing.T) {
	for _, l := range []*ir.Layer{
		layerOf("Add", "opset1", "auto_broadcast", "pdpd", AxisAttr, "1"),
		layerOf("Equal", "opset1", "auto_broadcast", "none"),
		layerOf("Convert", "opset1", "destination_type", "u16"),
		layerOf("Clamp", "opset1", "min", "-1.5", "max", "6"),
		layerOf("Round", "opset5", "mode", "half_away_from_zero"),
		layerOf("Elu", "opset1", "alpha", "0.25"),
		layerOf("Gelu", "opset7", "approximation_mode", "TANH"),
		layerOf("ShapeOf", "opset3", "output_type", "i32"),
		layerOf("Gather", "opset8", "batch_dims", "-1"),
		layerOf("Concat", "opset1", "axis", "-2"),
		layerOf("Reshape", "opset1", "special_zero", "True"),
		layerOf("Squeeze", "opset15", "allow_axis_skip", "true"),
		layerOf("Broadcast", "opset3", "mode", "bidirectional"),
		layerOf("Range", "opset4", "output_type", "f32"),
		layerOf("Split", "opset1", "num_splits", "3"),
		layerOf("StridedSlice", "opset1", "begin_mask", "1,0", "end_mask", "0,1", "new_axis_mask", "", "shrink_axis_mask", "0,0", "ellipsis_mask", ""),
		layerOf("ReduceMax", "opset1", "keep_dims", "true"),
		layerOf("Select", "opset1", "auto_broadcast", "none"),
		layerOf("Convolution", "opset1", "strides", "2, 1", "dilations", "1,3", "pads_begin", "0,1", "pads_end", "1,1", "auto_pad", "explicit"),
		layerOf("GroupConvolution", "opset1", "strides", "1,1", "dilations", "1,1", "pads_begin", "1,1", "pads_end", "1,1", "auto_pad", "same_lower"),
		layerOf("ConvolutionBackpropData", "opset1", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0", "auto_pad", "valid", "output_padding", "1,0"),
		layerOf("MaxPool", "opset14", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "1,1", "kernel", "3,3", "rounding_type", "ceil_torch", "auto_pad", "explicit", "index_element_type", "i32", "axis", "0"),
		layerOf("MaxPool", "opset1", "strides", "2", "pads_begin", "0", "pads_end", "0", "kernel", "2", "rounding_type", "ceil", "auto_pad", "same_upper"),
		layerOf("AvgPool", "opset1", "strides", "1,1", "pads_begin", "1,1", "pads_end", "1,1", "kernel", "3,3", "exclude-pad", "true", "rounding_type", "floor", "auto_pad", "explicit"),
		layerOf("MatMul", "opset1", "transpose_a", "true", "transpose_b", "false"),
		layerOf("Pad", "opset12", "pad_mode", "reflect"),
		layerOf("Interpolate", "opset11", "mode", "nearest", "shape_calculation_mode", "scales", "coordinate_transformation_mode", "asymmetric", "nearest_mode", "floor", "antialias", "false", "pads_begin", "0,0,0,0", "pads_end", "0,0,0,0", "cube_coeff", "-0.75"),
		layerOf("Softmax", "opset8", "axis", "-1"),
		layerOf("BatchNormInference", "opset5", "epsilon", "9.9999997473787516e-06"),
	} {
		op, err := New(l)
		if err != nil {
			t.Errorf("%s: %v", l.Type, err)
			continue
		}
		typ, version := op.OpType()
		if !strings.EqualFold(typ, l.Type) || version != l.Version {
			t.Errorf("%s %s: OpType %s %s", l.Type, l.Version, typ, version)
		}
		again, err := New(&ir.Layer{ID: 3, Name: "n", Type: typ, Version: version, Data: op.Attrs()})
		if err != nil {
			t.Errorf("%s: reading its Attrs %v: %v", l.Type, op.Attrs(), err)
			continue
		}
		if !reflect.DeepEqual(op, again) {
			t.Errorf("%s: %+v written as %v reads back as %+v", l.Type, op, op.Attrs(), again)
		}
	}
	// The serializer's orders and formats.
	for _, tc := range []struct {
		l    *ir.Layer
		want string
	}{
		{layerOf("Clamp", "opset1", "max", "6.0", "min", "0.0"), "[{min 0} {max 6}]"},
		{layerOf("BatchNormInference", "opset5", "epsilon", "1e-5"), "[{epsilon 1.0000000000000001e-05}]"},
		{layerOf("GroupConvolution", "opset1", "dilations", "1,1", "strides", "2,2", "pads_begin", "1,1", "pads_end", "0,0"),
			"[{strides 2,2} {pads_begin 1,1} {pads_end 0,0} {dilations 1,1} {auto_pad explicit}]"},
		{layerOf("Add", "opset1"), "[{auto_broadcast numpy}]"},
		{layerOf("Gather", "opset1"), "[]"},
	} {
		op, err := New(tc.l)
		if err != nil {
			t.Fatal(err)
		}
		if got := attrString(op.Attrs()); got != tc.want {
			t.Errorf("%s: Attrs %s, want %s", tc.l.Type, got, tc.want)
		}
	}
}

func attrString(a []ir.Attr) string {
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = "{" + x.Name + " " + x.Value + "}"
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestAttributeErrors checks OpenVINO's enum wording and the defaults of
// absent attributes.
func TestAttributeErrors(t *testing.T) {
	for _, tc := range []struct {
		l    *ir.Layer
		want string
	}{
		{layerOf("Add", "opset1", "auto_broadcast", "bidirectional"), `"bidirectional" is not a member of enum ov::op::AutoBroadcastType`},
		{layerOf("Round", "opset5", "mode", "half_down"), `"half_down" is not a member of enum ov::op::v5::Round::RoundMode`},
		{layerOf("MaxPool", "opset8", "rounding_type", "ceil_torch"), `"ceil_torch" is not a member of enum ov::op::RoundingType`},
		{layerOf("Convolution", "opset1", "auto_pad", "same"), `"same" is not a member of enum ov::op::PadType`},
		{layerOf("Convert", "opset1", "destination_type", "FP32"), `is not a member of enum element::Type_t`},
		{layerOf("Broadcast", "opset1", "mode", "bidirectional"), `"bidirectional" is not a member of enum ov::op::AutoBroadcastType`},
		{layerOf("Broadcast", "opset3", "mode", "pdpd"), "irdiv does not implement Broadcast (mode pdpd)-3"},
	} {
		_, err := New(tc.l)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want %q", tc.l.Type, tc.l.Data, err, tc.want)
		}
	}
	// Absent attributes keep OpenVINO's defaults; a boolean that is not one
	// keeps it too; numbers are read as istringstream reads them.
	op, _ := New(layerOf("Concat", "opset1"))
	if op.(*Concat).Axis != 0 {
		t.Errorf("Concat default axis %d", op.(*Concat).Axis)
	}
	op, _ = New(layerOf("Reshape", "opset1", "special_zero", "yes"))
	if op.(*Reshape).SpecialZero {
		t.Error("special_zero=yes read as true")
	}
	op, _ = New(layerOf("Split", "opset1", "num_splits", " 4x"))
	if op.(*Split).NumSplits != 4 {
		t.Errorf("num_splits \" 4x\" read as %d", op.(*Split).NumSplits)
	}
	op, _ = New(layerOf("Clamp", "opset1", "min", "-2.5e1x", "max", "nan"))
	if c := op.(*Clamp); c.Min != -25 || c.Max != 0 {
		t.Errorf("Clamp min/max read as %v %v", c.Min, c.Max)
	}
	op, _ = New(layerOf("Convert", "opset1"))
	if op.(*Convert).DestinationType != ir.Dynamic {
		t.Error("Convert without destination_type is not undefined")
	}
}
