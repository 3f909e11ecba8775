package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/beevik/etree"
	"github.com/irdiv/irdiv/internal/testutil"
)

// canonical prints a tree: names as written, attributes in order, the
// text before the first child, then the children.
func canonical(e *etree.Element, b *strings.Builder) {
	fmt.Fprintf(b, "<%s", e.FullTag())
	for _, a := range e.Attr {
		fmt.Fprintf(b, " %s=%q", a.FullKey(), a.Value)
	}
	fmt.Fprintf(b, ">%q", e.Text())
	for c := range e.ChildElementsSeq() {
		canonical(c, b)
	}
	b.WriteString("</>")
}

// referenceTree reads data with encoding/xml's Token, which checks that
// end tags match, into an etree tree of elements, attributes and the
// text before the first child (comments skipped, as etree's Text does).
func referenceTree(data []byte) (*etree.Element, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var root *etree.Element
	var stack []*etree.Element
	textDone := map[*etree.Element]bool{}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var top *etree.Element
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case xml.StartElement:
			el := &etree.Element{Space: t.Name.Space, Tag: t.Name.Local}
			for _, a := range t.Attr {
				el.Attr = append(el.Attr, etree.Attr{Space: a.Name.Space, Key: a.Name.Local, Value: a.Value})
			}
			if top != nil {
				top.AddChild(el)
				textDone[top] = true
			} else {
				root = el
			}
			stack = append(stack, el)
		case xml.EndElement:
			if top == nil || top.Space != t.Name.Space || top.Tag != t.Name.Local {
				return nil, errors.New("mismatched end tag")
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if top != nil && !textDone[top] {
				top.SetText(top.Text() + string(t))
			}
		case xml.ProcInst, xml.Directive:
			if top != nil {
				textDone[top] = true
			}
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, errors.New("no root, or elements left open")
	}
	return root, nil
}

// tightCaps are caps that the seeds' files break, to reach every cap.
var tightCaps = xmlCaps{nodes: 40, depth: 4, tags: []tagCap{
	{"layer", "layers", "MaxLayers", 2}, {"port", "ports", "MaxPorts", 3}, {"edge", "edges", "MaxEdges", 1}}}

// FuzzXML checks parseXML (etree, after the node bound or the pre-scan)
// against scanXML (the pre-scan alone) at the default caps and at tight
// ones: both accept the same files, and refuse the others with the same
// error at the same line. What they accept, encoding/xml reads as the
// same tree as etree.
func FuzzXML(f *testing.F) {
	for _, s := range []string{
		legacyXML,
		`<?xml version="1.0" encoding="UTF-8"?><net a:b="1&amp;2" x='&#x41;&#66;'><!-- c --><l>t<![CDATA[<x>]]>u<m/>v</l></net>`,
		"<a>\r\n x\ry&lt;</a>", "<a:b:c d:e:f='1'/>", `<a><b></a></b>`, `<!DOCTYPE a><a/>`, "\uFEFF<a/>",
		`<a b="1" b="2"/>`, `<1a/>`, `<a€/>`, `<a>x<?p?>y</a>`, `<?xml version="1.0" encoding="latin1"?><a/>`,
	} {
		f.Add([]byte(s))
	}
	for _, seed := range testutil.Corpus(f, "model.xml") {
		f.Add(seed.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, caps := range []xmlCaps{ReadOptions{}.xmlCaps(), tightCaps} {
			root, err := parseXML(data, caps)
			scanErr := scanXML(bytes.TrimPrefix(data, []byte("\uFEFF")), caps)
			if charErr := checkChars(data); charErr != nil {
				scanErr = charErr
			}
			if (err == nil) != (scanErr == nil) || err != nil && (err.line != scanErr.line || err.Error() != scanErr.Error() || err.syntax != scanErr.syntax) {
				t.Fatalf("parseXML: %v; scanXML: %v (caps %+v)", err, scanErr, caps)
			}
			if err != nil {
				continue
			}
			ref, refErr := referenceTree(bytes.TrimPrefix(data, []byte("\uFEFF")))
			if refErr != nil {
				t.Fatalf("parseXML accepts what encoding/xml refuses (%v): %q", refErr, data)
			}
			var got, want strings.Builder
			canonical(root, &got)
			canonical(ref, &want)
			if got.String() != want.String() {
				t.Fatalf("trees differ for %q:\n got %s\nwant %s", data, got.String(), want.String())
			}
		}
	})
}

// TestXMLReadsRealModels: every real model of the corpus is within the
// node bound at the default caps, so that etree reads it in one pass, and
// etree and encoding/xml read the same tree.
func TestXMLReadsRealModels(t *testing.T) {
	caps := ReadOptions{}.xmlCaps()
	for _, path := range testutil.SharedFiles(t, "ir-models/*/*.xml") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := nodeBound(data); n > caps.nodes/8 {
			t.Errorf("%s: node bound %d is more than an eighth of the default cap", path, n)
		}
		root, xerr := parseXML(data, caps)
		if xerr != nil {
			t.Errorf("%s: %v", path, xerr)
			continue
		}
		ref, err := referenceTree(data)
		if err != nil {
			t.Fatalf("%s: encoding/xml: %v", path, err)
		}
		var got, want strings.Builder
		canonical(root, &got)
		canonical(ref, &want)
		if got.String() != want.String() {
			t.Errorf("%s: the trees differ", path)
		}
	}
}

// TestParseErrorLine: malformed XML, a name XML does not allow and an
// element over a cap are reported with their line, as a field of
// ParseError and in its message, and the error unwraps to its class.
func TestParseErrorLine(t *testing.T) {
	lines := strings.Split(legacyXML, "\n")
	lineOf := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("fixture lacks %q", s)
		return 0
	}
	for _, tc := range []struct {
		name, old, new string
		opts           ReadOptions
		line           int
		want           string
		class          error
	}{
		{"mismatched tag", "</layers>", "</layer>", ReadOptions{}, lineOf("</layers>"), "element <layers> closed by </layer>", ErrFormat},
		{"bad entity", `name="two"`, `name="&two;"`, ReadOptions{}, lineOf(`name="two"`), "invalid character entity &two;", ErrFormat},
		{"control character", `name="div"`, "name=\"d\x01\"", ReadOptions{}, lineOf(`name="div"`), "illegal character code U+0001 at byte", ErrFormat},
		{"not a name", `<MO_version`, `<1MO_version`, ReadOptions{}, lineOf("<MO_version"), `1MO_version`, ErrFormat},
		{"second root", "</net>\n", "</net>\n<net/>\n", ReadOptions{}, len(lines), "a second root element", ErrFormat},
		{"doctype", `<?xml version="1.0" ?>`, `<?xml version="1.0" ?><!DOCTYPE net>`, ReadOptions{}, 1, "DOCTYPE", ErrFormat},
		{"encoding", `<?xml version="1.0" ?>`, `<?xml version="1.0" encoding="latin1"?>`, ReadOptions{}, 1, `encoding "latin1" declared`, ErrFormat},
		{"unclosed", "</net>\n", "", ReadOptions{}, len(lines) - 1, "unexpected EOF", ErrFormat},
		{"layers", "", "", ReadOptions{MaxLayers: 3}, lineOf(`<layer id="3"`), "ReadOptions.MaxLayers", ErrLimit},
		{"edges", "", "", ReadOptions{MaxEdges: 1}, lineOf(`<edge from-layer="1"`), "ReadOptions.MaxEdges", ErrLimit},
		{"depth", "", "", ReadOptions{MaxDepth: 5}, lineOf("<port id=\"0\" precision=\"I64\"><dim>"), "ReadOptions.MaxDepth", ErrLimit},
		{"nodes", "", "", ReadOptions{MaxNodes: 10}, lineOf(`<data element_type="i64"`), "ReadOptions.MaxNodes", ErrLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := legacyXML
			if tc.old != "" {
				x = strings.Replace(x, tc.old, tc.new, 1)
			}
			_, err := ReadBytes([]byte(x), int64Bytes(2), tc.opts)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || pe.File != "<memory>" || !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.want) ||
				!strings.HasPrefix(err.Error(), fmt.Sprintf("ir: <memory>:%d: ", tc.line)) {
				t.Errorf("error %v (line %d); want line %d, %q, %v", err, lineOf0(pe), tc.line, tc.want, tc.class)
			}
		})
	}
	// Errors that are not about one place in the text have no line.
	x := strings.Replace(legacyXML, `name="div" type="Divide" version="opset1"`, `name="div" type="Divide"`, 1)
	_, err := ReadBytes([]byte(x), int64Bytes(2), ReadOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 0 || !strings.HasPrefix(err.Error(), "ir: <memory>: ") {
		t.Errorf("a layer's missing attribute: %v", err)
	}
}

func lineOf0(pe *ParseError) int {
	if pe == nil {
		return -1
	}
	return pe.Line
}

// TestWrittenNamesRead: the writer refuses the names the reader refuses,
// and a non-ASCII name both accept round-trips.
func TestWrittenNamesRead(t *testing.T) {
	for _, name := range []string{"1a", "-a", "a b", "a:b:c", "a/", "a€", ""} {
		m := buildDivideModel(t)
		m.LayerByName("div").Data = append(m.LayerByName("div").Data, Attr{name, "1"})
		if _, _, err := Encode(m); err == nil || !errors.Is(err, ErrFormat) {
			t.Errorf("Encode with attribute %q: %v", name, err)
		}
		x := strings.Replace(legacyXML, "<cli_parameters>", "<cli_parameters><"+name+"/>", 1)
		if _, err := ReadBytes([]byte(x), int64Bytes(2), ReadOptions{}); err == nil || !errors.Is(err, ErrFormat) {
			t.Errorf("reading element %q: %v", name, err)
		}
	}
	m := buildDivideModel(t)
	m.LayerByName("div").Data = append(m.LayerByName("div").Data, Attr{"größe", "1"})
	roundTrip(t, m)
}
