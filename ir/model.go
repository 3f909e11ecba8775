// Package ir reads and writes OpenVINO IR v10 and v11 models (.xml + .bin).
//
// Reading is tolerant of real converter output (input ports without
// precision, Const output port id 1, shapes written with spaces, Divide
// without <data>, <meta_data> instead of <rt_info>, Loop and If bodies) and
// strict about malformed files: every size is checked before anything is
// allocated, and every error names the file and the layer, with OpenVINO's
// wording where OpenVINO has one ("Incorrect weights in bin file!").
//
// The XML is read and written with github.com/beevik/etree, the design
// card's choice: one pass of etree over the document, no path queries
// (the reader iterates each element's children and reads its attributes
// once), caps checked as elements arrive where etree allows. xml.go holds
// the XML side (parsing within the caps, the serializer's layout) and
// knows nothing of IR; read.go and write.go know IR and walk etree trees.
//
// ReadFile opens regular files only (a named pipe or a device is refused
// at once) and is bounded: the size of the .xml is checked before it is
// read, the XML nodes (elements plus attributes) before etree builds its
// tree (by a count of '<' and '=', or when that is over the cap by a
// bounded pre-scan with encoding/xml), the nesting by etree as it parses,
// the layers, ports and edges on the tree before any of it becomes a
// model, and Const data never adds up to more than twice the weights
// file. A ParseError gives the line of malformed XML and of the element
// that breaks a cap. Reading, checking and writing take time linear in
// the size of the model. Repeated attributes keep the first value, as in
// OpenVINO's parser.
//
// The lookups of a Model (LayerByID, LayerByName, Input) look its exported
// fields through on every call, so they see every edit; Sources gives the
// wiring of a whole model in one pass.
//
// Writing follows OpenVINO's serializer: tabs, " />", its attribute orders,
// edges sorted, and constants packed into the .bin back to back without
// alignment, identical byte runs stored once. Encode builds an etree
// document, which etree indents and writes; what etree has no setting for
// (" />", the serializer's character references) is respelt after.
//
// Tensor data is little-endian; irdiv supports little-endian hosts only.
package ir

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/shapeinfer"
)

// Attr is one XML attribute, kept in file order.
type Attr struct {
	Name, Value string
}

// Node is an XML element kept as data: rt_info, meta_data, port maps and
// anything else irdiv does not interpret, written back as it was read.
type Node struct {
	Tag      string
	Attrs    []Attr
	Children []*Node
	Text     string
}

// Attr returns the value of the named attribute and whether it is present.
func (n *Node) Attr(name string) (string, bool) { return lookup(n.Attrs, name) }

// Child returns the first child with the given tag, or nil.
func (n *Node) Child(tag string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Tag == tag {
			return c
		}
	}
	return nil
}

func lookup(attrs []Attr, name string) (string, bool) {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Port is an input or output port of a layer.
type Port struct {
	ID uint64
	// Precision is the precision attribute as written; "" when absent.
	Precision string
	// Type is the element type: from Precision, or, for an input port
	// without one, from the output port that feeds it.
	Type ElementType
	// Dims are the <dim> values; -1 is a dynamic dimension. A port without
	// dims is a scalar (or of dynamic rank).
	Dims []int64
	// Names are the tensor names of an output port.
	Names  []string
	RTInfo *Node
	// DynamicRank marks a port whose rank is unknown, which IR files
	// cannot tell from a scalar (a port without dims): it is set by
	// importers, in memory, and written as no dims.
	DynamicRank bool
	// Source is what the model an importer read states about this
	// output (an ONNX value_info or graph output), where it states
	// something: validate compares it with inference as it compares the
	// port an IR file declares. Set by importers, in memory, never
	// written.
	Source *SourceDecl
}

// SourceDecl is what a source model states about a tensor: its type
// (Dynamic when unstated) and shape.
type SourceDecl struct {
	// What names the statement in messages: `value_info "t"`, `graph
	// output "y"`.
	What  string
	Type  ElementType
	Shape shapeinfer.Shape
}

// Shape returns the declared port shape.
func (p *Port) Shape() shapeinfer.Shape {
	if p.DynamicRank {
		return shapeinfer.DynamicRankShape()
	}
	s := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(p.Dims))}
	for i, d := range p.Dims {
		if d < 0 {
			s.Dims[i] = shapeinfer.Dynamic()
		} else {
			s.Dims[i] = shapeinfer.Static(d)
		}
	}
	return s
}

// Layer is one <layer> of the model.
type Layer struct {
	ID                  uint64
	Name, Type, Version string
	// Attrs are the <layer> attributes other than id, name, type and
	// version (output_names on a v11 Result, for example).
	Attrs []Attr
	// Data are the attributes of <data>, in file order.
	Data    []Attr
	RTInfo  *Node
	Inputs  []*Port // matched to edges by position, as OpenVINO does
	Outputs []*Port
	// Extra are the children after <output>: port maps and, parsed as
	// models of their own, the bodies of Loop, TensorIterator and If.
	Extra []Extra
	// Constant is the value of a Const, read from the weights. It is nil
	// when the weights file was absent or not read. Consts stored at the
	// same place in the weights share their data.
	Constant *Tensor
}

// Extra is a child element of a layer after its ports: either a body
// (Body set, Node.Tag naming it) or a node kept as data.
type Extra struct {
	Node *Node
	Body *Model
}

// DataAttr returns the value of a <data> attribute and whether it is present.
func (l *Layer) DataAttr(name string) (string, bool) { return lookup(l.Data, name) }

// SetDataAttr sets a <data> attribute, keeping the position of an existing one.
func (l *Layer) SetDataAttr(name, value string) {
	for i := range l.Data {
		if l.Data[i].Name == name {
			l.Data[i].Value = value
			return
		}
	}
	l.Data = append(l.Data, Attr{name, value})
}

// String names the layer as errors do: layer "div_3" (id 7). A name
// longer than 200 bytes is cut, so that messages stay readable.
func (l *Layer) String() string {
	name := l.Name
	if len(name) > 200 {
		name = strings.ToValidUTF8(name[:200], "") + "..."
	}
	return fmt.Sprintf("layer %q (id %d)", name, l.ID)
}

// Edge connects an output port to an input port, by layer and port ids.
type Edge struct {
	FromLayer, FromPort, ToLayer, ToPort uint64
}

// Output names one output of a layer.
type Output struct {
	Layer *Layer
	Index int
}

// Port returns the output port.
func (o Output) Port() *Port { return o.Layer.Outputs[o.Index] }

// Model is an IR model or the body of a Loop, TensorIterator or If.
type Model struct {
	Name    string
	Version int // 10 or 11; 0 writes as 11
	Layers  []*Layer
	Edges   []Edge
	// Meta holds the top-level elements after <edges>: <rt_info>,
	// <meta_data>, <quantization_parameters>, kept as read.
	Meta []*Node
	// Warnings are the tolerated irregularities found while reading.
	Warnings []string
	// WeightsMissing is set when the model was read without a weights file
	// or with ReadOptions.SkipWeights; its Consts then have no Constant.
	WeightsMissing bool

	ids idCache // AddLayer's next free id
}

// graphIndex finds layers by id and ports by id in time independent of
// the model's size: the first layer of each id, and within a layer the
// first port of each id (by a scan for the few ports most layers have, by
// a map for a layer with many).
type graphIndex struct {
	layers []*Layer
	byID   map[uint64]int // position in layers of the first layer of each id
	inBase []int          // where each layer's inputs start in a flat array of all inputs
	many   map[portKey]int
}

// portKey names a port of a layer with many ports: its layer's position,
// direction and id.
type portKey struct {
	layer  int
	port   uint64
	output bool
}

// manyPorts is the port count above which a layer's ports are found by
// map rather than by scanning them.
const manyPorts = 16

func newGraphIndex(layers []*Layer) *graphIndex {
	g := &graphIndex{layers: layers, byID: make(map[uint64]int, len(layers)), inBase: make([]int, len(layers)+1)}
	for i, l := range layers {
		if _, dup := g.byID[l.ID]; !dup {
			g.byID[l.ID] = i
		}
		g.inBase[i+1] = g.inBase[i] + len(l.Inputs)
		for out, ports := range [2][]*Port{l.Inputs, l.Outputs} {
			if len(ports) <= manyPorts {
				continue
			}
			if g.many == nil {
				g.many = make(map[portKey]int)
			}
			for j, p := range ports {
				k := portKey{i, p.ID, out == 1}
				if _, dup := g.many[k]; !dup {
					g.many[k] = j
				}
			}
		}
	}
	return g
}

// layer returns the position of the layer with the given id.
func (g *graphIndex) layer(id uint64) (int, bool) {
	i, ok := g.byID[id]
	return i, ok
}

// port returns the position of port id among the inputs or outputs of
// the layer at position i.
func (g *graphIndex) port(i int, id uint64, output bool) (int, bool) {
	ports := g.layers[i].Inputs
	if output {
		ports = g.layers[i].Outputs
	}
	if len(ports) > manyPorts {
		j, ok := g.many[portKey{i, id, output}]
		return j, ok
	}
	for j, p := range ports {
		if p.ID == id {
			return j, true
		}
	}
	return 0, false
}

// edge resolves an edge to the positions of its layers and ports; ok is
// false when any of them is missing.
func (g *graphIndex) edge(e Edge) (from, out, to, in int, ok bool) {
	var okFrom, okTo, okOut, okIn bool
	from, okFrom = g.layer(e.FromLayer)
	to, okTo = g.layer(e.ToLayer)
	if okFrom {
		out, okOut = g.port(from, e.FromPort, true)
	}
	if okTo {
		in, okIn = g.port(to, e.ToPort, false)
	}
	return from, out, to, in, okFrom && okTo && okOut && okIn
}

// LayerByID returns the layer with the given id, or nil. It looks the
// layers through; for many look-ups, keep a map.
func (m *Model) LayerByID(id uint64) *Layer {
	for _, l := range m.Layers {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// LayerByName returns the first layer with the given name, or nil.
// OpenVINO allows several layers to share a name.
func (m *Model) LayerByName(name string) *Layer {
	for _, l := range m.Layers {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Input returns the output that feeds input i of l; ok is false when that
// input is not connected. It looks the edges through; Sources answers for
// every layer at once.
func (m *Model) Input(l *Layer, i int) (Output, bool) {
	if i < 0 || i >= len(l.Inputs) {
		return Output{}, false
	}
	for _, e := range m.Edges {
		if e.ToLayer != l.ID || e.ToPort != l.Inputs[i].ID {
			continue
		}
		for _, from := range m.Layers {
			if from.ID != e.FromLayer {
				continue
			}
			for j, p := range from.Outputs {
				if p.ID == e.FromPort {
					return Output{from, j}, true
				}
			}
		}
	}
	return Output{}, false
}

// Sources returns, for every layer with inputs, the outputs that feed
// them by input position (a zero Output where an input is not connected).
// It is a snapshot of the edges: after editing the model, call it again.
func (m *Model) Sources() map[*Layer][]Output {
	return m.sources(newGraphIndex(m.Layers))
}

func (m *Model) sources(g *graphIndex) map[*Layer][]Output {
	sources := make(map[*Layer][]Output, len(m.Layers))
	for _, e := range m.Edges {
		from, oi, to, ii, ok := g.edge(e)
		if !ok {
			continue
		}
		l := m.Layers[to]
		in := sources[l]
		if in == nil {
			in = make([]Output, len(l.Inputs))
			sources[l] = in
		}
		if in[ii].Layer == nil {
			in[ii] = Output{m.Layers[from], oi}
		}
	}
	return sources
}

// Parameters returns the Parameter layers in model order.
func (m *Model) Parameters() []*Layer { return m.layersOfType("Parameter") }

// AllLayers returns the layers of m and those of its layers' bodies (If,
// Loop, TensorIterator), at any depth: m's first, in file order, then
// each body's after the layer that holds it. A stack, not a recursion.
func (m *Model) AllLayers() []*Layer {
	var out []*Layer
	stack := []*Model{m}
	for len(stack) > 0 {
		b := stack[0]
		stack = stack[1:]
		out = append(out, b.Layers...)
		for _, l := range b.Layers {
			for _, x := range l.Extra {
				if x.Body != nil {
					stack = append(stack, x.Body)
				}
			}
		}
	}
	return out
}

// Results returns the Result layers in model order.
func (m *Model) Results() []*Layer { return m.layersOfType("Result") }

func (m *Model) layersOfType(typ string) []*Layer {
	var out []*Layer
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, typ) {
			out = append(out, l)
		}
	}
	return out
}

// Check verifies the graph: unique layer ids, unique port ids within each
// layer's inputs and outputs, edges between existing layers and ports, at
// most one edge into each input port, and no cycle.
func (m *Model) Check() error { return m.check(newGraphIndex(m.Layers)) }

func (m *Model) check(g *graphIndex) error {
	for i, l := range m.Layers {
		if first := g.byID[l.ID]; first != i {
			return errorf("%w: %s and %s share an id", ErrGraph, m.Layers[first], l)
		}
		for out, ports := range [2][]*Port{l.Inputs, l.Outputs} {
			for j, p := range ports {
				if k, _ := g.port(i, p.ID, out == 1); k != j {
					return errorf("%w: %s declares %s port %d twice", ErrGraph, l, [2]string{"input", "output"}[out], p.ID)
				}
			}
		}
	}
	fed := make([]bool, g.inBase[len(m.Layers)])
	for _, e := range m.Edges {
		from, fromOK := g.layer(e.FromLayer)
		to, toOK := g.layer(e.ToLayer)
		switch {
		case !fromOK:
			return errorf("%w: Attempt to access node %d that not in graph.", ErrGraph, e.FromLayer)
		case !toOK:
			return errorf("%w: Attempt to access node %d that not in graph.", ErrGraph, e.ToLayer)
		}
		if _, ok := g.port(from, e.FromPort, true); !ok {
			return errorf("%w: Can not find output port with id %d in layer %s", ErrGraph, e.FromPort, m.Layers[from].Name)
		}
		in, ok := g.port(to, e.ToPort, false)
		if !ok {
			return errorf("%w: Can not find input port with id %d in layer %s", ErrGraph, e.ToPort, m.Layers[to].Name)
		}
		k := g.inBase[to] + in
		if fed[k] {
			l := m.Layers[to]
			return errorf("%w: %s layer %s with id: %d is inconsistent! (input port %d has two edges)", ErrGraph, l.Type, l.Name, l.ID, e.ToPort)
		}
		fed[k] = true
	}
	_, err := m.topoOrder(g)
	return err
}

// TopoOrder returns the layers in a topological order that keeps file order
// among independent layers, or an error naming a layer on a cycle.
func (m *Model) TopoOrder() ([]*Layer, error) {
	return m.topoOrder(newGraphIndex(m.Layers))
}

func (m *Model) topoOrder(g *graphIndex) ([]*Layer, error) {
	indeg := make([]int, len(m.Layers))
	next := make([][]int, len(m.Layers))
	for _, e := range m.Edges {
		from, okFrom := g.layer(e.FromLayer)
		to, okTo := g.layer(e.ToLayer)
		if !okFrom || !okTo {
			continue
		}
		next[from] = append(next[from], to)
		indeg[to]++
	}
	order := make([]*Layer, 0, len(m.Layers))
	var ready []int
	for i := range m.Layers {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		order = append(order, m.Layers[i])
		for _, j := range next[i] {
			if indeg[j]--; indeg[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	if len(order) != len(m.Layers) {
		for i, d := range indeg {
			if d > 0 {
				return nil, errorf("%w: cycle through %s", ErrGraph, m.Layers[i])
			}
		}
	}
	return order, nil
}

// Unreachable returns the layers from which no Result (or Assign) can be
// reached. OpenVINO drops them silently when it reads a model.
func (m *Model) Unreachable() []*Layer {
	sources := m.Sources()
	live := make(map[*Layer]bool, len(m.Layers))
	var stack []*Layer
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Result") || strings.EqualFold(l.Type, "Assign") {
			live[l] = true
			stack = append(stack, l)
		}
	}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, in := range sources[l] {
			if in.Layer != nil && !live[in.Layer] {
				live[in.Layer] = true
				stack = append(stack, in.Layer)
			}
		}
	}
	var dead []*Layer
	for _, l := range m.Layers {
		if !live[l] {
			dead = append(dead, l)
		}
	}
	return dead
}

// MetaValue looks up a value of the model's metadata by path, in <rt_info>
// or, for files written by the Model Optimizer, <meta_data>, where
// "conversion_parameters" is spelt "cli_parameters". An element's value is
// its value attribute.
func (m *Model) MetaValue(path ...string) (string, bool) {
	for _, top := range m.Meta {
		if top.Tag != "rt_info" && top.Tag != "meta_data" {
			continue
		}
		n := top
		for i, p := range path {
			c := n.Child(p)
			if c == nil && i == 0 && p == "conversion_parameters" {
				c = n.Child("cli_parameters")
			}
			if n = c; n == nil {
				break
			}
		}
		if n != nil {
			if v, ok := n.Attr("value"); ok {
				return v, true
			}
		}
	}
	return "", false
}

// Producer returns the version of the tool that wrote the model, if recorded.
func (m *Model) Producer() string {
	for _, key := range []string{"Runtime_version", "MO_version"} {
		if v, ok := m.MetaValue(key); ok {
			return v
		}
	}
	return ""
}

// Framework returns the source framework recorded by the converter
// ("onnx", "pytorch", "tf"...), or "".
func (m *Model) Framework() string {
	v, _ := m.MetaValue("conversion_parameters", "framework")
	return v
}
