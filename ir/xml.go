package ir

import (
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The reader parses IR files with the small XML parser below rather than a
// general one: IR is plain XML (elements, attributes, text, comments), and
// a parser that keeps every name and value as a slice of the file's text
// and every element in a few large blocks reads a 10^5-layer model several
// times faster, with a fraction of the allocations, than encoding/xml and
// a DOM on top of it. It checks the caps of ReadOptions as it goes, so
// that a file that breaks one is refused having built no more than the
// cap allows. It accepts a subset of what encoding/xml accepts (FuzzXML
// checks that, and that both read the same tree): one root element, names
// in ASCII, no DOCTYPE (so no entity of a DTD can be expanded), UTF-8
// only.

// element is an XML element: its name split at the first colon as
// encoding/xml splits it, its attributes in file order (repeated ones
// kept), its child elements, and the text before its first child.
type element struct {
	Space, Tag  string
	Attr        []xmlAttr
	first, last *element
	next        *element
	text        string
}

// xmlAttr is one attribute of an element.
type xmlAttr struct {
	Space, Key, Value string
}

// FullKey is the attribute's name as written, prefix included.
func (a xmlAttr) FullKey() string { return join(a.Space, a.Key) }

// FullTag is the element's name as written, prefix included.
func (e *element) FullTag() string { return join(e.Space, e.Tag) }

// Text is the character data before the first child element.
func (e *element) Text() string { return e.text }

// ChildElements yields the child elements in file order.
func (e *element) ChildElements() iter.Seq[*element] {
	return func(yield func(*element) bool) {
		for c := e.first; c != nil && yield(c); c = c.next {
		}
	}
}

func join(space, local string) string {
	if space == "" {
		return local
	}
	return space + ":" + local
}

// syntaxError is malformed XML; decode words it as OpenVINO does.
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return e.err.Error() }

// xmlParser holds the state of one parse.
type xmlParser struct {
	s        string
	pos      int
	opts     ReadOptions
	maxDepth int
	elements []element // the current block of elements
	attrs    []xmlAttr // the current block of attributes
	scratch  []xmlAttr
	// text gathers the character data of textOwner when it comes in
	// pieces (split by comments or CDATA), so that joining them costs
	// their length, not its square.
	text      strings.Builder
	textOwner *element
	nodes     int
	layers    int
	ports     int
	edges     int
	maxNodes  int
	maxLayers int
	maxPorts  int
	maxEdges  int
}

const blockSize = 1024

// parseXML parses an IR file's text and returns its root element.
func parseXML(s string, o ReadOptions) (*element, error) {
	if err := checkChars(s); err != nil {
		return nil, err
	}
	p := &xmlParser{s: s, opts: o, maxDepth: orDefault(o.MaxDepth, DefaultMaxDepth),
		maxNodes: orDefault(o.MaxNodes, DefaultMaxNodes), maxLayers: orDefault(o.MaxLayers, DefaultMaxLayers),
		maxPorts: orDefault(o.MaxPorts, DefaultMaxPorts), maxEdges: orDefault(o.MaxEdges, DefaultMaxEdges)}
	p.s = strings.TrimPrefix(p.s, "\uFEFF")
	root, err := p.document()
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			line := 1 + strings.Count(p.s[:min(p.pos, len(p.s))], "\n")
			return nil, &syntaxError{fmt.Errorf("XML syntax error on line %d: %v", line, se.err)}
		}
		return nil, err
	}
	return root, nil
}

// checkChars refuses what XML 1.0 cannot hold anywhere in a document:
// invalid UTF-8, the controls other than tab, newline and carriage
// return, U+FFFE and U+FFFF.
func checkChars(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return &syntaxError{fmt.Errorf("illegal character code U+%04X at byte %d", c, i)}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return &syntaxError{fmt.Errorf("invalid UTF-8 at byte %d", i)}
		}
		if r == 0xFFFE || r == 0xFFFF {
			return &syntaxError{fmt.Errorf("illegal character code U+%04X at byte %d", r, i)}
		}
		i += n
	}
	return nil
}

func syntaxf(format string, args ...any) error {
	return &syntaxError{fmt.Errorf(format, args...)}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *xmlParser) skipSpace() {
	for p.pos < len(p.s) && isSpace(p.s[p.pos]) {
		p.pos++
	}
}

// skipPast moves past the next occurrence of end, which must come.
func (p *xmlParser) skipPast(end, what string) error {
	i := strings.Index(p.s[p.pos:], end)
	if i < 0 {
		return syntaxf("unexpected EOF in %s", what)
	}
	p.pos += i + len(end)
	return nil
}

// misc skips a comment or a processing instruction at p.pos, reporting
// whether there was one.
func (p *xmlParser) misc() (bool, error) {
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, "<!--"):
		p.pos += 4
		i := strings.Index(p.s[p.pos:], "--")
		if i < 0 {
			return true, syntaxf("unexpected EOF in comment")
		}
		if p.pos += i; !strings.HasPrefix(p.s[p.pos:], "-->") {
			return true, syntaxf(`invalid sequence "--" not allowed in comments`)
		}
		p.pos += 3
		return true, nil
	case strings.HasPrefix(rest, "<?"):
		p.pos += 2
		target := p.name()
		if target == "" {
			return true, syntaxf("expected target name after <?")
		}
		start := p.pos
		if err := p.skipPast("?>", "processing instruction"); err != nil {
			return true, err
		}
		if target == "xml" {
			return true, xmlDecl(p.s[start : p.pos-2])
		}
		return true, nil
	}
	return false, nil
}

// xmlDecl checks the XML declaration as encoding/xml does: version 1.0,
// UTF-8 if an encoding is named.
func xmlDecl(content string) error {
	if v := declValue("version", content); v != "" && v != "1.0" {
		return syntaxf("unsupported version %q; only version 1.0 is supported", v)
	}
	if v := declValue("encoding", content); v != "" && !strings.EqualFold(v, "utf-8") {
		return syntaxf("encoding %q declared; IR files are UTF-8", v)
	}
	return nil
}

// declValue finds param="value" in a declaration the way encoding/xml
// does, so that both read the same value.
func declValue(param, s string) string {
	param += "="
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || len(param)+k >= len(sub) {
			return ""
		}
		i += len(param) + k + 1
		if c := sub[len(param)+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// document parses the whole file: prolog, one root element, epilogue.
func (p *xmlParser) document() (*element, error) {
	var root *element
	for {
		p.skipSpace()
		if p.pos == len(p.s) {
			if root == nil {
				return nil, syntaxf("no root element")
			}
			return root, nil
		}
		if p.s[p.pos] != '<' {
			return nil, syntaxf("text outside the root element")
		}
		if ok, err := p.misc(); ok || err != nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		if strings.HasPrefix(p.s[p.pos:], "<!") {
			return nil, syntaxf("DOCTYPE, CDATA or a declaration outside the root element; IR files have none")
		}
		if root != nil {
			return nil, syntaxf("a second root element")
		}
		var err error
		if root, err = p.element(); err != nil {
			return nil, err
		}
	}
}

// element parses an element starting at "<" and its content, to its end
// tag. Open elements are kept on a stack, so depth costs no Go stack.
func (p *xmlParser) element() (*element, error) {
	var stack []*element
	var root *element
	for {
		// At '<' of a start tag, an end tag, a comment, a PI or CDATA.
		rest := p.s[p.pos:]
		switch {
		case strings.HasPrefix(rest, "</"):
			if len(stack) == 0 {
				return nil, syntaxf("end tag outside the root element")
			}
			p.flushText()
			p.pos += 2
			name := p.name()
			if name == "" {
				return nil, syntaxf("expected element name after </")
			}
			top := stack[len(stack)-1]
			if name != top.FullTag() {
				return nil, syntaxf("element <%s> closed by </%s>", top.FullTag(), name)
			}
			p.skipSpace()
			if p.pos == len(p.s) || p.s[p.pos] != '>' {
				return nil, syntaxf("invalid characters between </%s and >", name)
			}
			p.pos++
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(rest, "<![CDATA["):
			if len(stack) == 0 {
				return nil, syntaxf("CDATA outside the root element")
			}
			start := p.pos + 9
			if err := p.skipPast("]]>", "CDATA section"); err != nil {
				return nil, err
			}
			if top := stack[len(stack)-1]; top.first == nil {
				p.addText(top, newlines(p.s[start:p.pos-3]))
			}
		case strings.HasPrefix(rest, "<!--") || strings.HasPrefix(rest, "<?"):
			if _, err := p.misc(); err != nil {
				return nil, err
			}
		case strings.HasPrefix(rest, "<!"):
			return nil, syntaxf("unexpected <! inside an element")
		default:
			p.flushText()
			el, empty, err := p.startTag()
			if err != nil {
				return nil, err
			}
			if len(stack) == 0 {
				root = el
			} else if parent := stack[len(stack)-1]; parent.first == nil {
				parent.first, parent.last = el, el
			} else {
				parent.last.next, parent.last = el, el
			}
			if !empty {
				if len(stack) == p.maxDepth {
					return nil, errorf("%w: the XML is nested deeper than %d elements (ReadOptions.MaxDepth)", ErrLimit, p.maxDepth)
				}
				stack = append(stack, el)
			}
		}
		if len(stack) == 0 {
			return root, nil
		}
		// Character data up to the next '<'.
		start := p.pos
		i := strings.IndexByte(p.s[p.pos:], '<')
		if i < 0 {
			return nil, syntaxf("unexpected EOF: element <%s> is not closed", stack[len(stack)-1].FullTag())
		}
		p.pos += i
		if strings.Contains(p.s[start:p.pos], "]]>") {
			return nil, syntaxf("unescaped ]]> not in CDATA section")
		}
		// Text after a child element is not kept, but checked all the same.
		text, err := unescape(p.s[start:p.pos])
		if err != nil {
			return nil, err
		}
		if top := stack[len(stack)-1]; top.first == nil && text != "" {
			p.addText(top, text)
		}
	}
}

// addText adds a piece of the text of el, the innermost open element.
func (p *xmlParser) addText(el *element, s string) {
	if p.textOwner != el {
		p.flushText()
		p.textOwner, el.text = el, s
		return
	}
	if p.text.Len() == 0 {
		p.text.WriteString(el.text)
	}
	p.text.WriteString(s)
}

// flushText ends the text of its owner: a tag follows.
func (p *xmlParser) flushText() {
	if p.text.Len() > 0 {
		p.textOwner.text = p.text.String()
		p.text = strings.Builder{}
	}
	p.textOwner = nil
}

// name reads an XML name (ASCII only, at most one colon, as encoding/xml
// allows) at p.pos; "" when there is none.
func (p *xmlParser) name() string {
	start, colons := p.pos, 0
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' ||
			p.pos > start && (c >= '0' && c <= '9' || c == '-' || c == '.') {
			if c == ':' {
				colons++
			}
			p.pos++
			continue
		}
		break
	}
	if colons > 1 {
		p.pos = start
		return ""
	}
	return p.s[start:p.pos]
}

// split splits a name at its colon, as encoding/xml does: a colon first
// or last stays in the local name. (name refuses more than one.)
func split(name string) (space, local string) {
	if space, local, ok := strings.Cut(name, ":"); ok && space != "" && local != "" {
		return space, local
	}
	return "", name
}

// startTag parses "<name attr="v" ...>" or "/>", checking the caps.
func (p *xmlParser) startTag() (el *element, empty bool, err error) {
	p.pos++ // '<'
	name := p.name()
	if name == "" {
		return nil, false, syntaxf("expected element name after <")
	}
	p.scratch = p.scratch[:0]
	for {
		spaced := p.pos < len(p.s) && isSpace(p.s[p.pos])
		p.skipSpace()
		if p.pos == len(p.s) {
			return nil, false, syntaxf("unexpected EOF in <%s>", name)
		}
		if c := p.s[p.pos]; c == '>' || c == '/' {
			if c == '/' {
				if !strings.HasPrefix(p.s[p.pos:], "/>") {
					return nil, false, syntaxf("expected /> in element <%s>", name)
				}
				p.pos++
				empty = true
			}
			p.pos++
			break
		}
		if !spaced && len(p.scratch) == 0 {
			return nil, false, syntaxf("expected space before an attribute of <%s>", name)
		}
		key := p.name()
		if key == "" {
			return nil, false, syntaxf("invalid character %q in <%s>", p.s[p.pos], name)
		}
		p.skipSpace()
		if p.pos == len(p.s) || p.s[p.pos] != '=' {
			return nil, false, syntaxf("attribute %s of <%s> has no value", key, name)
		}
		p.pos++
		p.skipSpace()
		if p.pos == len(p.s) || p.s[p.pos] != '"' && p.s[p.pos] != '\'' {
			return nil, false, syntaxf("unquoted or missing value of attribute %s of <%s>", key, name)
		}
		quote := p.s[p.pos]
		end := strings.IndexByte(p.s[p.pos+1:], quote)
		if end < 0 {
			return nil, false, syntaxf("unexpected EOF in the value of attribute %s of <%s>", key, name)
		}
		raw := p.s[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		if strings.IndexByte(raw, '<') >= 0 {
			return nil, false, syntaxf("unescaped < inside the value of attribute %s of <%s>", key, name)
		}
		value, err := unescape(raw)
		if err != nil {
			return nil, false, err
		}
		space, local := split(key)
		p.scratch = append(p.scratch, xmlAttr{space, local, value})
	}
	if err := p.count(name); err != nil {
		return nil, false, err
	}
	if len(p.elements) == cap(p.elements) {
		p.elements = make([]element, 0, blockSize)
	}
	p.elements = append(p.elements, element{})
	el = &p.elements[len(p.elements)-1]
	el.Space, el.Tag = split(name)
	if len(p.scratch) > 0 {
		if cap(p.attrs)-len(p.attrs) < len(p.scratch) {
			p.attrs = make([]xmlAttr, 0, max(blockSize, len(p.scratch)))
		}
		start := len(p.attrs)
		p.attrs = append(p.attrs, p.scratch...)
		el.Attr = p.attrs[start:len(p.attrs):len(p.attrs)]
	}
	return el, empty, nil
}

// count counts an element and its attributes against the caps.
func (p *xmlParser) count(name string) error {
	p.nodes += 1 + len(p.scratch)
	_, local := split(name)
	switch local {
	case "layer":
		p.layers++
	case "port":
		p.ports++
	case "edge":
		p.edges++
	}
	for _, c := range []struct {
		n, max      int
		what, field string
	}{
		{p.nodes, p.maxNodes, "XML elements and attributes", "MaxNodes"},
		{p.layers, p.maxLayers, "layers", "MaxLayers"},
		{p.ports, p.maxPorts, "ports", "MaxPorts"},
		{p.edges, p.maxEdges, "edges", "MaxEdges"},
	} {
		if c.n > c.max {
			return errorf("%w: the XML has more than %d %s (ReadOptions.%s)", ErrLimit, c.max, c.what, c.field)
		}
	}
	return nil
}

// unescape replaces the character and entity references of s and turns
// CRLF and lone CR into LF, as XML's end-of-line handling asks. Text
// without either is returned as it is, without a copy.
func unescape(s string) (string, error) {
	if strings.IndexByte(s, '&') < 0 && strings.IndexByte(s, '\r') < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '&':
			end := strings.IndexByte(s[i:], ';')
			if end < 0 {
				return "", syntaxf("invalid character entity %s (no semicolon)", cut(s[i:]))
			}
			ref := s[i+1 : i+end]
			r, ok := entity(ref)
			if !ok {
				return "", syntaxf("invalid character entity &%s;", cut(ref))
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// newlines turns CRLF and lone CR into LF, in CDATA as everywhere.
func newlines(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func cut(s string) string {
	if len(s) > 20 {
		return strings.ToValidUTF8(s[:20], "") + "..."
	}
	return s
}

// entity resolves the five predefined entities and character references
// to characters XML allows.
func entity(ref string) (rune, bool) {
	switch ref {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "apos":
		return '\'', true
	case "quot":
		return '"', true
	}
	digits, base := strings.CutPrefix(ref, "#x")
	b := 16
	if !base {
		if digits, base = strings.CutPrefix(ref, "#"); !base {
			return 0, false
		}
		b = 10
	}
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, b, 32)
	r := rune(n)
	if err != nil || !(r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
		return 0, false
	}
	return r, true
}
