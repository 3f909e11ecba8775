// Package onnx reads ONNX models (.onnx) and serialized tensors (.pb), and
// imports whole models into IR the way OpenVINO's ONNX frontend does.
//
// Any model reads, whatever its ops: Model describes its graph (inputs,
// outputs, initializers, nodes, value_info and the opset of the default
// domain), checked as onnx.checker does for what irdiv relies on (each
// name defined once, nodes in topological order). Import turns every node
// with an OpenVINO counterpart into that op (Shape into ShapeOf, Cast into
// Convert, Conv into Convolution...) and keeps the others as opaque
// layers typed and shaped where irdiv knows how; no model is refused for
// the ops it holds. Div becomes a Divide flooring integers, as OpenVINO
// writes it, or truncating them (m_pythondiv="false") where irdiv
// converts a model faithfully (Convert): ONNX's Div truncates.
//
// Subgraphs are read too (the branches of If, the bodies of Loop and
// Scan), nested within ReadOptions' caps, their nodes reading the names of
// the graphs around them as ONNX scopes them. If, Loop and Scan import as
// OpenVINO's If-8, Loop-5 and TensorIterator-1 with their bodies, whose
// Divs follow the import's mode (a Scan the import cannot map stays
// opaque).
//
// Tensors of the twelve numeric types and BOOL read from raw_data, from
// the typed fields or from external data inside the model's folder; every
// size is checked before anything is allocated, as for IR.
package onnx

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"google.golang.org/protobuf/proto"
)

// Sentinel error classes; test them with errors.Is.
var (
	// ErrFormat: the file is not a valid ONNX model or tensor.
	ErrFormat = errors.New("malformed ONNX")
	// ErrUnsupported: valid ONNX that irdiv does not read or convert
	// (string, bool or complex tensors; ops other than Div).
	ErrUnsupported = errors.New("unsupported ONNX")
	// ErrRule: a node breaks a rule of its operator's version.
	ErrRule = errors.New("invalid node")
)

func errorf(format string, args ...any) error { return pkgerr.Errorf("onnx", format, args...) }

// inFile names the file an error is about, after the one "onnx: " prefix.
func inFile(path string, err error) error {
	detail, _ := pkgerr.Detail("onnx", err)
	return errorf("%s: %w", path, detail)
}

// ReadOptions bound reading. The zero value is safe.
type ReadOptions struct {
	// MaxBytes bounds the .onnx or .pb file (default 2 GiB, protobuf's
	// limit).
	MaxBytes int64
	// MaxTensorBytes bounds each tensor (default ir.MaxTensorBytes).
	MaxTensorBytes int64
	// MaxGraphDepth bounds how deeply subgraphs (the branches of If, the
	// bodies of Loop and Scan) nest (default 8).
	MaxGraphDepth int
	// MaxNodes bounds the nodes of all graphs together, subgraphs
	// included (default 4Mi).
	MaxNodes int
}

func (o ReadOptions) maxBytes() int64       { return cmp.Or(o.MaxBytes, 2<<30-1) }
func (o ReadOptions) maxTensorBytes() int64 { return cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes) }

// Default caps of subgraphs. Real models nest bodies two or three deep
// (a Loop in an If); ops bounds nesting in the IR a little deeper, so
// that every model read here imports and infers.
const (
	DefaultMaxGraphDepth = 8
	DefaultMaxNodes      = 1 << 22
)

// Model is an ONNX model, decoded.
type Model struct {
	// Path is the file it was read from ("" for memory).
	Path      string
	IRVersion int64
	// Opset is the version of the default domain (ai.onnx), which decides
	// which version of each operator a node is.
	Opset    int64
	Producer string
	Graph    *Graph
	// DataFiles are the files external data was read from, each once,
	// inside the model's folder.
	DataFiles []string
}

// Graph is the main graph of a model, or a subgraph: the body of a
// Loop or Scan, a branch of an If.
type Graph struct {
	Name string
	// Inputs are the graph inputs that are not initializers; Outputs the
	// graph outputs.
	Inputs, Outputs []ValueInfo
	// Initializers are the constant tensors, in file order.
	Initializers []Initializer
	Nodes        []*Node
	// ValueInfos are the types and shapes the model states for
	// intermediate tensors (value_info), where it states them as tensors.
	ValueInfos []ValueInfo
	// Depth is 0 for the main graph, 1 for its subgraphs, and so on.
	Depth int
}

// ValueInfo is a graph input or output: a name, an element type and a
// partial shape (a dim_param or a missing dim_value is "?"; a missing
// shape is of dynamic rank).
type ValueInfo struct {
	Name  string
	Type  ir.ElementType
	Shape shapeinfer.Shape
	// DimNames are the dim_param of each dim ("" where a dim has none):
	// ONNX's symbolic dims, which exporters name after what they mean
	// ("batch", "height").
	DimNames []string
}

// Initializer is a named constant of the graph.
type Initializer struct {
	Name   string
	Tensor *ir.Tensor
}

// Node is one node of the graph.
type Node struct {
	Name   string
	OpType string
	Domain string // "" for the default domain
	// Index is the node's position in the graph, to name nodes without a
	// name in messages.
	Index           int
	Inputs, Outputs []string
	Attrs           map[string]*Attribute
}

// Attribute is a node attribute of the kinds irdiv reads: int, float,
// ints, floats, string, tensor and graph.
type Attribute struct {
	Kind   string // "INT", "FLOAT", "INTS", "FLOATS", "STRING", "TENSOR", "GRAPH" or another kind irdiv ignores
	Int    int64
	Float  float32
	Ints   []int64
	Floats []float32
	String string
	Tensor *ir.Tensor
	// Graph is a GRAPH attribute: a subgraph, whose nodes may read the
	// names the enclosing graphs define before its node.
	Graph *Graph
}

// String names a node in messages: node "div_1" (Div, #3).
func (n *Node) String() string {
	if n.Name == "" {
		return fmt.Sprintf("node #%d (%s)", n.Index, n.OpType)
	}
	return fmt.Sprintf("node %q (%s, #%d)", n.Name, n.OpType, n.Index)
}

// ReadFile reads an .onnx model, a regular file of at most
// ReadOptions.MaxBytes. External data is read from files inside the
// model's folder: a location, or a link on its way, that leads out of the
// folder is refused, and so is any file that is not a regular one; each
// tensor is bounded by ReadOptions.MaxTensorBytes before it is read.
func ReadFile(path string, opts ReadOptions) (*Model, error) {
	data, err := readFile(path, opts.maxBytes())
	if err != nil {
		return nil, err
	}
	m, err := decode(data, filepath.Dir(path), opts)
	if err != nil {
		return nil, inFile(path, err)
	}
	m.Path = path
	return m, nil
}

// Read decodes an .onnx model held in memory; it may not use external
// data.
func Read(data []byte, opts ReadOptions) (*Model, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, errorf("%w: the model has %d bytes, more than the %d allowed (ReadOptions.MaxBytes)", ir.ErrLimit, len(data), opts.maxBytes())
	}
	return decode(data, "", opts)
}

func decode(data []byte, dir string, opts ReadOptions) (*Model, error) {
	var mp onnxpb.ModelProto
	if err := proto.Unmarshal(data, &mp); err != nil {
		return nil, errorf("%w: not a ModelProto: %v", ErrFormat, err)
	}
	if mp.GetGraph() == nil {
		return nil, errorf("%w: the model has no graph", ErrFormat)
	}
	m := &Model{IRVersion: mp.GetIrVersion(), Producer: mp.GetProducerName()}
	if v := mp.GetProducerVersion(); v != "" {
		m.Producer += " " + v
	}
	haveOpset := false
	for _, op := range mp.GetOpsetImport() {
		if d := op.GetDomain(); d == "" || d == "ai.onnx" {
			m.Opset, haveOpset = op.GetVersion(), true
		}
	}
	if !haveOpset {
		// IR version 1 and 2 models predate opset_import and mean opset 1.
		if m.IRVersion >= 3 {
			return nil, errorf("%w: the model imports no opset of the default domain", ErrFormat)
		}
		m.Opset = 1
	}
	r := &tensorReader{dir: dir, maxBytes: opts.maxTensorBytes()}
	gr := &graphReader{r: r, maxDepth: cmp.Or(opts.MaxGraphDepth, DefaultMaxGraphDepth), maxNodes: cmp.Or(opts.MaxNodes, DefaultMaxNodes)}
	g, err := gr.graph(mp.GetGraph(), nil, 0)
	if err != nil {
		return nil, err
	}
	m.Graph = g
	m.DataFiles = r.files
	return m, nil
}

// graphReader reads a graph and its subgraphs within the caps.
type graphReader struct {
	r                  *tensorReader
	maxDepth, maxNodes int
	nodes              int // the nodes read so far, in all graphs
}

// graph reads a graph at the given depth (0 for the main graph), inside
// the scope of the graphs that enclose it.
func (gr *graphReader) graph(gp *onnxpb.GraphProto, outer *scope, depth int) (*Graph, error) {
	r := gr.r
	if gr.nodes += len(gp.GetNode()); gr.nodes > gr.maxNodes {
		return nil, errorf("%w: the model has more than %d nodes (ReadOptions.MaxNodes)", ir.ErrLimit, gr.maxNodes)
	}
	if err := checkGraph(gp, outer); err != nil {
		return nil, err
	}
	g := &Graph{Name: gp.GetName(), Depth: depth}
	local := &scope{names: make(map[string]bool), parent: outer}
	isInit := make(map[string]bool)
	for i, tp := range gp.GetInitializer() {
		if tp.GetName() == "" {
			return nil, errorf("%w: initializer #%d has no name", ErrFormat, i)
		}
		t, err := r.tensor(tp, fmt.Sprintf("initializer %q", tp.GetName()))
		if err != nil {
			return nil, err
		}
		g.Initializers = append(g.Initializers, Initializer{tp.GetName(), t})
		isInit[tp.GetName()] = true
		local.names[tp.GetName()] = true
	}
	if len(gp.GetSparseInitializer()) > 0 {
		return nil, errorf("%w: sparse initializers", ErrUnsupported)
	}
	for _, vi := range gp.GetInput() {
		if isInit[vi.GetName()] {
			continue // IR version < 4 lists initializers among the inputs
		}
		v, err := valueInfo(vi, "input", depth > 0)
		if err != nil {
			return nil, err
		}
		g.Inputs = append(g.Inputs, v)
		local.names[v.Name] = true
	}
	for _, vi := range gp.GetOutput() {
		v, err := valueInfo(vi, "output", depth > 0)
		if err != nil {
			return nil, err
		}
		g.Outputs = append(g.Outputs, v)
	}
	for _, vi := range gp.GetValueInfo() {
		if v, err := valueInfo(vi, "value_info", false); err == nil {
			g.ValueInfos = append(g.ValueInfos, v)
		}
	}
	for i, np := range gp.GetNode() {
		n := &Node{Name: np.GetName(), OpType: np.GetOpType(), Domain: np.GetDomain(), Index: i,
			Inputs: np.GetInput(), Outputs: np.GetOutput(), Attrs: make(map[string]*Attribute)}
		if n.Domain == "ai.onnx" {
			n.Domain = ""
		}
		for _, ap := range np.GetAttribute() {
			a, err := attribute(ap, n, r)
			if err != nil {
				return nil, err
			}
			if sub := ap.GetG(); sub != nil && ap.GetType() == onnxpb.AttributeProto_GRAPH {
				if depth+1 > gr.maxDepth {
					return nil, errorf("%w: %s attribute %q: subgraphs nest more than %d deep (ReadOptions.MaxGraphDepth)", ir.ErrLimit, n, ap.GetName(), gr.maxDepth)
				}
				if a.Graph, err = gr.graph(sub, local, depth+1); err != nil {
					if errors.Is(err, ir.ErrLimit) {
						return nil, err // the cap, not this node, is the cause
					}
					d, _ := pkgerr.Detail("onnx", err)
					return nil, errorf("%s attribute %q: %w", n, ap.GetName(), d)
				}
			}
			n.Attrs[ap.GetName()] = a
		}
		g.Nodes = append(g.Nodes, n)
		for _, out := range n.Outputs {
			if out != "" {
				local.names[out] = true
			}
		}
	}
	return g, nil
}

// notTensor says what a graph input or output of type t is, t not being
// a tensor, and why irdiv, as OpenVINO, has no IR for it: an OpenVINO
// model's Parameters and Results are tensors. OpenVINO's ONNX frontend
// keeps a sequence only between nodes, as a SequenceMark that
// ConcatFromSequence or SequenceAt must resolve into tensors
// (src/frontends/onnx/docs/supported_ops.md: "Supported only in certain
// patterns"), and converts no optional value (Optional,
// OptionalHasElement and OptionalGetElement have no supported version
// there); its own tests of ONNX's test_if_seq, test_loop13_seq, test_if_opt
// and test_loop16_seq_none are marked failing.
func notTensor(t *onnxpb.TypeProto) string {
	const edge = "an OpenVINO model's inputs and outputs are tensors"
	switch t.GetValue().(type) {
	case *onnxpb.TypeProto_SequenceType:
		return "is a sequence, not a tensor: " + edge + ", and OpenVINO's ONNX frontend keeps a sequence only between nodes (a SequenceMark, which ConcatFromSequence or SequenceAt must turn into tensors), so OpenVINO has no model of it"
	case *onnxpb.TypeProto_OptionalType:
		return "is an optional, not a tensor: " + edge + ", and OpenVINO's ONNX frontend converts no optional value (it supports no version of Optional, OptionalHasElement or OptionalGetElement), so OpenVINO has no model of it"
	case *onnxpb.TypeProto_MapType:
		return "is a map, not a tensor: " + edge + ", and OpenVINO has no map type"
	case *onnxpb.TypeProto_SparseTensorType:
		return "is a sparse tensor, not a tensor: " + edge + ", and OpenVINO has no sparse tensor type"
	}
	return "is not a tensor: it has no type"
}

// valueInfo reads a graph input or output. A subgraph's (lenient) may
// leave its type out, as ONNX allows there: its type is then dynamic and
// its rank unknown.
func valueInfo(vi *onnxpb.ValueInfoProto, what string, lenient bool) (ValueInfo, error) {
	v := ValueInfo{Name: vi.GetName()}
	tt := vi.GetType().GetTensorType()
	untyped := lenient && (vi.GetType() == nil || tt != nil && tt.GetElemType() == 0)
	if untyped {
		v.Type, v.Shape = ir.Dynamic, shapeinfer.DynamicRankShape()
		if tt == nil || tt.GetShape() == nil {
			return v, nil
		}
	} else if tt == nil {
		return v, errorf("%w: %s %q %s", ErrUnsupported, what, v.Name, notTensor(vi.GetType()))
	}
	if !untyped {
		t, err := elementType(tt.GetElemType(), fmt.Sprintf("%s %q", what, v.Name))
		if err != nil {
			return v, err
		}
		v.Type = t
	}
	if tt.GetShape() == nil {
		v.Shape = shapeinfer.DynamicRankShape()
		return v, nil
	}
	v.Shape = shapeinfer.Shape{Dims: []shapeinfer.Dim{}}
	for _, d := range tt.GetShape().GetDim() {
		dim := shapeinfer.Dynamic()
		switch dv := d.Value.(type) {
		case *onnxpb.TensorShapeProto_Dimension_DimValue:
			if dv.DimValue < 0 {
				return v, errorf("%w: %s %q has dim_value %d", ErrFormat, what, v.Name, dv.DimValue)
			}
			dim = shapeinfer.Static(dv.DimValue)
		}
		v.Shape.Dims = append(v.Shape.Dims, dim)
		v.DimNames = append(v.DimNames, d.GetDimParam())
	}
	return v, nil
}

func attribute(ap *onnxpb.AttributeProto, n *Node, r *tensorReader) (*Attribute, error) {
	a := &Attribute{Kind: ap.GetType().String()}
	switch ap.GetType() {
	case onnxpb.AttributeProto_INT:
		a.Int = ap.GetI()
	case onnxpb.AttributeProto_FLOAT:
		a.Float = ap.GetF()
	case onnxpb.AttributeProto_INTS:
		a.Ints = ap.GetInts()
	case onnxpb.AttributeProto_FLOATS:
		a.Floats = ap.GetFloats()
	case onnxpb.AttributeProto_STRING:
		a.String = string(ap.GetS())
	case onnxpb.AttributeProto_TENSOR:
		if n.OpType != "Constant" && n.OpType != "ConstantOfShape" {
			return a, nil // a tensor attribute irdiv never uses stays unread
		}
		t, err := r.tensor(ap.GetT(), fmt.Sprintf("%s attribute %q", n, ap.GetName()))
		if err != nil {
			return nil, err
		}
		a.Tensor = t
	case onnxpb.AttributeProto_UNDEFINED:
		// IR version 1 models give no type: infer it from the field set.
		switch {
		case ap.I != nil:
			a.Kind, a.Int = "INT", ap.GetI()
		case ap.F != nil:
			a.Kind, a.Float = "FLOAT", ap.GetF()
		case len(ap.GetInts()) > 0:
			a.Kind, a.Ints = "INTS", ap.GetInts()
		}
	}
	return a, nil
}

// sortedKeys returns a node's attribute names in order, so that what is
// read from them does not depend on map order.
func sortedKeys(attrs map[string]*Attribute) []string {
	return slices.Sorted(maps.Keys(attrs))
}

// isUnsupported reports whether ops does not know a layer's type.
func isUnsupported(err error) bool { return errors.Is(err, ops.ErrUnsupportedOp) }

// onnxType converts Cast's "to" to a TensorProto.DataType.
func onnxType(to int64) onnxpb.TensorProto_DataType { return onnxpb.TensorProto_DataType(to) }
