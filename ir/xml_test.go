package ir

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
)

// canonical prints a parsed tree: names as written, attributes in order,
// the text before the first child, then the children.
func canonical(e *element, b *strings.Builder) {
	fmt.Fprintf(b, "<%s", e.FullTag())
	for _, a := range e.Attr {
		fmt.Fprintf(b, " %s=%q", a.FullKey(), a.Value)
	}
	fmt.Fprintf(b, ">%q", e.Text())
	for c := range e.ChildElements() {
		canonical(c, b)
	}
	b.WriteString("</>")
}

// referenceTree reads data with encoding/xml, in strict mode, into the
// parser's tree form, checking what RawToken leaves to its caller: end
// tags that match their start tags, one root element.
func referenceTree(data []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var root *element
	var stack []*element
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			el := &element{Space: t.Name.Space, Tag: t.Name.Local}
			for _, a := range t.Attr {
				el.Attr = append(el.Attr, xmlAttr{a.Name.Space, a.Name.Local, a.Value})
			}
			switch {
			case len(stack) > 0 && stack[len(stack)-1].first == nil:
				parent := stack[len(stack)-1]
				parent.first, parent.last = el, el
			case len(stack) > 0:
				parent := stack[len(stack)-1]
				parent.last.next, parent.last = el, el
			case root != nil:
				return nil, fmt.Errorf("two roots")
			default:
				root = el
			}
			stack = append(stack, el)
		case xml.EndElement:
			if len(stack) == 0 || join(t.Name.Space, t.Name.Local) != stack[len(stack)-1].FullTag() {
				return nil, fmt.Errorf("mismatched end tag")
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1].first == nil {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil || len(stack) != 0 {
		return nil, fmt.Errorf("no root, or %d elements open", len(stack))
	}
	return root, nil
}

// FuzzXML checks the reader's XML parser against encoding/xml: whatever
// it accepts, encoding/xml accepts too (strict, with matching end tags and
// one root), and both read the same elements, attributes and text.
func FuzzXML(f *testing.F) {
	for _, s := range []string{
		legacyXML,
		`<?xml version="1.0" encoding="UTF-8"?><net a:b="1&amp;2" x='&#x41;&#66;'><!-- c --><l>t<![CDATA[<x>]]>u<m/>v</l></net>`,
		"<a>\r\n x\ry&lt;</a>", "<a:b:c d:e:f='1'/>", `<a><b></a></b>`, `<!DOCTYPE a><a/>`,
	} {
		f.Add([]byte(s))
	}
	for _, seed := range testutil.Corpus(f, "model.xml") {
		f.Add(seed.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := parseXML(string(data), ReadOptions{})
		if err != nil {
			return
		}
		ref, err := referenceTree(data)
		if err != nil {
			t.Fatalf("parseXML accepts what encoding/xml refuses (%v): %q", err, data)
		}
		var got, want strings.Builder
		canonical(root, &got)
		canonical(ref, &want)
		if got.String() != want.String() {
			t.Fatalf("trees differ for %q:\n got %s\nwant %s", data, got.String(), want.String())
		}
	})
}

// TestXMLReadsRealModels: every real model of the corpus parses to the
// tree encoding/xml reads.
func TestXMLReadsRealModels(t *testing.T) {
	for _, path := range testutil.SharedFiles(t, "ir-models/*/*.xml") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		root, err := parseXML(string(data), ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
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
