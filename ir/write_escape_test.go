package ir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/shapeinfer"
)

// trickyModel has what the layout of OpenVINO's serializer spells in
// particular ways: every character attribute values and text escape or
// keep, prefixed and non-ASCII names, nodes with text, with children,
// with both (the text is not written) and with neither, port rt_info,
// tensor names with commas, metadata and a Loop body.
func trickyModel(t testing.TB) *Model {
	m := buildDivideModel(t)
	m.Name = `a"b'c<d>e&f	g` + "\nh\ri é€ 😀"
	div := m.LayerByName("div")
	div.Attrs = append(div.Attrs, Attr{"x:y", `q"'<>&` + "\t\n\r"}, Attr{"名前", "値"})
	div.Data = append(div.Data, Attr{"extra", "a/>b"}, Attr{"slash", "/"})
	div.RTInfo = &Node{Tag: "rt_info", Children: []*Node{
		{Tag: "attribute", Attrs: []Attr{{"name", "fused_names"}, {"version", "0"}, {"value", "a,b;c=d"}}},
		{Tag: "text", Text: `x < y & z > w "q" 'a'` + "\t\r\n"},
		{Tag: "both", Text: "dropped", Children: []*Node{{Tag: "c"}}},
		{Tag: "ns:empty"},
		{Tag: "spaces", Text: "  "},
	}}
	div.Outputs[0].RTInfo = &Node{Tag: "rt_info", Children: []*Node{{Tag: "attribute", Attrs: []Attr{{"name", "layout"}, {"layout", "[N,C]"}}}}}
	div.Outputs[0].Names = []string{"q", "a,b", `c\d`, ""}
	div.Extra = append(div.Extra, Extra{Node: &Node{Tag: "port_map", Children: []*Node{{Tag: "input", Attrs: []Attr{{"external_port_id", "0"}, {"internal_layer_id", "0"}}}}}})
	body := &Model{Version: 11}
	p := body.AddParameter("bp", I32, shapeinfer.StaticShape(3))
	body.AddResult("br", Output{p, 0})
	div.Extra = append(div.Extra, Extra{Node: &Node{Tag: "body"}, Body: body})
	m.Meta = append(m.Meta, &Node{Tag: "meta_data", Children: []*Node{{Tag: "MO_version", Attrs: []Attr{{"value", "2021.2.0-1867/releases/2021/2"}}}}})
	return m
}

// TestEncodeEscapesGolden: the bytes of trickyModel are those of
// testdata/escapes.xml, written by the writer before it used etree.
func TestEncodeEscapesGolden(t *testing.T) {
	x, _, err := Encode(trickyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "escapes.xml")
	if *update {
		if err := os.WriteFile(golden, x, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(want) {
		t.Errorf("Encode differs from %s:\n%s", golden, x)
	}
}
