package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
	"google.golang.org/protobuf/proto"
)

func dataType(t ir.ElementType) int32 {
	for dt, et := range elementTypes {
		if et == t {
			return int32(dt)
		}
	}
	panic(t)
}

// tensorInfo is a graph input or output of type t and static dims.
func tensorInfo(name string, t int32, dims ...int64) *onnxpb.ValueInfoProto {
	var shape onnxpb.TensorShapeProto
	for _, d := range dims {
		shape.Dim = append(shape.Dim, &onnxpb.TensorShapeProto_Dimension{Value: &onnxpb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &onnxpb.ValueInfoProto{Name: proto.String(name), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{
		TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(t), Shape: &shape}}}}
}

// divModel is a model z = x / y of one Div node at the given opset.
func divModel(opset int64, t int32, aDims, bDims, outDims []int64, attrs ...*onnxpb.AttributeProto) *onnxpb.ModelProto {
	return &onnxpb.ModelProto{
		IrVersion:   proto.Int64(7),
		OpsetImport: []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}},
		Graph: &onnxpb.GraphProto{
			Name:   proto.String("div"),
			Node:   []*onnxpb.NodeProto{{Name: proto.String("d"), OpType: proto.String("Div"), Input: []string{"x", "y"}, Output: []string{"z"}, Attribute: attrs}},
			Input:  []*onnxpb.ValueInfoProto{tensorInfo("x", t, aDims...), tensorInfo("y", t, bDims...)},
			Output: []*onnxpb.ValueInfoProto{tensorInfo("z", t, outDims...)},
		},
	}
}

func intAttr(name string, v int64) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func convertProto(t *testing.T, mp *onnxpb.ModelProto) (*ir.Model, error) {
	t.Helper()
	data, err := proto.Marshal(mp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(data, ReadOptions{})
	if err != nil {
		return nil, err
	}
	return Convert(m)
}

// TestDivVersionsAndTypes: every version of Div, with every type it
// accepts, converts, runs and gives ONNX's result: truncation for
// integers, IEEE division for floats; the types a version does not
// accept are refused naming the node, the opset and the rule.
func TestDivVersionsAndTypes(t *testing.T) {
	all := []ir.ElementType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.I8, ir.I16, ir.I32, ir.I64, ir.U8, ir.U16, ir.U32, ir.U64}
	for _, opset := range []int64{1, 6, 7, 13, 14, 21} {
		version := DivVersion(opset)
		for _, et := range all {
			name := fmt.Sprintf("opset%d/%s", opset, et)
			model, err := convertProto(t, divModel(opset, dataType(et), []int64{4}, []int64{4}, []int64{4}))
			if !slices.Contains(divTypes[version], et) {
				if !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), fmt.Sprintf(`node "d" (Div, #0): opset %d, Div-%d: type %s is not allowed`, opset, version, DataTypeName(et))) {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			a, b, want := operandsFor(et)
			got := run(t, model, a, b)
			if string(got.Data) != string(want.Data) {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
			if pd, _ := model.LayerByName("d").DataAttr("m_pythondiv"); pd != fmt.Sprint(!et.IsInteger()) {
				t.Errorf("%s: m_pythondiv=%s", name, pd)
			}
		}
	}
}

// operandsFor returns [-7, 7, -7, 8] / [2, -2, -2, 3] in type et (the
// absolute values for unsigned types) and ONNX's quotient.
func operandsFor(et ir.ElementType) (a, b, want *ir.Tensor) {
	av, bv := []float64{-7, 7, -7, 8}, []float64{2, -2, -2, 3}
	a, _ = ir.NewTensor(et, []int64{4})
	b, _ = ir.NewTensor(et, []int64{4})
	want, _ = ir.NewTensor(et, []int64{4})
	for i := range av {
		x, y := av[i], bv[i]
		if !et.IsSigned() && !et.IsFloat() {
			x, y = math.Abs(x), math.Abs(y)
		}
		a.SetFloat64(i, x)
		b.SetFloat64(i, y)
		q := x / y
		if et.IsInteger() {
			q = math.Trunc(q)
		}
		want.SetFloat64(i, q)
	}
	return a, b, want
}

func run(t *testing.T, m *ir.Model, inputs ...*ir.Tensor) *ir.Tensor {
	t.Helper()
	cm, err := plugin.NewCore().CompileModel(m, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	req := cm.NewInferRequest()
	for i, in := range inputs {
		if err := req.SetInputTensor(i, in); err != nil {
			t.Fatal(err)
		}
	}
	if err := req.Infer(); err != nil {
		t.Fatal(err)
	}
	out, err := req.OutputTensor(0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConverterRules: each rule of Div's versions is enforced, and the
// legacy broadcast of Div-1 and Div-6 takes the pdpd path at its axis.
func TestConverterRules(t *testing.T) {
	f32 := dataType(ir.F32)
	for _, tc := range []struct {
		name  string
		model *onnxpb.ModelProto
		want  string // "" for a model that converts
		mode  string // the Divide's broadcast when it converts
	}{
		{"opset7 broadcast attribute", divModel(7, f32, []int64{3, 4}, []int64{4}, []int64{3, 4}, intAttr("broadcast", 1)), "Unrecognized attribute: broadcast for operator Div", ""},
		{"opset6 equal shapes", divModel(6, f32, []int64{3, 4}, []int64{3, 4}, []int64{3, 4}), "", "none"},
		{"opset6 broadcast=0 unequal", divModel(6, f32, []int64{3, 4}, []int64{4}, []int64{3, 4}), "broadcast=0 needs equal shapes", ""},
		{"opset6 suffix", divModel(6, f32, []int64{3, 4, 5}, []int64{5}, []int64{3, 4, 5}, intAttr("broadcast", 1)), "", "pdpd(axis=-1)"},
		{"opset6 axis", divModel(6, f32, []int64{2, 3, 4, 5}, []int64{3, 4}, []int64{2, 3, 4, 5}, intAttr("broadcast", 1), intAttr("axis", 1)), "", "pdpd(axis=1)"},
		{"opset6 negative axis", divModel(6, f32, []int64{2, 3, 4, 5}, []int64{3, 4}, []int64{2, 3, 4, 5}, intAttr("broadcast", 1), intAttr("axis", -3)), "", "pdpd(axis=1)"},
		{"opset1 one element", divModel(1, f32, []int64{2, 3}, []int64{1, 1}, []int64{2, 3}, intAttr("broadcast", 1)), "", "pdpd(axis=-1)"},
		{"opset6 one-dim expansion", divModel(6, f32, []int64{3, 4}, []int64{1}, []int64{3, 4}, intAttr("broadcast", 1)), "", "pdpd(axis=-1)"},
		{"opset6 stretching a 1", divModel(6, f32, []int64{3, 4}, []int64{1, 4}, []int64{3, 4}, intAttr("broadcast", 1)), "1-dim expansion is not allowed", ""},
		{"opset6 not a slice", divModel(6, f32, []int64{3, 4}, []int64{3}, []int64{3, 4}, intAttr("broadcast", 1)), "needs B [3] to equal A's dims from axis 1", ""},
		{"opset6 rank of B", divModel(6, f32, []int64{4}, []int64{2, 4}, []int64{2, 4}, intAttr("broadcast", 1)), "rank(B) <= rank(A)", ""},
		{"opset6 axis out of range", divModel(6, f32, []int64{3, 4}, []int64{4}, []int64{3, 4}, intAttr("broadcast", 1), intAttr("axis", 2)), "axis 2 does not place B", ""},
		{"opset6 broadcast=2", divModel(6, f32, []int64{3}, []int64{3}, []int64{3}, intAttr("broadcast", 2)), "broadcast=2 (0 or 1)", ""},
		{"opset14 numpy", divModel(14, f32, []int64{3, 1}, []int64{1, 4}, []int64{3, 4}), "", "numpy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := convertProto(t, tc.model)
			if tc.want != "" {
				if !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `node "d" (Div, #0): opset`) {
					t.Fatalf("error %v; want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ab, _ := m.LayerByName("d").DataAttr("auto_broadcast")
			if axis, ok := m.LayerByName("d").DataAttr("auto_broadcast.auto_broadcast_axis"); ok {
				ab += "(axis=" + axis + ")"
			}
			if ab != tc.mode {
				t.Errorf("auto_broadcast %s, want %s", ab, tc.mode)
			}
		})
	}
	// The one-dim expansion case of Div-6 is the one element rule: B of
	// one element stretches; a 1 among other dims does not.
	mixed := divModel(14, f32, []int64{3}, []int64{3}, []int64{3})
	mixed.Graph.Input[1] = tensorInfo("y", dataType(ir.I32), 3)
	if _, err := convertProto(t, mixed); !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), "A is FLOAT and B is INT32") {
		t.Errorf("mixed types: %v", err)
	}
	other := divModel(14, f32, []int64{3}, []int64{3}, []int64{3})
	other.Graph.Node = append(other.Graph.Node,
		&onnxpb.NodeProto{OpType: proto.String("Relu"), Input: []string{"z"}, Output: []string{"r"}},
		&onnxpb.NodeProto{OpType: proto.String("Relu"), Input: []string{"r"}, Output: []string{"s"}},
		&onnxpb.NodeProto{OpType: proto.String("Abs"), Input: []string{"s"}, Output: []string{"t"}})
	// Other ops convert too, as OpenVINO's importer maps them.
	m, err := convertProto(t, other)
	if err != nil {
		t.Fatalf("other ops: %v", err)
	}
	for _, name := range []string{"r", "s", "t"} {
		if l := producer(m, name); l == nil || !strings.Contains("Relu Abs", l.Type) {
			t.Errorf("the output %q comes from %v", name, l)
		}
	}
	// A model read from a file is named in Convert's errors, after the
	// one prefix.
	data, _ := proto.Marshal(mixed)
	mm, err := Read(data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mm.Path = "dir/model.pb"
	if _, err := Convert(mm); !errors.Is(err, ErrRule) || !strings.HasPrefix(err.Error(), "onnx: dir/model.pb: ") || strings.Count(err.Error(), "onnx: ") != 1 {
		t.Errorf("Convert of a file: %v", err)
	}
}

// producer is the layer whose output port carries an ONNX tensor name.
func producer(m *ir.Model, name string) *ir.Layer {
	for _, l := range m.Layers {
		for _, p := range l.Outputs {
			if slices.Contains(p.Names, name) {
				return l
			}
		}
	}
	return nil
}

// TestLegacyBroadcastComputes: the pdpd mapping of Div-6's broadcast=1
// places B at its axis.
func TestLegacyBroadcastComputes(t *testing.T) {
	m, err := convertProto(t, divModel(6, dataType(ir.F32), []int64{2, 3, 2}, []int64{3}, []int64{2, 3, 2}, intAttr("broadcast", 1), intAttr("axis", 1)))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := ir.TensorOf(ir.F32, []int64{2, 3, 2}, []float32{2, 2, 4, 4, 8, 8, 2, 2, 4, 4, 8, 8})
	b, _ := ir.TensorOf(ir.F32, []int64{3}, []float32{2, 4, 8})
	if got := run(t, m, a, b); fmt.Sprint(ir.View[float32](got)) != "[1 1 1 1 1 1 1 1 1 1 1 1]" {
		t.Errorf("got %v", got)
	}
}

// TestTensorFields: every numeric type decodes from raw_data and from its
// typed field; other types, the wrong field and a wrong count are errors.
func TestTensorFields(t *testing.T) {
	vals := []float64{1, -2, 3, 100}
	r := &tensorReader{maxBytes: ir.MaxTensorBytes}
	for et := range slices.Values([]ir.ElementType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.I8, ir.I16, ir.I32, ir.I64, ir.U8, ir.U16, ir.U32, ir.U64}) {
		want, _ := ir.NewTensor(et, []int64{2, 2})
		for i, v := range vals {
			if !et.IsSigned() && !et.IsFloat() {
				v = math.Abs(v)
			}
			want.SetFloat64(i, v)
		}
		typed := &onnxpb.TensorProto{Dims: []int64{2, 2}, DataType: proto.Int32(dataType(et))}
		for i := range vals {
			switch et {
			case ir.F32:
				typed.FloatData = append(typed.FloatData, ir.View[float32](want)[i])
			case ir.F64:
				typed.DoubleData = append(typed.DoubleData, ir.View[float64](want)[i])
			case ir.I64:
				typed.Int64Data = append(typed.Int64Data, ir.View[int64](want)[i])
			case ir.U32:
				typed.Uint64Data = append(typed.Uint64Data, uint64(ir.View[uint32](want)[i]))
			case ir.U64:
				typed.Uint64Data = append(typed.Uint64Data, ir.View[uint64](want)[i])
			case ir.F16, ir.BF16, ir.U16:
				typed.Int32Data = append(typed.Int32Data, int32(ir.View[uint16](want)[i]))
			case ir.I16:
				typed.Int32Data = append(typed.Int32Data, int32(ir.View[int16](want)[i]))
			case ir.I8:
				typed.Int32Data = append(typed.Int32Data, int32(ir.View[int8](want)[i]))
			case ir.U8:
				typed.Int32Data = append(typed.Int32Data, int32(ir.View[uint8](want)[i]))
			case ir.I32:
				typed.Int32Data = append(typed.Int32Data, ir.View[int32](want)[i])
			}
		}
		raw := &onnxpb.TensorProto{Dims: []int64{2, 2}, DataType: proto.Int32(dataType(et)), RawData: want.Data}
		for name, tp := range map[string]*onnxpb.TensorProto{"typed": typed, "raw": raw} {
			got, err := r.tensor(tp, "t")
			if err != nil || got.Type != et || string(got.Data) != string(want.Data) || !slices.Equal(got.Shape, want.Shape) {
				t.Errorf("%s %s: %v, %v; want %v", et, name, got, err, want)
			}
		}
		short := proto.Clone(raw).(*onnxpb.TensorProto)
		short.RawData = short.RawData[1:]
		if _, err := r.tensor(short, "t"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s short raw data: %v", et, err)
		}
	}
	for name, tp := range map[string]*onnxpb.TensorProto{
		"string":         {DataType: proto.Int32(int32(onnxpb.TensorProto_STRING)), StringData: [][]byte{[]byte("a")}, Dims: []int64{1}},
		"complex":        {DataType: proto.Int32(int32(onnxpb.TensorProto_COMPLEX64)), FloatData: []float32{1, 2}, Dims: []int64{1}},
		"wrong field":    {DataType: proto.Int32(int32(onnxpb.TensorProto_INT64)), Int32Data: []int32{1}, Dims: []int64{1}},
		"wrong count":    {DataType: proto.Int32(int32(onnxpb.TensorProto_FLOAT)), FloatData: []float32{1}, Dims: []int64{2}},
		"huge":           {DataType: proto.Int32(int32(onnxpb.TensorProto_FLOAT)), Dims: []int64{1 << 40, 1 << 40}},
		"negative dims":  {DataType: proto.Int32(int32(onnxpb.TensorProto_FLOAT)), Dims: []int64{-1}},
		"external there": {DataType: proto.Int32(int32(onnxpb.TensorProto_FLOAT)), Dims: []int64{1}, DataLocation: onnxpb.TensorProto_EXTERNAL.Enum()},
	} {
		if _, err := r.tensor(tp, "t"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestExternalData: data outside the model is read from its folder,
// within the file's bounds, never from outside the folder.
func TestExternalData(t *testing.T) {
	dir := t.TempDir()
	payload := make([]byte, 64)
	for i := range 16 {
		binary.LittleEndian.PutUint32(payload[4*i:], math.Float32bits(float32(i)))
	}
	if err := os.WriteFile(filepath.Join(dir, "w.bin"), payload, 0o644); err != nil {
		t.Fatal(err)
	}
	ext := func(location, offset, length string, n int64) *onnxpb.TensorProto {
		tp := &onnxpb.TensorProto{Name: proto.String("w"), DataType: proto.Int32(dataType(ir.F32)), Dims: []int64{n}, DataLocation: onnxpb.TensorProto_EXTERNAL.Enum()}
		for _, kv := range [][2]string{{"location", location}, {"offset", offset}, {"length", length}} {
			if kv[1] != "" {
				tp.ExternalData = append(tp.ExternalData, &onnxpb.StringStringEntryProto{Key: proto.String(kv[0]), Value: proto.String(kv[1])})
			}
		}
		return tp
	}
	r := &tensorReader{dir: dir, maxBytes: ir.MaxTensorBytes}
	got, err := r.tensor(ext("w.bin", "16", "8", 2), "w")
	if err != nil || fmt.Sprint(ir.View[float32](got)) != "[4 5]" {
		t.Errorf("offset 16 length 8: %v %v", got, err)
	}
	if got, err := r.tensor(ext("w.bin", "", "", 16), "w"); err != nil || ir.View[float32](got)[15] != 15 {
		t.Errorf("whole file: %v %v", got, err)
	}
	for name, tp := range map[string]*onnxpb.TensorProto{
		"escapes":        ext("../w.bin", "", "", 16),
		"absolute":       ext(filepath.Join(dir, "w.bin"), "", "", 16),
		"past the end":   ext("w.bin", "60", "8", 2),
		"offset huge":    ext("w.bin", "9223372036854775807", "8", 2),
		"length differs": ext("w.bin", "0", "12", 2),
		"missing file":   ext("nope.bin", "", "", 1),
		"no location":    ext("", "0", "8", 2),
		"bad offset":     ext("w.bin", "-1", "8", 2),
	} {
		if _, err := (&tensorReader{dir: dir, maxBytes: ir.MaxTensorBytes}).tensor(tp, "w"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Overlapping ranges may not read more than twice the file.
	r = &tensorReader{dir: dir, maxBytes: ir.MaxTensorBytes}
	for i := range 3 {
		_, err := r.tensor(ext("w.bin", "0", "60", 15), "w")
		if (err != nil) != (i == 2) {
			t.Errorf("read %d of 60 bytes from a 64-byte file: %v", i+1, err)
		}
	}
	// Through ReadFile, relative to the model's folder.
	mp := divModel(14, dataType(ir.F32), []int64{2}, []int64{2}, []int64{2})
	mp.Graph.Initializer = []*onnxpb.TensorProto{ext("w.bin", "16", "8", 2)}
	mp.Graph.Initializer[0].Name = proto.String("y")
	mp.Graph.Input = mp.Graph.Input[:1]
	data, _ := proto.Marshal(mp)
	path := filepath.Join(dir, "m.onnx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadFile(path, ReadOptions{})
	if err != nil || len(m.Graph.Initializers) != 1 || fmt.Sprint(ir.View[float32](m.Graph.Initializers[0].Tensor)) != "[4 5]" {
		t.Fatalf("ReadFile with external data: %v", err)
	}
	// A file's error names it after one package prefix.
	mp.Graph.Initializer[0] = ext("missing.bin", "", "", 2)
	mp.Graph.Initializer[0].Name = proto.String("y")
	bad, _ := proto.Marshal(mp)
	badPath := filepath.Join(dir, "bad.onnx")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(badPath, ReadOptions{}); !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "onnx: "+badPath+": ") || strings.Contains(strings.TrimPrefix(err.Error(), "onnx: "+badPath), "onnx: ") {
		t.Errorf("ReadFile of a model with a missing external file: %v", err)
	}
	if _, err := Read(data, ReadOptions{}); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "read from memory") {
		t.Errorf("Read with external data: %v", err)
	}
}

// TestModelInfo: inputs keep their dim_param as "?", Constant nodes become
// Const, names are kept as port names, rt_info says framework=onnx.
func TestModelInfo(t *testing.T) {
	mp := divModel(13, dataType(ir.I64), []int64{0, 4}, []int64{4}, []int64{0, 4})
	mp.Graph.Input[0].Type.GetTensorType().Shape.Dim[0].Value = &onnxpb.TensorShapeProto_Dimension_DimParam{DimParam: "batch"}
	mp.Graph.Input = mp.Graph.Input[:1]
	mp.Graph.Node = append([]*onnxpb.NodeProto{{OpType: proto.String("Constant"), Output: []string{"y"},
		Attribute: []*onnxpb.AttributeProto{{Name: proto.String("value_ints"), Type: onnxpb.AttributeProto_INTS.Enum(), Ints: []int64{2, -3, 4, 5}}}}}, mp.Graph.Node...)
	data, _ := proto.Marshal(mp)
	m, err := Read(data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Opset != 13 || m.Graph.Inputs[0].Shape.String() != "[?,4]" {
		t.Errorf("opset %d, input shape %s", m.Opset, m.Graph.Inputs[0].Shape)
	}
	model, err := Convert(m)
	if err != nil {
		t.Fatal(err)
	}
	if model.Framework() != "onnx" {
		t.Errorf("framework %q", model.Framework())
	}
	if v, _ := model.MetaValue("conversion_parameters", "opset"); v != "13" {
		t.Errorf("opset in rt_info %q", v)
	}
	div := model.LayerByName("d")
	if div == nil || div.Outputs[0].Names[0] != "z" {
		t.Fatalf("Divide %v", div)
	}
	a, _ := ir.TensorOf(ir.I64, []int64{2, 4}, []int64{-7, 7, 9, -9, 10, 11, -12, 13})
	if got := run(t, model, a); fmt.Sprint(ir.View[int64](got)) != "[-3 -2 2 -1 5 -3 -3 2]" {
		t.Errorf("got %v", got)
	}
	// The model writes as IR and reads back.
	x, bin, err := ir.Encode(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ir.ReadBytes(x, bin, ir.ReadOptions{}); err != nil {
		t.Errorf("reading the converted model back: %v", err)
	}
	_ = shapeinfer.Dim{}
}

// TestONNXDivConformance: every case of ONNX's own Div test data converts,
// runs and matches its output_0.pb exactly, through the Go API.
func TestONNXDivConformance(t *testing.T) {
	models := testutil.SharedFiles(t, "onnx-div-tests/*/model.onnx")
	more, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(models[0])), "_*/*/model.onnx"))
	for _, path := range append(models, more...) {
		name, _ := filepath.Rel(filepath.Dir(filepath.Dir(filepath.Dir(path))), filepath.Dir(path))
		t.Run(name, func(t *testing.T) {
			m, err := ReadFile(path, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			model, err := Convert(m)
			if err != nil {
				t.Fatal(err)
			}
			set := filepath.Join(filepath.Dir(path), "test_data_set_0")
			var inputs []*ir.Tensor
			for i := range len(m.Graph.Inputs) {
				in, _, err := ReadTensorFile(filepath.Join(set, fmt.Sprintf("input_%d.pb", i)), ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, in)
			}
			want, _, err := ReadTensorFile(filepath.Join(set, "output_0.pb"), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := run(t, model, inputs...)
			if got.Type != want.Type || !slices.Equal(got.Shape, want.Shape) || string(got.Data) != string(want.Data) {
				t.Errorf("got %v, want %v", got, want)
			}
			if strings.Contains(path, "opset6") && strings.Contains(path, "bcast") {
				if ab, _ := model.LayerByName("z").DataAttr("auto_broadcast"); ab != "pdpd" {
					t.Errorf("the opset-6 broadcast did not take the legacy path: %s", ab)
				}
			}
		})
	}
}
