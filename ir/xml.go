package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/beevik/etree"
)

// The IR's XML is read and written with github.com/beevik/etree, the
// design card's choice. This file is the XML side of the package and
// knows nothing of IR: parseXML turns bytes into an etree tree within
// caps that its caller names, writeXML turns an etree document into the
// bytes of OpenVINO's serializer. read.go and write.go know IR; they walk
// the tree child by child, with no path queries, and read each element's
// attributes once.
//
// Caps. etree bounds the nesting itself (ReadSettings.MaxDepth). It has
// no cap on elements or attributes, so the node cap is enforced before
// etree builds anything, in one of two ways:
//
//   - a count (nodeBound): every element has a '<' of its own, not
//     followed by '/', and every attribute an '=', so counting them
//     bounds the nodes from above. When the bound is within the cap, as
//     for every real model at the default caps, etree parses the document
//     at once: one parse, after two byte scans that build nothing (this
//     count and checkChars).
//   - when the bound is over the cap, a bounded pre-scan (scanXML) with
//     encoding/xml's Decoder.RawToken, which keeps no tree and nothing
//     but the names of the open elements (at most the depth cap), counts
//     the nodes exactly and refuses the file at the node that breaks the
//     cap.
//
// Either way etree then builds at most the node cap of elements and
// attributes. The caps on elements of a name (<layer>, <port>, <edge>)
// are checked by counting them on the tree before the caller turns any
// of it into a model; the tree's size is already bounded by then.
//
// Positions. etree reports some malformed XML without a position
// (ErrXML for mismatched or unclosed tags, ErrMaxDepth), and its tree
// keeps none. A document etree refuses, or one that breaks a rule or a
// cap checked on the tree, is scanned by scanXML, which applies the same
// rules and caps and stops at the first fault with its line. That second
// pass is paid only for a file that is refused.

// xmlCaps are the caps parseXML enforces.
type xmlCaps struct {
	nodes int      // elements plus attributes
	depth int      // nesting of elements (the root is at depth 1)
	tags  []tagCap // elements of a given local name
}

// tagCap bounds the elements of one local name, whatever their prefix.
type tagCap struct {
	local string // the name, "layer"
	what  string // how messages name them, "layers"
	field string // the option that sets max, "MaxLayers"
	max   int
}

// xmlError is a fault of the XML text: malformed (syntax set; the reader
// words it as OpenVINO does) or over a cap, at a line of the text (0
// when unknown).
type xmlError struct {
	line   int
	syntax bool
	err    error
}

func (e *xmlError) Error() string { return e.err.Error() }
func (e *xmlError) Unwrap() error { return e.err }

func overCap(max int, what, field string) error {
	return errorf("%w: the XML has more than %d %s (ReadOptions.%s)", ErrLimit, max, what, field)
}

func tooDeep(max int) error {
	return errorf("%w: the XML is nested deeper than %d elements (ReadOptions.MaxDepth)", ErrLimit, max)
}

// parseXML parses an IR file's text with etree and returns its root
// element, having checked the caps of c.
func parseXML(data []byte, c xmlCaps) (*etree.Element, *xmlError) {
	if e := checkChars(data); e != nil {
		return nil, e
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if nodeBound(data) > c.nodes {
		if e := scanXML(data, c); e != nil {
			return nil, e
		}
	}
	doc := etree.NewDocument()
	doc.ReadSettings = etree.ReadSettings{
		// Strict XML (Permissive false), the five predefined entities and
		// character references only (Entity nil: a DTD's entities are never
		// expanded), UTF-8 only (etree would otherwise read any declared
		// encoding as UTF-8), CDATA read as text (PreserveCData false), no
		// second validating pass (ValidateInput false: scanXML is that pass,
		// when one is needed).
		CharsetReader: utf8Only,
		// OpenVINO's parser (pugixml) keeps the first of repeated
		// attributes; etree would keep the last value, so it keeps them
		// all and the reader takes the first.
		PreserveDuplicateAttrs: true,
		MaxDepth:               c.depth,
	}
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, locate(data, c, err)
	}
	root, err := documentRoot(doc)
	if err == nil {
		err = countTags(root, c.tags)
	}
	if err != nil {
		return nil, locate(data, c, err)
	}
	return root, nil
}

// nodeBound bounds the elements plus attributes of data from above: each
// element has a '<' not followed by '/' (end tags have one that is), each
// attribute an '='.
func nodeBound(data []byte) int {
	return bytes.Count(data, []byte("<")) - bytes.Count(data, []byte("</")) + bytes.Count(data, []byte("="))
}

func utf8Only(charset string, _ io.Reader) (io.Reader, error) {
	return nil, fmt.Errorf("encoding %q declared; IR files are UTF-8", charset)
}

// locate finds where a fault that etree or the checks of its tree found
// lies: scanXML applies the same rules and stops at the first.
func locate(data []byte, c xmlCaps, err error) *xmlError {
	if e := scanXML(data, c); e != nil {
		return e
	}
	// scanXML accepts what was refused (FuzzXML looks for such files):
	// report the refusal as it is.
	if errors.Is(err, etree.ErrMaxDepth) {
		return &xmlError{err: tooDeep(c.depth)}
	}
	line := 0
	if se, ok := errors.AsType[*xml.SyntaxError](err); ok {
		line = se.Line
	}
	return &xmlError{line: line, syntax: !errors.Is(err, ErrLimit), err: err}
}

// documentRoot returns the one root element of doc, which may have
// nothing else but white space, comments and processing instructions.
func documentRoot(doc *etree.Document) (*etree.Element, error) {
	var root *etree.Element
	for _, t := range doc.Child {
		switch t := t.(type) {
		case *etree.Element:
			if root != nil {
				return nil, errors.New("a second root element")
			}
			root = t
		case *etree.CharData:
			if !isSpace(t.Data) {
				return nil, errors.New("text outside the root element")
			}
		case *etree.Directive:
			return nil, errors.New(noDirective)
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

const noDirective = "DOCTYPE or a declaration outside the root element; IR files have none"

// isSpace reports whether s is XML white space only.
func isSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// countTags counts the elements under root (root included) named in
// caps, walking the tree without recursion.
func countTags(root *etree.Element, caps []tagCap) error {
	counts := make([]int, len(caps))
	stack := []*etree.Element{root}
	for len(stack) > 0 {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, tc := range caps {
			if el.Tag == tc.local {
				if counts[i]++; counts[i] > tc.max {
					return overCap(tc.max, tc.what, tc.field)
				}
			}
		}
		for _, t := range el.Child {
			if c, ok := t.(*etree.Element); ok {
				stack = append(stack, c)
			}
		}
	}
	return nil
}

// scanXML reads data with encoding/xml's RawToken, building nothing, and
// returns its first fault: what etree refuses (malformed XML, tags that
// do not match, nesting over c.depth), what documentRoot refuses, and
// every cap of c, at the element that breaks it.
func scanXML(data []byte, c xmlCaps) *xmlError {
	d := xml.NewDecoder(bytes.NewReader(data)) // strict; no CharsetReader: UTF-8 only
	fail := func(syntax bool, err error) *xmlError {
		line, _ := d.InputPos()
		return &xmlError{line: line, syntax: syntax, err: err}
	}
	var open []xml.Name // the open elements, at most c.depth
	nodes, root := 0, false
	counts := make([]int, len(c.tags))
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if se, ok := errors.AsType[*xml.SyntaxError](err); ok {
			return &xmlError{line: se.Line, syntax: true, err: errors.New(se.Msg)}
		}
		if err != nil {
			return fail(true, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 && root {
				return fail(true, errors.New("a second root element"))
			}
			root = true
			if len(open) == c.depth {
				return fail(false, tooDeep(c.depth))
			}
			open = append(open, t.Name)
			if nodes += 1 + len(t.Attr); nodes > c.nodes {
				return fail(false, overCap(c.nodes, "XML elements and attributes", "MaxNodes"))
			}
			for i, tc := range c.tags {
				if t.Name.Local == tc.local {
					if counts[i]++; counts[i] > tc.max {
						return fail(false, overCap(tc.max, tc.what, tc.field))
					}
				}
			}
		case xml.EndElement:
			if len(open) == 0 {
				return fail(true, fmt.Errorf("end tag </%s> outside the root element", fullName(t.Name)))
			}
			if top := open[len(open)-1]; top != t.Name {
				return fail(true, fmt.Errorf("element <%s> closed by </%s>", fullName(top), fullName(t.Name)))
			}
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) == 0 && !isSpace(string(t)) {
				return fail(true, errors.New("text outside the root element"))
			}
		case xml.Directive:
			if len(open) == 0 {
				return fail(true, errors.New(noDirective))
			}
		}
	}
	if len(open) > 0 {
		return fail(true, fmt.Errorf("unexpected EOF: element <%s> is not closed", fullName(open[len(open)-1])))
	}
	if !root {
		return fail(true, errors.New("no root element"))
	}
	return nil
}

func join(space, local string) string {
	if space == "" {
		return local
	}
	return space + ":" + local
}

func fullName(n xml.Name) string { return join(n.Space, n.Local) }

// checkChars refuses what XML 1.0 cannot hold anywhere in a document:
// invalid UTF-8, the controls other than tab, newline and carriage
// return, U+FFFE and U+FFFF. encoding/xml checks characters only at the
// end of a run of text, which for a run as long as the file comes after
// buffering all of it; this pass allocates nothing.
func checkChars(data []byte) *xmlError {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return charError(data, i, fmt.Errorf("illegal character code U+%04X at byte %d", c, i))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return charError(data, i, fmt.Errorf("invalid UTF-8 at byte %d", i))
		}
		if r == 0xFFFE || r == 0xFFFF {
			return charError(data, i, fmt.Errorf("illegal character code U+%04X at byte %d", r, i))
		}
		i += n
	}
	return nil
}

func charError(data []byte, offset int, err error) *xmlError {
	return &xmlError{line: 1 + bytes.Count(data[:offset], []byte("\n")), syntax: true, err: err}
}

// writeXML writes doc as OpenVINO's serializer lays IR out. etree indents
// it (IndentSettings: a tab a level, "\n" line ends, a final newline) and
// writes it with canonical escapes (WriteSettings: CanonicalText escapes
// &, < and > in text; CanonicalAttrVal &, <, " and tab, newline and
// carriage return in attribute values); serializerLayout then spells
// what etree has no setting for as the serializer does.
func writeXML(doc *etree.Document) []byte {
	doc.IndentWithSettings(&etree.IndentSettings{UseTabs: true})
	doc.WriteSettings = etree.WriteSettings{CanonicalText: true, CanonicalAttrVal: true}
	var b bytes.Buffer
	if _, err := doc.WriteTo(&b); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	return serializerLayout(b.Bytes())
}

// serializerLayout rewrites what etree writes (with the settings of
// writeXML) into the serializer's spelling: " />" for "/>" at the end of
// an empty element, "&gt;" for > and "&#9;", "&#10;", "&#13;" for the hex
// references of tab, newline and carriage return in attribute values, and
// a carriage return in text as it is. It tells markup from values from
// text by three states, which is exact for what etree writes here: a
// declaration, elements, attributes in double quotes and text, where <,
// & and " never appear unescaped in a value nor < and & in text, and no
// comment, CDATA or processing instruction other than the declaration.
func serializerLayout(in []byte) []byte {
	out := make([]byte, 0, len(in)+len(in)/32)
	const (
		text = iota
		markup
		value
	)
	state := text
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch state {
		case text:
			if c == '<' {
				state = markup
			} else if c == '&' && bytes.HasPrefix(in[i:], []byte("&#xD;")) {
				out = append(out, '\r')
				i += len("&#xD;") - 1
				continue
			}
		case markup:
			switch {
			case c == '"':
				state = value
			case c == '>':
				state = text
			case c == '/' && i+1 < len(in) && in[i+1] == '>':
				out = append(out, " />"...)
				i++
				state = text
				continue
			}
		case value:
			switch c {
			case '"':
				state = markup
			case '>':
				out = append(out, "&gt;"...)
				continue
			case '&':
				for _, ref := range [...][2]string{{"&#x9;", "&#9;"}, {"&#xA;", "&#10;"}, {"&#xD;", "&#13;"}} {
					if bytes.HasPrefix(in[i:], []byte(ref[0])) {
						out = append(out, ref[1]...)
						i += len(ref[0]) - 1
						c = 0
						break
					}
				}
				if c == 0 {
					continue
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// xmlName reports whether s is a name the reader accepts, so that the
// writer writes no other: encoding/xml's XML names (for ASCII: letters,
// '_' and ':' first, then digits, '-' and '.' as well; beyond ASCII,
// XML 1.0's tables, which encoding/xml itself applies to s), one colon at
// most.
func xmlName(s string) bool {
	colons := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			tok, err := xml.NewDecoder(strings.NewReader("<" + s + "/>")).RawToken()
			start, ok := tok.(xml.StartElement)
			return err == nil && ok && fullName(start.Name) == s && len(start.Attr) == 0
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		case c == ':':
			colons++
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != "" && colons <= 1
}
