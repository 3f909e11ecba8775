package ir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/shapeinfer"
)

// weights is where Const data comes from; a nil *weights means no file.
type weights struct {
	r    io.ReaderAt
	size int64
	// shared holds the data read so far by (offset, length): Consts that
	// the file stores at the same place share it, as OpenVINO's
	// serializer stores identical constants once.
	shared map[[2]uint64][]byte
	// budget is what may still be read: distinct ranges add up to at most
	// twice the file's size, so overlapping ranges cannot multiply it.
	// (Writers store each constant once; the slack is for odd producers.)
	budget int64
}

func newWeights(r io.ReaderAt, size int64) *weights {
	return &weights{r: r, size: size, shared: make(map[[2]uint64][]byte), budget: 2 * size}
}

// ReadFile reads an IR model from xmlPath and its weights (see
// ReadOptions). A model whose Consts need no data loads without a .bin;
// when the default .bin is absent the model loads with WeightsMissing set
// and no Const values. Both files must be regular files (a FIFO or a
// device is refused at once); the .xml is bounded by the caps of
// ReadOptions and every Const by the size the .bin has.
func ReadFile(xmlPath string, opts ReadOptions) (*Model, error) {
	xmlData, err := readXMLFile(xmlPath, opts)
	if err != nil {
		return nil, &ParseError{File: xmlPath, Err: asLocal(err)}
	}
	var w *weights
	binPath := opts.WeightsPath
	if binPath == "" {
		binPath = strings.TrimSuffix(xmlPath, filepath.Ext(xmlPath)) + ".bin"
	}
	f, err := safefile.Open(binPath)
	switch {
	case err == nil:
		defer f.Close()
		w = newWeights(f, f.Size())
	case opts.WeightsPath != "" || !errors.Is(err, fs.ErrNotExist):
		return nil, &ParseError{File: xmlPath, Err: errorf("%w: Weights file %s cannot be opened! (%v)", ErrWeights, binPath, pathless(err))}
	}
	return decode(xmlData, w, xmlPath, opts)
}

// pathless drops the path from an error about opening a file, for
// messages that name the file already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadBytes reads an IR model from memory. weights may be nil when no Const
// needs data.
func ReadBytes(xmlData, weightsData []byte, opts ReadOptions) (*Model, error) {
	var w *weights
	if weightsData != nil {
		w = newWeights(bytes.NewReader(weightsData), int64(len(weightsData)))
	}
	if max := orDefault(opts.MaxXMLBytes, DefaultMaxXMLBytes); int64(len(xmlData)) > max {
		return nil, &ParseError{File: "<memory>", Err: errorf("%w: the XML has %d bytes, more than the %d allowed (ReadOptions.MaxXMLBytes)", ErrLimit, len(xmlData), max)}
	}
	return decode(xmlData, w, "<memory>", opts)
}

// readXMLFile reads the .xml, a regular file whose size is checked
// against the cap before it is read.
func readXMLFile(path string, opts ReadOptions) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, pathless(err)
	}
	defer f.Close()
	max := orDefault(opts.MaxXMLBytes, DefaultMaxXMLBytes)
	if f.Size() > max {
		return nil, errorf("%w: the XML has %d bytes, more than the %d allowed (ReadOptions.MaxXMLBytes)", ErrLimit, f.Size(), max)
	}
	b := make([]byte, f.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := f.AtEnd(); err != nil {
		return nil, pathless(err)
	}
	return b, nil
}

// xmlFailure words a fault of the XML text: malformed XML as OpenVINO
// words it, a cap as it is.
func xmlFailure(e *xmlError, file string) error {
	if e.syntax {
		return errorf("%w (%v)", unreadable(file), e.err)
	}
	return asLocal(e.err)
}

// asLocal marks an error met while reading (a limit, an I/O error) as this
// package's, so that ParseError names the package.
func asLocal(err error) error {
	return pkgerr.Wrap("ir", err)
}

func unreadable(file string) error {
	return fmt.Errorf("%w: Unable to read the model: %s Please check that model format: xml is supported and the model is correct. Available frontends: ir", ErrFormat, file)
}

type reader struct {
	file          string
	weights       *weights
	model         *Model // the top-level model, which collects warnings
	skipWeights   bool
	maxConstBytes int64
}

// attrs returns the attributes of el, the first of each name only, as
// OpenVINO reads them; a duplicate is reported as a warning about l (or
// the model when l is nil).
func (r *reader) attrs(el *etree.Element, l *Layer) []etree.Attr {
	if !hasDuplicates(el.Attr) {
		return el.Attr
	}
	seen := make(map[string]bool, len(el.Attr))
	out := make([]etree.Attr, 0, len(el.Attr))
	for _, a := range el.Attr {
		if seen[a.FullKey()] {
			r.warn(l, "<%s> repeats attribute %q; the first value is used, as OpenVINO does", el.FullTag(), a.FullKey())
			continue
		}
		seen[a.FullKey()] = true
		out = append(out, a)
	}
	return out
}

func hasDuplicates(attrs []etree.Attr) bool {
	if len(attrs) <= 16 {
		for i := range attrs {
			for j := range i {
				if attrs[i].Space == attrs[j].Space && attrs[i].Key == attrs[j].Key {
					return true
				}
			}
		}
		return false
	}
	keys := make([]string, len(attrs))
	for i, a := range attrs {
		keys[i] = a.FullKey()
	}
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			return true
		}
	}
	return false
}

// attrValue returns the value of the attribute named key, a name
// without a prefix.
func attrValue(attrs []etree.Attr, key string) (string, bool) {
	for _, a := range attrs {
		if a.Space == "" && a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

func decode(data []byte, w *weights, file string, opts ReadOptions) (*Model, error) {
	root, xerr := parseXML(data, opts.xmlCaps())
	if xerr != nil {
		return nil, &ParseError{File: file, Line: xerr.line, Err: xmlFailure(xerr, file)}
	}
	if strings.ToLower(root.Tag) != "net" {
		return nil, &ParseError{File: file, Err: pkgerr.Wrap("ir", unreadable(file))}
	}
	m := &Model{Version: 0}
	r := &reader{file: file, weights: w, model: m, skipWeights: opts.SkipWeights, maxConstBytes: opts.MaxConstBytes}
	rootAttrs := r.attrs(root, nil)
	versionText, _ := attrValue(rootAttrs, "version")
	version, err := strconv.Atoi(versionText)
	if err != nil || version < 10 || version > 11 {
		return nil, &ParseError{File: file, Err: errorf("%w (IR version %q; irdiv reads 10 and 11)", unreadable(file), versionText)}
	}
	m.Name, _ = attrValue(rootAttrs, "name")
	m.Version = version
	if err := r.graph(m, root); err != nil {
		return nil, err
	}
	if opts.SkipWeights {
		m.WeightsMissing = true
	}
	return m, nil
}

func (r *reader) fail(l *Layer, format string, args ...any) error {
	return &ParseError{File: r.file, Layer: l, Err: errorf(format, args...)}
}

func (r *reader) warn(l *Layer, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if l != nil {
		msg = l.String() + ": " + msg
	}
	r.model.Warnings = append(r.model.Warnings, msg)
}

// graph reads <layers>, <edges> and the metadata of a net or a body into m.
func (r *reader) graph(m *Model, el *etree.Element) error {
	for c := range el.ChildElementsSeq() {
		switch c.Tag {
		case "layers":
			for le := range c.ChildElementsSeq() {
				if le.Tag != "layer" {
					continue
				}
				l, err := r.layer(le, m.Version)
				if err != nil {
					return err
				}
				m.Layers = append(m.Layers, l)
			}
		case "edges":
			for ee := range c.ChildElementsSeq() {
				if ee.Tag != "edge" {
					continue
				}
				e, err := r.edge(ee)
				if err != nil {
					return err
				}
				m.Edges = append(m.Edges, e)
			}
		default:
			m.Meta = append(m.Meta, r.node(c, nil))
		}
	}
	g := newGraphIndex(m.Layers)
	if err := m.check(g); err != nil {
		return &ParseError{File: r.file, Err: asLocal(err)}
	}
	r.resolveInputTypes(m.sources(g))
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Const") {
			if err := r.constValue(l); err != nil {
				return err
			}
		}
	}
	return nil
}

func uintAttr(attrs []etree.Attr, node, name string) (uint64, error) {
	s, ok := attrValue(attrs, name)
	if !ok {
		return 0, errorf("%w: node <%s> is missing mandatory attribute: %s", ErrFormat, node, name)
	}
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, errorf("%w: node <%s> has attribute %q = %q which is not an unsigned 64 bit integer", ErrFormat, node, name, s)
	}
	return v, nil
}

func (r *reader) edge(el *etree.Element) (Edge, error) {
	attrs := r.attrs(el, nil)
	var vals [4]uint64
	for i, name := range []string{"from-layer", "from-port", "to-layer", "to-port"} {
		v, err := uintAttr(attrs, "edge", name)
		if err != nil {
			return Edge{}, &ParseError{File: r.file, Err: err}
		}
		vals[i] = v
	}
	return Edge{vals[0], vals[1], vals[2], vals[3]}, nil
}

var bodyTags = map[string]bool{"body": true, "then_body": true, "else_body": true}

func (r *reader) layer(el *etree.Element, version int) (*Layer, error) {
	attrs := r.attrs(el, nil)
	id, err := uintAttr(attrs, "layer", "id")
	if err != nil {
		return nil, &ParseError{File: r.file, Err: err}
	}
	l := &Layer{ID: id}
	for _, a := range attrs {
		switch a.FullKey() {
		case "id":
		case "name":
			l.Name = a.Value
		case "type":
			l.Type = a.Value
		case "version":
			l.Version = a.Value
		default:
			l.Attrs = append(l.Attrs, Attr{a.FullKey(), a.Value})
		}
	}
	for _, name := range []string{"name", "type", "version"} {
		if _, ok := attrValue(attrs, name); !ok {
			return nil, r.fail(l, "%w: node <layer> is missing mandatory attribute: %s", ErrFormat, name)
		}
	}
	for c := range el.ChildElementsSeq() {
		switch {
		case c.Tag == "data":
			for _, a := range r.attrs(c, l) {
				l.Data = append(l.Data, Attr{a.FullKey(), a.Value})
			}
		case c.Tag == "rt_info":
			l.RTInfo = r.node(c, l)
		case c.Tag == "input" || c.Tag == "output":
			for pe := range c.ChildElementsSeq() {
				if pe.Tag != "port" {
					continue
				}
				p, err := r.port(l, pe, c.Tag == "output")
				if err != nil {
					return nil, err
				}
				if c.Tag == "input" {
					l.Inputs = append(l.Inputs, p)
				} else {
					l.Outputs = append(l.Outputs, p)
				}
			}
		case bodyTags[c.Tag]:
			body := &Model{Version: version}
			if err := r.graph(body, c); err != nil {
				return nil, err
			}
			l.Extra = append(l.Extra, Extra{Node: &Node{Tag: c.Tag}, Body: body})
		default:
			l.Extra = append(l.Extra, Extra{Node: r.node(c, l)})
		}
	}
	if strings.EqualFold(l.Type, "Parameter") && len(l.Data) == 0 {
		return nil, r.fail(l, "%w: Parameter has no <data> (shape and element_type are mandatory)", ErrFormat)
	}
	return l, nil
}

func (r *reader) port(l *Layer, el *etree.Element, output bool) (*Port, error) {
	attrs := r.attrs(el, l)
	id, err := uintAttr(attrs, "port", "id")
	if err != nil {
		return nil, r.fail(l, "%w", inner(err))
	}
	precision, _ := attrValue(attrs, "precision")
	p := &Port{ID: id, Precision: precision}
	if p.Precision != "" {
		if p.Type, err = ParsePrecision(p.Precision); err != nil {
			return nil, r.fail(l, "%w: port %d: %w", ErrFormat, id, inner(err))
		}
	} else if output {
		return nil, r.fail(l, "%w: output port %d has no precision", ErrFormat, id)
	}
	if names, ok := attrValue(attrs, "names"); ok {
		p.Names = splitNames(names)
	}
	for c := range el.ChildElementsSeq() {
		switch c.Tag {
		case "dim":
			d, err := strconv.ParseInt(strings.TrimSpace(c.Text()), 10, 64)
			if err != nil || d < -1 {
				return nil, r.fail(l, "%w: port %d: dimension (%s) in node dim must be greater or equal to -1", ErrFormat, id, strings.TrimSpace(c.Text()))
			}
			p.Dims = append(p.Dims, d)
		case "rt_info":
			p.RTInfo = r.node(c, l)
		}
	}
	return p, nil
}

// splitNames splits a names attribute on commas not escaped as "\,".
func splitNames(s string) []string {
	var names []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			names = append(names, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(names, cur.String())
}

// resolveInputTypes gives input ports without precision the type of the
// output port that feeds them, as legacy MO/POT files need.
func (r *reader) resolveInputTypes(sources map[*Layer][]Output) {
	for to, sources := range sources {
		for i, src := range sources {
			if in := to.Inputs[i]; in.Precision == "" && src.Layer != nil {
				in.Type = src.Port().Type
			}
		}
	}
}

// constValue loads the data of a Const, checking sizes before allocating.
func (r *reader) constValue(l *Layer) error {
	if len(l.Outputs) != 1 {
		return r.fail(l, "%w: Const must have one output port, has %d", ErrFormat, len(l.Outputs))
	}
	var offset, size uint64
	for _, name := range []string{"offset", "size"} {
		s, ok := l.DataAttr(name)
		if !ok {
			return r.fail(l, "%w: node <data> is missing mandatory attribute: %s", ErrFormat, name)
		}
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return r.fail(l, "%w: node <data> has attribute %q = %q which is not an unsigned 64 bit integer", ErrFormat, name, s)
		}
		if name == "offset" {
			offset = v
		} else {
			size = v
		}
	}
	port := l.Outputs[0]
	et, shape := port.Type, port.Dims
	if s, ok := l.DataAttr("element_type"); ok {
		t, err := ParseElementType(s)
		if err != nil {
			return r.fail(l, "%w: %w", ErrFormat, inner(err))
		}
		et = t
	} else {
		r.warn(l, "Const without element_type; type %s taken from its output port", et)
	}
	if s, ok := l.DataAttr("shape"); ok {
		ps, err := shapeinfer.ParseShape(s)
		if err != nil {
			return &ParseError{File: r.file, Layer: l, Err: err}
		}
		dims, static := ps.ToStatic()
		if !static {
			return r.fail(l, "%w: Const shape %q is not static", ErrFormat, s)
		}
		shape = dims
	} else {
		r.warn(l, "Const without shape; shape %v taken from its output port", shape)
	}
	if et == Dynamic || et == String {
		r.warn(l, "Const of element type %s is not decoded", et)
		return nil
	}
	n, err := NumElements(shape)
	if err != nil {
		return r.fail(l, "%w: Attribute and shape size are inconsistent for Const op! (shape %v: %w)", ErrWeights, shape, inner(err))
	}
	need, err := ByteSize(et, n)
	if err != nil {
		return r.fail(l, "%w: Attribute and shape size are inconsistent for Const op! (%s%v needs more than 2^63-1 bytes, size is %d)", ErrWeights, et, shape, size)
	}
	if uint64(need) > size {
		return r.fail(l, "%w: Attribute and shape size are inconsistent for Const op! (%s%v needs %d bytes, size is %d)", ErrWeights, et, shape, need, size)
	}
	if r.weights == nil {
		if need > 0 {
			r.model.WeightsMissing = true
			return nil
		}
	} else if r.weights.size == 0 && size > 0 {
		return r.fail(l, "%w: Empty weights data in bin file or bin file cannot be found!", ErrWeights)
	} else if total := uint64(r.weights.size); offset > total || size > total-offset {
		return r.fail(l, "%w: Incorrect weights in bin file! (offset %d + size %d > %d bytes)", ErrWeights, offset, size, total)
	}
	if need > MaxTensorBytes {
		return r.fail(l, "%w: Const of %d bytes (limit %d)", ErrTooLarge, need, int64(MaxTensorBytes))
	}
	if r.skipWeights || r.maxConstBytes > 0 && need > r.maxConstBytes {
		return nil
	}
	data, err := r.weights.read(offset, need)
	if err != nil {
		return r.fail(l, "%w", inner(err))
	}
	l.Constant = &Tensor{Type: et, Shape: shape, Data: data}
	return nil
}

// read returns n bytes at offset, shared with earlier reads of the same
// range. The caller has checked the range against the file's size.
func (w *weights) read(offset uint64, n int64) ([]byte, error) {
	if w == nil || n == 0 {
		return []byte{}, nil
	}
	key := [2]uint64{offset, uint64(n)}
	if data, ok := w.shared[key]; ok {
		return data, nil
	}
	if n > w.budget {
		return nil, errorf("%w: Incorrect weights in bin file! (the Consts' ranges overlap: together they read more than twice the %d bytes of the file)", ErrWeights, w.size)
	}
	w.budget -= n
	data := alignedBytes(int(n))
	if _, err := w.r.ReadAt(data, int64(offset)); err != nil {
		return nil, errorf("%w: reading weights: %v", ErrWeights, err)
	}
	w.shared[key] = data
	return data, nil
}

// node keeps an element the reader does not interpret as data.
func (r *reader) node(el *etree.Element, l *Layer) *Node {
	n := &Node{Tag: el.FullTag()}
	for _, a := range r.attrs(el, l) {
		n.Attrs = append(n.Attrs, Attr{a.FullKey(), a.Value})
	}
	for c := range el.ChildElementsSeq() {
		n.Children = append(n.Children, r.node(c, l))
	}
	if t := strings.TrimSpace(el.Text()); t != "" {
		n.Text = t
	}
	return n
}
