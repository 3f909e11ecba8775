package ir

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/internal/safefile"
)

// dataOrder is the order in which OpenVINO's serializer writes the <data>
// attributes of the layers irdiv knows; other attributes follow as read.
var dataOrder = map[string][]string{
	"parameter": {"shape", "element_type"},
	"const":     {"element_type", "shape", "offset", "size"},
	"divide":    {"auto_broadcast", "auto_broadcast.auto_broadcast_axis", "m_pythondiv"},
}

// Encode serializes m as OpenVINO's serializer does and returns the .xml
// text and the .bin weights. Constants are packed in layer order, back to
// back, and a constant whose bytes equal an earlier one's reuses its offset.
func Encode(m *Model) (xmlText, bin []byte, err error) {
	version := m.Version
	if version == 0 {
		version = 11
	}
	if version != 10 && version != 11 {
		return nil, nil, errorf("Unsupported version %d", version)
	}
	e := &encoder{seed: maphash.MakeSeed(), offsets: make(map[uint64][]int)}
	e.buf.WriteString("<?xml version=\"1.0\"?>\n")
	e.open(0, "net", []Attr{{"name", m.Name}, {"version", strconv.Itoa(version)}})
	if err := e.graph(m, 1); err != nil {
		return nil, nil, err
	}
	if version == 11 && !slices.ContainsFunc(m.Meta, func(n *Node) bool { return n.Tag == "rt_info" || n.Tag == "meta_data" }) {
		e.empty(1, "rt_info", nil)
	}
	e.close(0, "net")
	if e.err != nil {
		return nil, nil, e.err
	}
	return e.buf.Bytes(), e.bin.Bytes(), nil
}

// Write encodes m into xmlPath and binPath ("" means xmlPath with .bin).
func Write(m *Model, xmlPath, binPath string) error {
	x, b, err := Encode(m)
	if err != nil {
		return err
	}
	if binPath == "" {
		binPath = strings.TrimSuffix(xmlPath, filepath.Ext(xmlPath)) + ".bin"
	}
	if filepath.Clean(xmlPath) == filepath.Clean(binPath) || safefile.SameFile(xmlPath, binPath) {
		return errorf("%s: the weights would overwrite the XML (give an .xml path, or a different .bin)", xmlPath)
	}
	if err := os.WriteFile(xmlPath, x, 0o644); err != nil {
		return pkgerr.Wrap("ir", err)
	}
	if err := os.WriteFile(binPath, b, 0o644); err != nil {
		return pkgerr.Wrap("ir", err)
	}
	return nil
}

type encoder struct {
	buf, bin bytes.Buffer
	seed     maphash.Seed
	offsets  map[uint64][]int // where each distinct byte run starts, by hash
	err      error
}

func (e *encoder) graph(m *Model, depth int) error {
	e.open(depth, "layers", nil)
	for _, l := range m.Layers {
		if err := e.layer(l, depth+1); err != nil {
			return err
		}
	}
	e.close(depth, "layers")
	edges := slices.Clone(m.Edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.FromLayer, b.FromLayer), cmp.Compare(a.FromPort, b.FromPort),
			cmp.Compare(a.ToLayer, b.ToLayer), cmp.Compare(a.ToPort, b.ToPort))
	})
	if len(edges) > 0 {
		e.open(depth, "edges", nil)
		for _, ed := range edges {
			e.empty(depth+1, "edge", []Attr{
				{"from-layer", strconv.FormatUint(ed.FromLayer, 10)}, {"from-port", strconv.FormatUint(ed.FromPort, 10)},
				{"to-layer", strconv.FormatUint(ed.ToLayer, 10)}, {"to-port", strconv.FormatUint(ed.ToPort, 10)}})
		}
		e.close(depth, "edges")
	}
	for _, n := range m.Meta {
		e.node(n, depth)
	}
	return nil
}

func (e *encoder) layer(l *Layer, depth int) error {
	attrs := append([]Attr{{"id", strconv.FormatUint(l.ID, 10)}, {"name", l.Name}, {"type", l.Type}, {"version", l.Version}}, l.Attrs...)
	data := orderData(l)
	if strings.EqualFold(l.Type, "Const") {
		if l.Constant == nil {
			return errorf("%s: Const has no value (was the model read without its weights?)", l)
		}
		data = e.pack(l.Constant, data)
	}
	e.open(depth, "layer", attrs)
	if len(data) > 0 {
		e.empty(depth+1, "data", data)
	}
	if l.RTInfo != nil {
		e.node(l.RTInfo, depth+1)
	}
	e.ports(depth+1, "input", l.Inputs)
	e.ports(depth+1, "output", l.Outputs)
	for _, x := range l.Extra {
		if x.Body == nil {
			e.node(x.Node, depth+1)
			continue
		}
		e.open(depth+1, x.Node.Tag, nil)
		if err := e.graph(x.Body, depth+2); err != nil {
			return err
		}
		e.close(depth+1, x.Node.Tag)
	}
	e.close(depth, "layer")
	return nil
}

func orderData(l *Layer) []Attr {
	order := dataOrder[strings.ToLower(l.Type)]
	out := make([]Attr, 0, len(l.Data))
	for _, name := range order {
		if v, ok := l.DataAttr(name); ok {
			out = append(out, Attr{name, v})
		}
	}
	for _, a := range l.Data {
		if !slices.Contains(order, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// pack stores a constant in the .bin (once per distinct byte run, found
// by a hash of its bytes, so that no copy of them is kept as a key) and
// returns data with offset and size set.
func (e *encoder) pack(v *Tensor, data []Attr) []Attr {
	h := maphash.Bytes(e.seed, v.Data)
	off := -1
	for _, o := range e.offsets[h] {
		if end := o + len(v.Data); end <= e.bin.Len() && bytes.Equal(e.bin.Bytes()[o:end], v.Data) {
			off = o
			break
		}
	}
	if off < 0 {
		off = e.bin.Len()
		e.bin.Write(v.Data)
		e.offsets[h] = append(e.offsets[h], off)
	}
	out := slices.Clone(data)
	set := func(name, value string) {
		if i := slices.IndexFunc(out, func(a Attr) bool { return a.Name == name }); i >= 0 {
			out[i].Value = value
		} else {
			out = append(out, Attr{name, value})
		}
	}
	set("offset", strconv.Itoa(off))
	set("size", strconv.Itoa(len(v.Data)))
	return out
}

func (e *encoder) ports(depth int, tag string, ports []*Port) {
	if len(ports) == 0 {
		return
	}
	e.open(depth, tag, nil)
	for _, p := range ports {
		attrs := []Attr{{"id", strconv.FormatUint(p.ID, 10)}, {"precision", p.Type.Precision()}}
		if len(p.Names) > 0 {
			escaped := make([]string, len(p.Names))
			for i, n := range p.Names {
				escaped[i] = strings.ReplaceAll(n, ",", `\,`)
			}
			attrs = append(attrs, Attr{"names", strings.Join(escaped, ",")})
		}
		if len(p.Dims) == 0 && p.RTInfo == nil {
			e.empty(depth+1, "port", attrs)
			continue
		}
		e.open(depth+1, "port", attrs)
		for _, d := range p.Dims {
			e.indent(depth + 2)
			fmt.Fprintf(&e.buf, "<dim>%d</dim>\n", d)
		}
		if p.RTInfo != nil {
			e.node(p.RTInfo, depth+2)
		}
		e.close(depth+1, "port")
	}
	e.close(depth, tag)
}

func (e *encoder) node(n *Node, depth int) {
	switch {
	case len(n.Children) == 0 && n.Text == "":
		e.empty(depth, n.Tag, n.Attrs)
	case len(n.Children) == 0:
		e.indent(depth)
		e.tag(n.Tag, n.Attrs)
		e.buf.WriteByte('>')
		e.checkText(n.Text)
		e.buf.WriteString(escape(n.Text, false))
		e.buf.WriteString("</" + n.Tag + ">\n")
	default:
		e.open(depth, n.Tag, n.Attrs)
		for _, c := range n.Children {
			e.node(c, depth+1)
		}
		e.close(depth, n.Tag)
	}
}

func (e *encoder) indent(depth int) {
	for range depth {
		e.buf.WriteByte('\t')
	}
}

func (e *encoder) tag(name string, attrs []Attr) {
	e.checkName(name)
	e.buf.WriteByte('<')
	e.buf.WriteString(name)
	for _, a := range attrs {
		e.checkName(a.Name)
		e.checkText(a.Value)
		e.buf.WriteString(" " + a.Name + "=\"" + escape(a.Value, true) + "\"")
	}
}

// checkName and checkText note the first string XML cannot hold; Encode
// returns it instead of writing a file no reader accepts.
func (e *encoder) checkName(s string) {
	if e.err == nil && !isXMLName(s) {
		e.err = errorf("%w: %q cannot be an XML name", ErrFormat, s)
	}
}

func (e *encoder) checkText(s string) {
	if e.err == nil && !IsXMLText(s) {
		e.err = errorf("%w: %q holds characters XML 1.0 cannot hold", ErrFormat, s)
	}
}

func (e *encoder) open(depth int, name string, attrs []Attr) {
	e.indent(depth)
	e.tag(name, attrs)
	e.buf.WriteString(">\n")
}

func (e *encoder) empty(depth int, name string, attrs []Attr) {
	e.indent(depth)
	e.tag(name, attrs)
	e.buf.WriteString(" />\n")
}

func (e *encoder) close(depth int, name string) {
	e.indent(depth)
	e.buf.WriteString("</" + name + ">\n")
}

var (
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;", "\r", "&#13;", "\t", "&#9;")
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

func escape(s string, attr bool) string {
	if attr {
		return attrEscaper.Replace(s)
	}
	return textEscaper.Replace(s)
}

// IsXMLText reports whether s can be written in an IR file: valid UTF-8
// without the characters XML 1.0 forbids even escaped (the controls other
// than tab, newline and carriage return, U+FFFE and U+FFFF).
func IsXMLText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return false
		}
	}
	return true
}

// IsXMLName reports whether s can be a tag or attribute name in an IR
// file: XML's name characters, roughly (letters, digits, '_', '-', '.',
// ':'), not starting with a digit, '-' or '.'.
func IsXMLName(s string) bool { return isXMLName(s) }

func isXMLName(s string) bool {
	for i, r := range s {
		ok := r == '_' || r == ':' || unicode.IsLetter(r) || i > 0 && (r == '-' || r == '.' || unicode.IsDigit(r))
		if !ok {
			return false
		}
	}
	return s != ""
}
