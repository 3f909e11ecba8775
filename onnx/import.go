package onnx

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// ImportOptions configure Import. The zero value imports a model as
// OpenVINO's ONNX frontend does.
type ImportOptions struct {
	// Faithful writes integer Divs with m_pythondiv="false", so that the
	// model computes what ONNX specifies (Div truncates integers). The
	// default writes m_pythondiv="true", the flooring Divide OpenVINO's
	// frontend writes for every Div.
	Faithful bool
	// MaxFoldBytes bounds the constants computed while importing (shape
	// vectors, axes); 0 means 1 MiB.
	MaxFoldBytes int64
}

// Import turns a whole ONNX model into an IR v11 model the way
// OpenVINO's ONNX frontend does: each node of the default domain that has
// an OpenVINO counterpart becomes that op, with OpenVINO's attribute
// names, in the opset OpenVINO uses (Shape becomes ShapeOf-3, Cast
// Convert, Where Select, Clip Clamp or Minimum and Maximum, Conv
// Convolution with its bias added...); every other node, of any domain,
// becomes an opaque layer of its op type, version "<domain>" (ai.onnx for
// the default), its ONNX attributes kept and its outputs typed and shaped
// from the model's value_info or left dynamic. No model is refused for
// the ops it holds.
//
// Initializers and Constant nodes become Const, graph inputs Parameter,
// graph outputs Result; ONNX tensor names become the names of the output
// ports (Identity and Dropout pass their input on, as OpenVINO does), and
// each node's main layer is named after the node. The model's rt_info
// records framework=onnx, the opset and the source file.
//
// A node that breaks a rule its operator's version states (Div's types
// and legacy broadcast, attributes an op requires) fails with ErrRule
// naming the node.
func Import(m *Model, opts ImportOptions) (*ir.Model, error) {
	out, err := importModel(m, opts)
	if err != nil && m.Path != "" {
		return nil, inFile(m.Path, err)
	}
	return out, err
}

// Convert imports a model faithfully: Import with Faithful set, the IR
// irdiv converts an ONNX model to.
func Convert(m *Model) (*ir.Model, error) { return Import(m, ImportOptions{Faithful: true}) }

// tensor is an ONNX tensor imported: where it is, and what it is.
type tensor struct {
	out  ir.Output
	info ops.ValueInfo
}

type importer struct {
	src      *Model
	m        *ir.Model
	opts     ImportOptions
	opset    int64
	tensors  map[string]tensor
	declared map[string]ValueInfo // value_info and graph outputs, by name
	outputs  map[string]bool      // the graph outputs, by name
	node     *Node                // the node being imported
	// fromShape holds the values folded from the static shape of a
	// tensor that is not constant (a ShapeOf, and what is computed from
	// it), which an op whose inference they fail is inferred without.
	fromShape map[*ir.Tensor]bool
	names     map[string]int // layer names used, to keep them unique
	named     []string       // the names given, in order, for rollback
	// parent imports the graph that encloses this subgraph (nil for the
	// main graph); outer lists the names of enclosing graphs this
	// subgraph reads, each through a Parameter of its own.
	parent *importer
	outer  []outerRef
	// scanWhy says why a Scan node stays opaque (keepScan).
	scanWhy map[*Node]string
}

func importModel(m *Model, opts ImportOptions) (*ir.Model, error) {
	if err := namesFitXML(m.Graph); err != nil {
		return nil, err
	}
	name := cmp.Or(m.Graph.Name, strings.TrimSuffix(filepath.Base(m.Path), filepath.Ext(m.Path)), "onnx")
	im := &importer{
		src: m, m: &ir.Model{Name: name, Version: 11}, opts: opts, opset: m.Opset,
		tensors: make(map[string]tensor), declared: make(map[string]ValueInfo), names: make(map[string]int), outputs: make(map[string]bool),
	}
	for _, v := range m.Graph.ValueInfos {
		im.declared[v.Name] = v
	}
	for _, v := range m.Graph.Outputs {
		im.declared[v.Name] = v
		im.outputs[v.Name] = true
	}
	for _, in := range m.Graph.Inputs {
		l := im.m.AddParameter(in.Name, in.Type, in.Shape)
		im.name(l, in.Name)
		im.tensors[in.Name] = tensor{ir.Output{Layer: l}, ops.ValueInfo{Type: in.Type, Shape: in.Shape}}
	}
	for _, init := range m.Graph.Initializers {
		im.constant(init.Name, init.Name, init.Tensor)
	}
	for _, n := range m.Graph.Nodes {
		im.node = n
		if err := im.importNode(n); err != nil {
			return nil, err
		}
	}
	for _, o := range m.Graph.Outputs {
		src, ok := im.tensors[o.Name]
		if !ok {
			return nil, errorf("%w: graph output %q is produced by no node", ErrFormat, o.Name)
		}
		im.m.AddResult(o.Name, src.out)
	}
	im.m.Meta = append(im.m.Meta, &ir.Node{Tag: "rt_info", Children: []*ir.Node{
		{Tag: "conversion_parameters", Children: []*ir.Node{
			{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: "onnx"}}},
			{Tag: "input_model", Attrs: []ir.Attr{{Name: "value", Value: m.Path}}},
			{Tag: "opset", Attrs: []ir.Attr{{Name: "value", Value: strconv.FormatInt(m.Opset, 10)}}},
		}},
	}})
	return im.m, nil
}

// name gives l a name no other layer has, as OpenVINO's serializer
// requires of friendly names it writes.
func (im *importer) name(l *ir.Layer, want string) {
	want = cmp.Or(want, l.Type)
	name := want
	for im.names[name] > 0 {
		name = fmt.Sprintf("%s_%d", want, im.names[want])
		im.names[want]++
	}
	im.names[name]++
	im.named = append(im.named, name)
	l.Name = name
}

// mark is how far the import had gone: what rollback returns to.
type mark struct{ layers, edges, named, outer int }

func (im *importer) mark() mark {
	return mark{len(im.m.Layers), len(im.m.Edges), len(im.named), len(im.outer)}
}

// rollback removes what the import added since k: layers, their edges and
// names, and the Parameters a subgraph made for outer names. A converter
// that gives up on a node (which then stays opaque) may have added layers
// on the way, such as a weights Reshape that failed, which would
// otherwise stay in the model half-built (no output ports) and make an
// IR that cannot be read back.
func (im *importer) rollback(k mark) {
	im.m.Layers = im.m.Layers[:k.layers]
	im.m.Edges = im.m.Edges[:k.edges]
	for _, name := range im.named[k.named:] {
		if im.names[name]--; im.names[name] <= 0 {
			delete(im.names, name)
		}
	}
	im.named = im.named[:k.named]
	for _, r := range im.outer[k.outer:] {
		delete(im.tensors, r.name)
	}
	im.outer = im.outer[:k.outer]
}

// nodeName is the name of a node's main layer: the node's, or its first
// output's.
func nodeName(n *Node) string {
	if n.Name != "" {
		return n.Name
	}
	for _, o := range n.Outputs {
		if o != "" {
			return o
		}
	}
	return fmt.Sprintf("%s_%d", n.OpType, n.Index)
}

// constant adds a Const named name for the ONNX tensor tensorName ("" for
// a constant the import makes).
func (im *importer) constant(name, tensorName string, t *ir.Tensor) tensor {
	l := im.m.AddConst(name, t)
	im.name(l, name)
	tn := tensor{ir.Output{Layer: l}, ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}}
	if tensorName != "" {
		l.Outputs[0].Names = []string{tensorName}
		im.tensors[tensorName] = tn
	}
	return tn
}

// ints adds a Const of i64 values: a vector, or a scalar when scalar is set.
func (im *importer) ints(suffix string, scalar bool, vs ...int64) tensor {
	shape := []int64{int64(len(vs))}
	if scalar {
		shape = []int64{}
	}
	t, _ := ir.TensorOf(ir.I64, shape, vs)
	return im.constant(nodeName(im.node)+"/"+suffix, "", t)
}

// add appends an OpenVINO layer to the model: ops infers its outputs from
// the inputs, and folds them when every input is known and the result is
// small, as OpenVINO's constant folding does.
func (im *importer) add(typ, opset, suffix string, data []ir.Attr, ins ...tensor) ([]tensor, error) {
	srcs := make([]ir.Output, len(ins))
	infos := make([]ops.ValueInfo, len(ins))
	for i, in := range ins {
		srcs[i], infos[i] = in.out, in.info
	}
	name := nodeName(im.node)
	if suffix != "" {
		name += "/" + suffix
	}
	l := im.m.AddLayer(typ, opset, "", data, srcs, nil)
	im.name(l, name)
	op, err := ops.New(l)
	if err != nil {
		return nil, im.fail(err)
	}
	outs, err := op.Infer(infos)
	if err != nil {
		// Inferred again without the values computed from the shapes of
		// tensors that are not constant: the import goes on as it did
		// before it knew them, and the layer fails where it runs (a
		// Reshape of Shape(x) to another number of elements, which
		// validate reports).
		stripped := false
		ins = slices.Clone(ins) // the caller's stay as they are
		for i, in := range ins {
			if in.info.Value != nil && im.fromShape[in.info.Value] {
				infos[i].Value, stripped = nil, true
				ins[i].info.Value = nil
			}
		}
		if stripped {
			outs, err = op.Infer(infos)
		}
		if err != nil {
			return nil, im.fail(&ops.LayerError{Layer: l, Err: err})
		}
	}
	if _, ok := op.(*ops.ShapeOf); ok && infos[0].Value == nil {
		// The shape of a static input is known whatever its values, as
		// InferModel and OpenVINO's shape inference (bounds) know it: an
		// Expand to ConstantOfShape(Shape(x)) then keeps its rank.
		if folded, err := ops.InferFold(op, infos); err == nil && folded[0].Value != nil {
			outs = folded
			im.markFromShape(outs[0].Value)
		}
	}
	im.fold(op, ins, outs)
	result := make([]tensor, len(outs))
	for i, info := range outs {
		l.Outputs = append(l.Outputs, &ir.Port{ID: uint64(len(ins) + i), Type: info.Type, Precision: info.Type.Precision(), Dims: ir.PortDims(info.Shape), DynamicRank: info.Shape.DynamicRank})
		result[i] = tensor{ir.Output{Layer: l, Index: i}, info}
	}
	return result, nil
}

// fold computes outputs whose inputs are all known, within the fold cap.
func (im *importer) fold(op ops.Op, ins []tensor, outs []ops.ValueInfo) {
	values := make([]*ir.Tensor, len(ins))
	for i, in := range ins {
		if values[i] = in.info.Value; values[i] == nil {
			return
		}
	}
	res, err := ops.Evaluate(op, values, ops.Options{MaxTensorBytes: cmp.Or(im.opts.MaxFoldBytes, 1<<20), MaxBodyRuns: ops.FoldMaxBodyRuns})
	if err != nil {
		return // the layer computes it at run time (or fails there)
	}
	fromShape := slices.ContainsFunc(values, func(v *ir.Tensor) bool { return im.fromShape[v] })
	for i := range outs {
		outs[i].Value = res[i]
		if fromShape {
			im.markFromShape(res[i])
		}
	}
}

// markFromShape records a value computed from the shape of a tensor that
// is not constant.
func (im *importer) markFromShape(v *ir.Tensor) {
	if im.fromShape == nil {
		im.fromShape = make(map[*ir.Tensor]bool)
	}
	im.fromShape[v] = true
}

// one is add for a layer of one output.
func (im *importer) one(typ, opset, suffix string, data []ir.Attr, ins ...tensor) (tensor, error) {
	outs, err := im.add(typ, opset, suffix, data, ins...)
	if err != nil {
		return tensor{}, err
	}
	if len(outs) != 1 {
		return tensor{}, im.fail(fmt.Errorf("%s has %d outputs, want 1", typ, len(outs)))
	}
	return outs[0], nil
}

// fail words an error about the current node: ErrRule with the opset.
func (im *importer) fail(err error) error {
	detail, _ := pkgerr.Detail("onnx", err)
	return errorf("%w: %s: opset %d: %v", ErrRule, im.node, im.opset, detail)
}

// ruleErr is a rule of the operator's version that the node breaks.
func (im *importer) ruleErr(format string, args ...any) error {
	return errorf("%w: %s: opset %d: %s", ErrRule, im.node, im.opset, fmt.Sprintf(format, args...))
}

// define names the node's outputs: the ONNX tensor names become the port
// names of the layers that compute them.
func (im *importer) define(n *Node, results []tensor) error {
	produced := 0
	for i, name := range n.Outputs {
		if name == "" {
			continue
		}
		if i >= len(results) {
			return im.ruleErr("output %d (%q) has no counterpart in OpenVINO's %s", i, name, n.OpType)
		}
		r := results[i]
		port := r.out.Port()
		if d, ok := im.declared[name]; ok && port.Source == nil {
			// What the model states about the tensor, which validate
			// holds against what the op computes (an opaque layer's port
			// is the statement itself, and stays unchecked).
			what := "value_info"
			if im.outputs[name] {
				what = "graph output"
			}
			port.Source = &ir.SourceDecl{What: fmt.Sprintf("%s %q", what, name), Type: d.Type, Shape: d.Shape}
		}
		if len(port.Names) > 0 && port.Names[0] != name {
			// One layer output for two ONNX names (Identity of a graph
			// input): both name it.
			port.Names = append(port.Names, name)
		} else {
			port.Names = []string{name}
		}
		im.tensors[name] = r
		produced++
	}
	if produced == 0 && len(n.Outputs) > 0 {
		return nil // every output is optional and unused
	}
	return nil
}

// input returns input i of the current node; ok is false when it is absent
// (past the end or the empty name of an optional input).
func (im *importer) input(i int) (tensor, bool) {
	n := im.node
	if i >= len(n.Inputs) || n.Inputs[i] == "" {
		return tensor{}, false
	}
	return im.lookup(n.Inputs[i])
}

// importNode imports one node.
func (im *importer) importNode(n *Node) error {
	if len(n.Outputs) == 0 {
		return im.ruleErr("the node has no outputs")
	}
	for i, name := range n.Inputs {
		if name == "" {
			continue
		}
		if _, ok := im.lookup(name); !ok {
			return errorf("%w: %s reads %q (input %d), which no input, initializer or earlier node produces", ErrFormat, n, name, i)
		}
	}
	if n.Domain == "" {
		f, ok := controlFlow[n.OpType]
		if !ok {
			f, ok = converters[n.OpType]
		}
		if ok {
			k := im.mark()
			results, err := f(im, n)
			if err != nil {
				return err
			}
			if results != nil {
				return im.define(n, results)
			}
			im.rollback(k)
		}
	}
	return im.opaque(n)
}

// opaque keeps a node OpenVINO's frontend has no counterpart for here: a
// layer of its type, its attributes written as data, its outputs typed and
// shaped from value_info, from a rule for the common shape-preserving ops,
// or dynamic.
func (im *importer) opaque(n *Node) error {
	srcs := make([]ir.Output, 0, len(n.Inputs))
	var first *tensor
	for _, name := range n.Inputs {
		if name == "" {
			continue
		}
		t, _ := im.lookup(name)
		if first == nil {
			first = &t
		}
		srcs = append(srcs, t.out)
	}
	typ, version, attrs := n.OpType, cmp.Or(n.Domain, "ai.onnx"), attrData(n)
	var extra []ops.ValueInfo
	if toForm := openvinoForms[n.OpType]; toForm != nil && n.Domain == "" {
		k := im.mark()
		if form, ok := toForm(im, n); ok {
			typ, version, attrs, extra = form.typ, form.version, form.data, form.extra
			srcs = srcs[:0]
			for _, in := range form.ins {
				srcs = append(srcs, in.out)
			}
		} else {
			im.rollback(k)
		}
	}
	l := im.m.AddLayer(typ, version, "", attrs, srcs, nil)
	im.name(l, nodeName(n))
	if n.OpType == "Scan" && n.Domain == "" {
		im.scanBody(n, l)
	}
	results := make([]tensor, len(n.Outputs))
	var ruled []ops.ValueInfo
	if rule := opaqueRules[n.OpType]; rule != nil && first != nil && n.Domain == "" {
		var ins []tensor
		for i := range n.Inputs {
			t, _ := im.input(i)
			ins = append(ins, t)
		}
		ruled = rule(n, ins)
	}
	for i, name := range n.Outputs {
		info := ops.ValueInfo{Type: ir.Dynamic, Shape: shapeinfer.DynamicRankShape()}
		switch d, ok := im.declared[name]; {
		case ok && name != "":
			info = ops.ValueInfo{Type: d.Type, Shape: d.Shape}
		case i < len(ruled):
			info = ruled[i]
		case i == 0 && first != nil && sameShapeOps[n.OpType]:
			info = ops.ValueInfo{Type: first.info.Type, Shape: first.info.Shape}
		}
		l.Outputs = append(l.Outputs, &ir.Port{ID: uint64(len(srcs) + i), Type: info.Type, Precision: info.Type.Precision(), Dims: ir.PortDims(info.Shape), DynamicRank: info.Shape.DynamicRank})
		results[i] = tensor{ir.Output{Layer: l, Index: i}, info}
	}
	// Outputs the OpenVINO op has beyond ONNX's, which nothing reads.
	for _, info := range extra {
		l.Outputs = append(l.Outputs, &ir.Port{ID: uint64(len(srcs) + len(l.Outputs)), Type: info.Type, Precision: info.Type.Precision(), Dims: ir.PortDims(info.Shape)})
	}
	return im.define(n, results)
}

// opaqueRules give the outputs of ops kept opaque whose types and shapes
// follow from their first input and attributes.
var opaqueRules = map[string]func(n *Node, in []tensor) []ops.ValueInfo{
	"ArgMax": argReduce, "ArgMin": argReduce,
	"NonZero": func(n *Node, in []tensor) []ops.ValueInfo {
		shape := dims(shapeinfer.Dynamic(), shapeinfer.Dynamic())
		if r := rank(in[0]); r >= 0 {
			shape.Dims[0] = shapeinfer.Static(int64(r))
		}
		return []ops.ValueInfo{{Type: ir.I64, Shape: shape}}
	},
	"NonMaxSuppression": func(*Node, []tensor) []ops.ValueInfo {
		return []ops.ValueInfo{{Type: ir.I64, Shape: dims(shapeinfer.Dynamic(), shapeinfer.Static(3))}}
	},
	"TopK": func(n *Node, in []tensor) []ops.ValueInfo {
		x := in[0]
		shape := x.info.Shape
		if r := rank(x); r >= 0 {
			shape = shapeinfer.Shape{Dims: append([]shapeinfer.Dim(nil), x.info.Shape.Dims...)}
			if axis, ok := normAxis(attrInt(n, "axis", -1), r); ok {
				shape.Dims[axis] = shapeinfer.Dynamic()
			}
		}
		return []ops.ValueInfo{{Type: x.info.Type, Shape: shape}, {Type: ir.I64, Shape: shape}}
	},
	"Dropout": func(n *Node, in []tensor) []ops.ValueInfo {
		return []ops.ValueInfo{in[0].info, {Type: ir.Boolean, Shape: in[0].info.Shape}}
	},
	"GatherND": func(n *Node, in []tensor) []ops.ValueInfo {
		if len(in) < 2 || rank(in[0]) < 0 || rank(in[1]) < 1 {
			return nil
		}
		data, idx := in[0].info.Shape.Dims, in[1].info.Shape.Dims
		last := idx[len(idx)-1]
		b := attrInt(n, "batch_dims", 0)
		// Each bound checked apart: b + last could overflow.
		if !last.IsStatic() || b < 0 || b >= int64(len(idx)) || b > int64(len(data)) || last.Min > int64(len(data))-b {
			return nil
		}
		out := append(append([]shapeinfer.Dim{}, idx[:len(idx)-1]...), data[b+last.Min:]...)
		return []ops.ValueInfo{{Type: in[0].info.Type, Shape: shapeinfer.Shape{Dims: out}}}
	},
	"RoiAlign": func(n *Node, in []tensor) []ops.ValueInfo {
		if len(in) < 2 || rank(in[0]) != 4 || rank(in[1]) != 2 {
			return nil
		}
		return []ops.ValueInfo{{Type: in[0].info.Type, Shape: dims(in[1].info.Shape.Dims[0], in[0].info.Shape.Dims[1],
			positiveDim(attrInt(n, "output_height", 1)), positiveDim(attrInt(n, "output_width", 1)))}}
	},
	"GridSample": func(n *Node, in []tensor) []ops.ValueInfo {
		if len(in) < 2 || rank(in[0]) != 4 || rank(in[1]) != 4 {
			return nil
		}
		x, g := in[0].info.Shape.Dims, in[1].info.Shape.Dims
		return []ops.ValueInfo{{Type: in[0].info.Type, Shape: dims(x[0], x[1], g[1], g[2])}}
	},
}

func dims(ds ...shapeinfer.Dim) shapeinfer.Shape { return shapeinfer.Shape{Dims: ds} }

// positiveDim is a dim an attribute gives, dynamic where the attribute is
// not a size (below 1): ONNX Runtime refuses such a node when it runs, and
// a negative dim written into an IR port is one no reader accepts.
func positiveDim(v int64) shapeinfer.Dim {
	if v < 1 {
		return shapeinfer.Dynamic()
	}
	return shapeinfer.Static(v)
}

// argReduce is ArgMax's and ArgMin's output: int64 indices, the axis
// removed or kept as 1.
func argReduce(n *Node, in []tensor) []ops.ValueInfo {
	x := in[0]
	r := rank(x)
	if r < 0 {
		return []ops.ValueInfo{{Type: ir.I64, Shape: shapeinfer.DynamicRankShape()}}
	}
	axis, ok := normAxis(attrInt(n, "axis", 0), r)
	if !ok {
		return nil
	}
	var dims []shapeinfer.Dim
	for i, d := range x.info.Shape.Dims {
		switch {
		case i != axis:
			dims = append(dims, d)
		case attrInt(n, "keepdims", 1) != 0:
			dims = append(dims, shapeinfer.Static(1))
		}
	}
	return []ops.ValueInfo{{Type: ir.I64, Shape: shapeinfer.Shape{Dims: append([]shapeinfer.Dim{}, dims...)}}}
}

func normAxis(axis int64, rank int) (int, bool) {
	if axis < 0 {
		axis += int64(rank)
	}
	return int(axis), axis >= 0 && axis < int64(rank)
}

// sameShapeOps keep their first input's type and shape.
var sameShapeOps = map[string]bool{
	"Elu": true, "Selu": true, "LeakyRelu": true, "PRelu": true, "ThresholdedRelu": true, "HardSigmoid": true,
	"HardSwish": true, "Softplus": true, "Softsign": true, "Gelu": true, "Mish": true, "Erf": true,
	"Sin": true, "Cos": true, "Tan": true, "Asin": true, "Acos": true, "Atan": true, "Sinh": true, "Cosh": true,
	"Asinh": true, "Acosh": true, "Atanh": true, "LRN": true, "InstanceNormalization": true,
	"LayerNormalization": true, "LpNormalization": true, "MeanVarianceNormalization": true, "LogSoftmax": true,
	"Hardmax": true, "Shrink": true, "Celu": true, "CumSum": true, "Trilu": true, "QuantizeLinear": false,
	"ReverseSequence": true, "ScatterElements": true, "ScatterND": true, "Scatter": true,
}

// attrData writes a node's attributes as <data> of an opaque layer.
func attrData(n *Node) []ir.Attr {
	var data []ir.Attr
	for _, name := range sortedKeys(n.Attrs) {
		a := n.Attrs[name]
		if !ir.IsXMLName(name) {
			continue // an IR file cannot hold it; the layer is opaque anyway
		}
		var v string
		switch a.Kind {
		case "INT":
			v = strconv.FormatInt(a.Int, 10)
		case "FLOAT":
			v = strconv.FormatFloat(float64(a.Float), 'g', -1, 32)
		case "INTS":
			v = joinInts(a.Ints)
		case "FLOATS":
			parts := make([]string, len(a.Floats))
			for i, f := range a.Floats {
				parts[i] = strconv.FormatFloat(float64(f), 'g', -1, 32)
			}
			v = strings.Join(parts, ",")
		case "STRING":
			if !ir.IsXMLText(a.String) {
				continue
			}
			v = a.String
		default:
			continue
		}
		data = append(data, ir.Attr{Name: name, Value: v})
	}
	return data
}

func joinInts(vs []int64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ",")
}
