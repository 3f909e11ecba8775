package ir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
)

// sharedModels returns the .xml files of ../shared/ir-models (including the
// XML-only ones when withXMLOnly), skipping the test when they are absent.
func sharedModels(t testing.TB, withXMLOnly bool) []string {
	t.Helper()
	files := testutil.SharedFiles(t, "ir-models/*/*.xml")
	if withXMLOnly {
		more, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(files[0]))), "_xml_only_bin_unavailable/*/*.xml"))
		files = append(files, more...)
	}
	return files
}

func TestReadSharedModels(t *testing.T) {
	for _, f := range sharedModels(t, true) {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			m, err := ReadFile(f, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Layers) == 0 || len(m.Results()) == 0 {
				t.Fatalf("read %d layers, %d results", len(m.Layers), len(m.Results()))
			}
			xmlOnly := strings.Contains(f, "_xml_only_")
			if m.WeightsMissing != xmlOnly {
				t.Errorf("WeightsMissing = %v for %s", m.WeightsMissing, f)
			}
			if xmlOnly {
				return
			}
			// Every Const's value is the bytes its offset names in the .bin,
			// as many as its type and shape need, read here independently.
			bin, err := os.ReadFile(strings.TrimSuffix(f, ".xml") + ".bin")
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err) // a model without Consts may come without a .bin
			}
			consts := 0
			for _, l := range m.Layers {
				if l.Type != "Const" || l.Constant == nil {
					continue
				}
				consts++
				offsetText, _ := l.DataAttr("offset")
				offset, _ := strconv.Atoi(offsetText)
				need := (l.Constant.Len()*l.Constant.Type.Bits() + 7) / 8
				if !bytes.Equal(l.Constant.Data, bin[offset:offset+need]) {
					t.Errorf("%s: value %d bytes at %d differs from the .bin", l, need, offset)
				}
			}
			if consts == 0 && len(bin) > 0 {
				t.Error("no Const value read from a non-empty .bin")
			}
			roundTrip(t, m)
		})
	}
}

// TestSharedModelFacts checks what INDEX.md says of particular real files.
func TestSharedModelFacts(t *testing.T) {
	dir := filepath.Dir(filepath.Dir(sharedModels(t, false)[0])) + "/"
	m, err := ReadFile(dir+"div_sisr1033_mo2021_2_v10/single-image-super-resolution-1033.xml", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var div *Layer
	for _, l := range m.Layers {
		if l.Type == "Divide" {
			div = l
		}
	}
	if div == nil || len(div.Data) != 0 {
		t.Fatalf("sisr1033: Divide without <data> not found: %+v", div)
	}
	// Legacy MO: no precision on input ports; the type comes from the producer.
	if div.Inputs[0].Precision != "" || div.Inputs[0].Type != I64 || div.Inputs[1].Type != I64 {
		t.Errorf("sisr1033 Divide inputs: %+v %+v", div.Inputs[0], div.Inputs[1])
	}
	b, ok := m.Input(div, 1)
	if !ok || b.Layer.Type != "Const" || b.Port().ID != 1 || View[int64](b.Layer.Constant)[0] != 9 {
		t.Errorf("sisr1033 divisor: %+v", b)
	}
	if m.Framework() != "onnx" || !strings.HasPrefix(m.Producer(), "2021.2.0") {
		t.Errorf("sisr1033 metadata: framework %q producer %q", m.Framework(), m.Producer())
	}

	m, err = ReadFile(dir+"div_unet44_mo2021_4_v10/unet44.xml", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := m.Parameters()[0].DataAttr("shape"); s != "1, 1, 512, 512" {
		t.Errorf("unet44 Parameter shape = %q", s)
	}

	m, err = ReadFile(dir+"any_npu_bounded_dims_shapeof_v11/shape_of.xml", ReadOptions{})
	if err != nil || m.WeightsMissing {
		t.Fatalf("shape_of without .bin: %v, missing=%v", err, m.WeightsMissing)
	}
	m, err = ReadFile(dir+"any_ov_loop_2d_add_v10/loop_2d_add.xml", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var bodies int
	for _, l := range m.Layers {
		for _, x := range l.Extra {
			if x.Body != nil {
				bodies++
				if len(x.Body.Layers) == 0 {
					t.Error("empty Loop body")
				}
			}
		}
	}
	if bodies != 1 {
		t.Errorf("loop_2d_add: %d bodies", bodies)
	}
}

// roundTrip encodes m, reads it back, and checks the two models are equal;
// encoding the copy must give the same bytes.
func roundTrip(t *testing.T, m *Model) {
	t.Helper()
	x, b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := ReadBytes(x, b, ReadOptions{})
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	equalModels(t, m, m2)
	x2, b2, err := Encode(m2)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(x2) || string(b) != string(b2) {
		t.Error("encoding is not stable across a round trip")
	}
}

func equalModels(t *testing.T, a, b *Model) {
	t.Helper()
	if a.Name != b.Name || max(a.Version, 11) != max(b.Version, 11) && a.Version != b.Version || len(a.Layers) != len(b.Layers) {
		t.Fatalf("model header differs: %q v%d %d layers, %q v%d %d layers", a.Name, a.Version, len(a.Layers), b.Name, b.Version, len(b.Layers))
	}
	for i, la := range a.Layers {
		lb := b.Layers[i]
		if la.ID != lb.ID || la.Name != lb.Name || la.Type != lb.Type || la.Version != lb.Version || !reflect.DeepEqual(la.Attrs, lb.Attrs) {
			t.Fatalf("layer %d differs: %v vs %v", i, la, lb)
		}
		if !reflect.DeepEqual(dataSet(la), dataSet(lb)) {
			t.Errorf("%s: data %v vs %v", la, la.Data, lb.Data)
		}
		if !reflect.DeepEqual(la.RTInfo, lb.RTInfo) {
			t.Errorf("%s: rt_info differs", la)
		}
		for _, pair := range [][2][]*Port{{la.Inputs, lb.Inputs}, {la.Outputs, lb.Outputs}} {
			if len(pair[0]) != len(pair[1]) {
				t.Fatalf("%s: port count differs", la)
			}
			for j, pa := range pair[0] {
				pb := pair[1][j]
				if pa.ID != pb.ID || pa.Type != pb.Type || !slices.Equal(pa.Dims, pb.Dims) || !slices.Equal(pa.Names, pb.Names) || !reflect.DeepEqual(pa.RTInfo, pb.RTInfo) {
					t.Errorf("%s: port %d differs: %+v vs %+v", la, j, pa, pb)
				}
			}
		}
		if (la.Constant == nil) != (lb.Constant == nil) || la.Constant != nil && (la.Constant.Type != lb.Constant.Type || !slices.Equal(la.Constant.Shape, lb.Constant.Shape) || string(la.Constant.Data) != string(lb.Constant.Data)) {
			t.Errorf("%s: value differs", la)
		}
		if len(la.Extra) != len(lb.Extra) {
			t.Fatalf("%s: extra children differ", la)
		}
		for j := range la.Extra {
			if la.Extra[j].Body != nil {
				equalModels(t, la.Extra[j].Body, lb.Extra[j].Body)
			} else if !reflect.DeepEqual(la.Extra[j].Node, lb.Extra[j].Node) {
				t.Errorf("%s: extra %d differs", la, j)
			}
		}
	}
	ea, eb := slices.Clone(a.Edges), slices.Clone(b.Edges)
	less := func(x, y Edge) int {
		return slices.Compare([]uint64{x.FromLayer, x.FromPort, x.ToLayer, x.ToPort}, []uint64{y.FromLayer, y.FromPort, y.ToLayer, y.ToPort})
	}
	slices.SortFunc(ea, less)
	slices.SortFunc(eb, less)
	if !slices.Equal(ea, eb) {
		t.Error("edges differ")
	}
	if !reflect.DeepEqual(a.Meta, b.Meta) && !(len(a.Meta) == 0 && len(b.Meta) == 1 && b.Meta[0].Tag == "rt_info") {
		t.Error("metadata differs")
	}
}

// dataSet returns the <data> attributes in a canonical order, without a
// Const's offset and size, which repacking changes.
func dataSet(l *Layer) []Attr {
	var out []Attr
	for _, a := range l.Data {
		if l.Type == "Const" && (a.Name == "offset" || a.Name == "size") {
			continue
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(x, y Attr) int { return strings.Compare(x.Name, y.Name) })
	return out
}

// legacyXML exercises the quirks of MO/POT output (divide-spec.md G.6):
// input ports without precision, a scalar without <dim>, a Const with output
// port id 1 and attributes in alphabetical order, a shape with spaces, a
// Divide without <data>, <meta_data>, MO's XML declaration.
const legacyXML = `<?xml version="1.0" ?>
<net name="legacy" version="10">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data element_type="i64" shape="1, 2"/>
			<output>
				<port id="0" precision="I64"><dim>1</dim><dim>2</dim></port>
			</output>
		</layer>
		<layer id="1" name="two" type="Const" version="opset1">
			<data offset="0" size="8" shape="" element_type="i64"/>
			<output>
				<port id="1" precision="I64"/>
			</output>
		</layer>
		<layer id="2" name="div" type="Divide" version="opset1">
			<input>
				<port id="0"><dim>1</dim><dim>2</dim></port>
				<port id="1"/>
			</input>
			<output>
				<port id="2" precision="I64"><dim>1</dim><dim>2</dim></port>
			</output>
		</layer>
		<layer id="3" name="out" type="Result" version="opset1">
			<input>
				<port id="0"><dim>1</dim><dim>2</dim></port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
		<edge from-layer="1" from-port="1" to-layer="2" to-port="1"/>
		<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
	</edges>
	<meta_data>
		<MO_version value="2021.2.0-1867-8f507a07f5f-releases/2021/2"/>
		<cli_parameters>
			<framework value="onnx"/>
		</cli_parameters>
	</meta_data>
</net>
`

func int64Bytes(vals ...int64) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

func TestReadLegacyQuirks(t *testing.T) {
	m, err := ReadBytes([]byte(legacyXML), int64Bytes(2), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	div := m.LayerByID(2)
	if div.Inputs[0].Type != I64 || div.Inputs[1].Type != I64 || len(div.Inputs[1].Dims) != 0 {
		t.Errorf("input types not resolved from producers: %+v %+v", div.Inputs[0], div.Inputs[1])
	}
	c := m.LayerByID(1)
	if c.Constant == nil || c.Constant.Type != I64 || len(c.Constant.Shape) != 0 || View[int64](c.Constant)[0] != 2 {
		t.Errorf("Const value = %+v", c.Constant)
	}
	if m.Framework() != "onnx" || m.Producer() != "2021.2.0-1867-8f507a07f5f-releases/2021/2" {
		t.Errorf("meta_data: framework %q producer %q", m.Framework(), m.Producer())
	}
	order, err := m.TopoOrder()
	if err != nil || order[len(order)-1].Name != "out" {
		t.Errorf("TopoOrder = %v, %v", order, err)
	}
	roundTrip(t, m)
}

func TestReadLegacyConstWithoutType(t *testing.T) {
	xml := strings.Replace(legacyXML, `<data offset="0" size="8" shape="" element_type="i64"/>`, `<data offset="0" size="8"/>`, 1)
	m, err := ReadBytes([]byte(xml), int64Bytes(7), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v := m.LayerByID(1).Constant; v == nil || View[int64](v)[0] != 7 || len(m.Warnings) != 2 {
		t.Errorf("legacy Const: value %+v, warnings %q", v, m.Warnings)
	}
}

func TestReadErrors(t *testing.T) {
	weights := int64Bytes(2)
	for _, tc := range []struct {
		name, old, new string
		weights        []byte
		want           string
		class          error
	}{
		{"short bin", "", "", []byte{1, 2, 3}, "Incorrect weights in bin file!", ErrWeights},
		{"offset overflow", `offset="0"`, `offset="18446744073709551615"`, weights, "Incorrect weights in bin file!", ErrWeights},
		{"size overflow", `size="8"`, `size="18446744073709551615"`, weights, "Incorrect weights in bin file!", ErrWeights},
		{"size too small", `size="8"`, `size="4"`, weights, "Attribute and shape size are inconsistent for Const op!", ErrWeights},
		{"huge shape", `shape="" element_type="i64"`, `shape="4294967296,4294967296,16" element_type="i64"`, weights, "Attribute and shape size are inconsistent for Const op!", ErrWeights},
		{"empty bin", "", "", []byte{}, "Empty weights data in bin file or bin file cannot be found!", ErrWeights},
		{"bad element_type", `element_type="i64"/>`, `element_type="FP32"/>`, weights, `"FP32" is not a member of enum element::Type_t`, ErrFormat},
		{"bad precision", `precision="I64"/>`, `precision="INT64"/>`, weights, "Incorrect type: INT64", ErrFormat},
		{"dim below -1", `<port id="2" precision="I64"><dim>1</dim>`, `<port id="2" precision="I64"><dim>-2</dim>`, weights, "dimension (-2) in node dim must be greater or equal to -1", ErrFormat},
		{"missing version", `name="div" type="Divide" version="opset1"`, `name="div" type="Divide"`, weights, "node <layer> is missing mandatory attribute: version", ErrFormat},
		{"bad to-port", `to-layer="3" to-port="0"`, `to-layer="3" to-port="x"`, weights, `node <edge> has attribute "to-port" = "x" which is not an unsigned 64 bit integer`, ErrFormat},
		{"missing offset", `offset="0" `, ``, weights, "node <data> is missing mandatory attribute: offset", ErrFormat},
		{"dangling edge", `from-layer="2" from-port="2" to-layer="3"`, `from-layer="2" from-port="2" to-layer="9"`, weights, "Attempt to access node 9 that not in graph.", ErrGraph},
		{"bad output port", `from-layer="1" from-port="1"`, `from-layer="1" from-port="0"`, weights, "Can not find output port with id 0 in layer two", ErrGraph},
		{"bad input port", `to-layer="3" to-port="0"`, `to-layer="3" to-port="10"`, weights, "Can not find input port with id 10 in layer out", ErrGraph},
		{"duplicate id", `id="3" name="out"`, `id="2" name="out"`, weights, "share an id", ErrGraph},
		{"cycle", `<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>`, `<edge from-layer="2" from-port="2" to-layer="2" to-port="0"/>`, weights, "cycle through", ErrGraph},
		{"two edges into one port", `<edge from-layer="1" from-port="1" to-layer="2" to-port="1"/>`, `<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>`, weights, "is inconsistent!", ErrGraph},
		{"not a net", `<net name="legacy" version="10">`, `<model name="legacy" version="10">`, weights, "Unable to read the model", ErrFormat},
		{"version 9", `version="10">`, `version="9">`, weights, "Unable to read the model", ErrFormat},
		{"syntax", `</layers>`, `</layer>`, weights, "Unable to read the model", ErrFormat},
		{"output port without precision", `<port id="2" precision="I64">`, `<port id="2">`, weights, "output port 2 has no precision", ErrFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xml := legacyXML
			if tc.old != "" {
				if !strings.Contains(xml, tc.old) {
					t.Fatalf("fixture lacks %q", tc.old)
				}
				xml = strings.Replace(xml, tc.old, tc.new, 1)
				if tc.name == "missing offset" {
					xml = strings.Replace(xml, `<data offset="0" size="8"`, `<data size="8"`, 1)
				}
			}
			_, err := ReadBytes([]byte(xml), tc.weights, ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.class) {
				t.Fatalf("error = %v; want %q (%v)", err, tc.want, tc.class)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "<memory>" {
				t.Errorf("error is not a *ParseError naming the file: %#v", err)
			}
		})
	}
}

func TestReadWeightsFiles(t *testing.T) {
	dir := t.TempDir()
	xmlPath := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(xmlPath, []byte(legacyXML), 0o644); err != nil {
		t.Fatal(err)
	}
	// No .bin next to the .xml: the model loads, without Const values.
	m, err := ReadFile(xmlPath, ReadOptions{})
	if err != nil || !m.WeightsMissing || m.LayerByID(1).Constant != nil {
		t.Fatalf("without .bin: %v, WeightsMissing=%v", err, m.WeightsMissing)
	}
	// An explicit weights path that does not exist is an error.
	_, err = ReadFile(xmlPath, ReadOptions{WeightsPath: filepath.Join(dir, "nope.bin")})
	if err == nil || !strings.Contains(err.Error(), "Weights file "+filepath.Join(dir, "nope.bin")+" cannot be opened!") {
		t.Errorf("missing explicit weights: %v", err)
	}
	// The default .bin is found and read.
	if err := os.WriteFile(filepath.Join(dir, "m.bin"), int64Bytes(5), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = ReadFile(xmlPath, ReadOptions{})
	if err != nil || View[int64](m.LayerByID(1).Constant)[0] != 5 {
		t.Fatalf("with .bin: %v", err)
	}
	// A size limit on the XML is honoured.
	if _, err := ReadFile(xmlPath, ReadOptions{MaxXMLBytes: 100}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxXMLBytes not enforced: %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	xml := strings.Replace(legacyXML, `<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>`, ``, 1)
	m, err := ReadBytes([]byte(xml), int64Bytes(2), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range m.Unreachable() {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, []string{"x", "two", "div"}) {
		t.Errorf("Unreachable = %v", names)
	}
}

func TestElementTypes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ElementType
		err  bool
	}{
		{in: "f32", want: F32}, {in: "F32", want: F32}, {in: "undefined", want: Dynamic}, {in: "boolean", want: Boolean},
		{in: "bf16", want: BF16}, {in: "u1", want: U1}, {in: "f8e4m3", want: F8E4M3}, {in: "FP32", err: true}, {in: "float", err: true},
	} {
		got, err := ParseElementType(tc.in)
		if (err != nil) != tc.err || !tc.err && got != tc.want {
			t.Errorf("ParseElementType(%q) = %v, %v", tc.in, got, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want ElementType
		err  bool
	}{
		{in: "FP32", want: F32}, {in: "f32", want: F32}, {in: "BOOL", want: Boolean}, {in: "boolean", want: Boolean},
		{in: "BIN", want: U1}, {in: "bin", want: U1}, {in: "U1", want: U1}, {in: "UNSPECIFIED", want: Dynamic},
		{in: "dynamic", want: Dynamic}, {in: "fp32", err: true}, {in: "Fp32", err: true},
	} {
		got, err := ParsePrecision(tc.in)
		if (err != nil) != tc.err || !tc.err && got != tc.want {
			t.Errorf("ParsePrecision(%q) = %v, %v", tc.in, got, err)
		}
	}
	for typ := range numElementTypes {
		if got, err := ParsePrecision(typ.Precision()); err != nil || got != typ {
			t.Errorf("precision %s does not read back: %v %v", typ.Precision(), got, err)
		}
	}
	if F16.Size() != 2 || U1.Bits() != 1 || U4.Size() != 1 || I64.Size() != 8 || !I8.IsSigned() || U8.IsSigned() || !BF16.IsFloat() || Boolean.IsNumeric() {
		t.Error("element type properties are wrong")
	}
}

// TestLookupsFollowDirectEdits: look-ups see every edit of the exported
// fields, also those that keep the number of layers and edges.
func TestLookupsFollowDirectEdits(t *testing.T) {
	m, err := ReadBytes([]byte(legacyXML), int64Bytes(2), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.LayerByID(9) != nil {
		t.Fatal("layer 9 exists")
	}
	m.Layers = append(m.Layers, &Layer{ID: 9, Name: "extra", Type: "Result", Version: "opset1", Inputs: []*Port{{ID: 0}}})
	m.Edges = append(m.Edges, Edge{FromLayer: 2, FromPort: 2, ToLayer: 9, ToPort: 0})
	if l := m.LayerByID(9); l == nil || l.Name != "extra" {
		t.Errorf("LayerByID after a direct append = %v", l)
	}
	if src, ok := m.Input(m.LayerByID(9), 0); !ok || src.Layer.Name != "div" {
		t.Errorf("Input after a direct append = %v, %v", src, ok)
	}
	// Edits that keep the counts: an edge rewired in place, a layer
	// renumbered with its edges.
	m.Edges[len(m.Edges)-1].FromLayer, m.Edges[len(m.Edges)-1].FromPort = 0, 0
	if src, ok := m.Input(m.LayerByID(9), 0); !ok || src.Layer.Name != "x" {
		t.Errorf("Input after rewiring an edge = %v, %v", src, ok)
	}
	if src := m.Sources()[m.LayerByID(9)]; len(src) != 1 || src[0].Layer.Name != "x" {
		t.Errorf("Sources after rewiring an edge = %v", src)
	}
	m.LayerByID(9).ID = 10
	m.Edges[len(m.Edges)-1].ToLayer = 10
	if l := m.LayerByID(10); l == nil || l.Name != "extra" || m.LayerByID(9) != nil {
		t.Errorf("LayerByID after renumbering = %v", l)
	}
	if l := m.LayerByName("extra"); l == nil || l.ID != 10 || m.LayerByName("nope") != nil {
		t.Errorf("LayerByName = %v", l)
	}
	if err := m.Check(); err != nil {
		t.Errorf("Check after the edits: %v", err)
	}
}
