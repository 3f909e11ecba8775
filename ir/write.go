package ir

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/beevik/etree"
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
// The XML is an etree document, written by writeXML.
func Encode(m *Model) (xmlText, bin []byte, err error) {
	version := m.Version
	if version == 0 {
		version = 11
	}
	if version != 10 && version != 11 {
		return nil, nil, errorf("Unsupported version %d", version)
	}
	e := &encoder{seed: maphash.MakeSeed(), offsets: make(map[uint64][]int)}
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0"`)
	net := e.element(&doc.Element, "net", []Attr{{"name", m.Name}, {"version", strconv.Itoa(version)}})
	if err := e.graph(net, m); err != nil {
		return nil, nil, err
	}
	if version == 11 && !slices.ContainsFunc(m.Meta, func(n *Node) bool { return n.Tag == "rt_info" || n.Tag == "meta_data" }) {
		e.element(net, "rt_info", nil)
	}
	if e.err != nil {
		return nil, nil, e.err
	}
	return writeXML(doc), e.bin.Bytes(), nil
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
	bin     bytes.Buffer
	seed    maphash.Seed
	offsets map[uint64][]int // where each distinct byte run starts, by hash
	err     error
}

func (e *encoder) graph(parent *etree.Element, m *Model) error {
	layers := e.element(parent, "layers", nil)
	for _, l := range m.Layers {
		if err := e.layer(layers, l); err != nil {
			return err
		}
	}
	edges := slices.Clone(m.Edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.FromLayer, b.FromLayer), cmp.Compare(a.FromPort, b.FromPort),
			cmp.Compare(a.ToLayer, b.ToLayer), cmp.Compare(a.ToPort, b.ToPort))
	})
	if len(edges) > 0 {
		el := e.element(parent, "edges", nil)
		for _, ed := range edges {
			e.element(el, "edge", []Attr{
				{"from-layer", strconv.FormatUint(ed.FromLayer, 10)}, {"from-port", strconv.FormatUint(ed.FromPort, 10)},
				{"to-layer", strconv.FormatUint(ed.ToLayer, 10)}, {"to-port", strconv.FormatUint(ed.ToPort, 10)}})
		}
	}
	for _, n := range m.Meta {
		e.node(parent, n)
	}
	return nil
}

func (e *encoder) layer(parent *etree.Element, l *Layer) error {
	attrs := append([]Attr{{"id", strconv.FormatUint(l.ID, 10)}, {"name", l.Name}, {"type", l.Type}, {"version", l.Version}}, l.Attrs...)
	data := orderData(l)
	if strings.EqualFold(l.Type, "Const") {
		if l.Constant == nil {
			return errorf("%s: Const has no value (was the model read without its weights?)", l)
		}
		data = e.pack(l.Constant, data)
	}
	el := e.element(parent, "layer", attrs)
	if len(data) > 0 {
		e.element(el, "data", data)
	}
	if l.RTInfo != nil {
		e.node(el, l.RTInfo)
	}
	e.ports(el, "input", l.Inputs)
	e.ports(el, "output", l.Outputs)
	for _, x := range l.Extra {
		if x.Body == nil {
			e.node(el, x.Node)
			continue
		}
		if err := e.graph(e.element(el, x.Node.Tag, nil), x.Body); err != nil {
			return err
		}
	}
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

func (e *encoder) ports(parent *etree.Element, tag string, ports []*Port) {
	if len(ports) == 0 {
		return
	}
	el := e.element(parent, tag, nil)
	for _, p := range ports {
		attrs := []Attr{{"id", strconv.FormatUint(p.ID, 10)}, {"precision", p.Type.Precision()}}
		if len(p.Names) > 0 {
			escaped := make([]string, len(p.Names))
			for i, n := range p.Names {
				escaped[i] = strings.ReplaceAll(n, ",", `\,`)
			}
			attrs = append(attrs, Attr{"names", strings.Join(escaped, ",")})
		}
		pe := e.element(el, "port", attrs)
		for _, d := range p.Dims {
			e.element(pe, "dim", nil).SetText(strconv.FormatInt(d, 10))
		}
		if p.RTInfo != nil {
			e.node(pe, p.RTInfo)
		}
	}
}

// node writes n under parent: its text only when it has no children, as
// the serializer writes it.
func (e *encoder) node(parent *etree.Element, n *Node) {
	el := e.element(parent, n.Tag, n.Attrs)
	if len(n.Children) == 0 && n.Text != "" {
		e.checkText(n.Text)
		el.SetText(n.Text)
	}
	for _, c := range n.Children {
		e.node(el, c)
	}
}

// element adds to parent an element of the given name and attributes,
// in order. The names go into etree's fields as written, without the
// prefix split of CreateElement and CreateAttr, and the attributes are
// appended rather than set (CreateAttr would merge repeated ones), so
// that the element is written as the serializer writes it.
func (e *encoder) element(parent *etree.Element, name string, attrs []Attr) *etree.Element {
	e.checkName(name)
	el := parent.CreateElement("")
	el.Tag = name
	if len(attrs) > 0 {
		el.Attr = make([]etree.Attr, len(attrs))
		for i, a := range attrs {
			e.checkName(a.Name)
			e.checkText(a.Value)
			el.Attr[i] = etree.Attr{Key: a.Name, Value: a.Value}
		}
	}
	return el
}

// checkName and checkText note the first string XML cannot hold; Encode
// returns it instead of writing a file no reader accepts.
func (e *encoder) checkName(s string) {
	if e.err == nil && !xmlName(s) {
		e.err = errorf("%w: %q cannot be an XML name", ErrFormat, s)
	}
}

func (e *encoder) checkText(s string) {
	if e.err == nil && !IsXMLText(s) {
		e.err = errorf("%w: %q holds characters XML 1.0 cannot hold", ErrFormat, s)
	}
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
// file: one the reader accepts (encoding/xml's XML names, one colon at
// most), so that the writer writes no other.
func IsXMLName(s string) bool { return xmlName(s) }
