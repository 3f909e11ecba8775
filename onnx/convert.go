package onnx

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// DivVersion returns the version of Div that a model of the given opset
// uses: the newest of 1, 6, 7, 13 and 14 not above it.
func DivVersion(opset int64) int {
	for _, v := range []int{14, 13, 7, 6} {
		if opset >= int64(v) {
			return v
		}
	}
	return 1
}

// divTypes are the element types each version of Div accepts.
var divTypes = map[int][]ir.ElementType{
	1:  {ir.F16, ir.F32, ir.F64},
	6:  {ir.U32, ir.U64, ir.I32, ir.I64, ir.F16, ir.F32, ir.F64},
	7:  {ir.U32, ir.U64, ir.I32, ir.I64, ir.F16, ir.F32, ir.F64},
	13: {ir.U32, ir.U64, ir.I32, ir.I64, ir.F16, ir.F32, ir.F64, ir.BF16},
	14: {ir.U8, ir.U16, ir.U32, ir.U64, ir.I8, ir.I16, ir.I32, ir.I64, ir.F16, ir.F32, ir.F64, ir.BF16},
}

// Convert turns a graph of Div nodes into an IR v11 model that computes
// what ONNX specifies:
//
//   - Div-7, 13 and 14 become Divide with numpy broadcasting, and
//     m_pythondiv="false" for integers (ONNX truncates);
//   - Div-1 and 6 with broadcast=0 become Divide with auto_broadcast none;
//     with broadcast=1, the legacy rule is checked (B of one element, or B
//     equal to a contiguous slice of A's dims at axis or at the end, never
//     stretching a 1) and the node becomes a pdpd Divide at that axis;
//   - every version's type constraints are enforced;
//   - initializers and Constant nodes become Const, graph inputs
//     Parameter, graph outputs Result; the ONNX tensor names become the
//     names of the IR output ports, so that layers can be matched back.
//
// The model's rt_info records framework=onnx, the opset and the source
// file. A graph with other ops fails with ErrUnsupported counting them by
// type; a node that breaks its version's rules fails with ErrRule naming
// the node, the opset and the rule.
func Convert(m *Model) (*ir.Model, error) {
	out, err := convert(m)
	if err != nil && m.Path != "" {
		return nil, inFile(m.Path, err)
	}
	return out, err
}

func convert(m *Model) (*ir.Model, error) {
	if err := onlyDiv(m.Graph); err != nil {
		return nil, err
	}
	if err := namesFitXML(m.Graph); err != nil {
		return nil, err
	}
	name := cmp.Or(m.Graph.Name, strings.TrimSuffix(filepath.Base(m.Path), filepath.Ext(m.Path)), "onnx")
	out := &ir.Model{Name: name, Version: 11}
	// tensors are the ONNX tensors converted so far, by name: the output
	// that holds each, and its type and shape (a port cannot tell a
	// dynamic rank from a scalar).
	tensors := make(map[string]tensor)
	define := func(name string, o ir.Output, info ops.ValueInfo) {
		o.Port().Names = []string{name}
		tensors[name] = tensor{o, info}
	}
	for _, in := range m.Graph.Inputs {
		define(in.Name, ir.Output{Layer: out.AddParameter(in.Name, in.Type, in.Shape)}, ops.ValueInfo{Type: in.Type, Shape: in.Shape})
	}
	constant := func(name string, t *ir.Tensor) {
		define(name, ir.Output{Layer: out.AddConst(name, t)}, ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...)})
	}
	for _, init := range m.Graph.Initializers {
		constant(init.Name, init.Tensor)
	}
	version := DivVersion(m.Opset)
	for _, n := range m.Graph.Nodes {
		if len(n.Outputs) != 1 || n.Outputs[0] == "" {
			return nil, errorf("%w: %s has %d outputs, want 1", ErrRule, n, len(n.Outputs))
		}
		switch n.OpType {
		case "Constant":
			t, err := constantValue(n)
			if err != nil {
				return nil, err
			}
			constant(n.Outputs[0], t)
			tensors[n.Outputs[0]].out.Layer.Name = cmp.Or(n.Name, n.Outputs[0])
		case "Div":
			l, info, err := convertDiv(out, n, m.Opset, version, tensors)
			if err != nil {
				return nil, err
			}
			define(n.Outputs[0], ir.Output{Layer: l}, info)
		}
	}
	for _, o := range m.Graph.Outputs {
		src, ok := tensors[o.Name]
		if !ok {
			return nil, errorf("%w: graph output %q is produced by no node", ErrFormat, o.Name)
		}
		out.AddResult(o.Name, src.out)
	}
	opset := strconv.FormatInt(m.Opset, 10)
	out.Meta = append(out.Meta, &ir.Node{Tag: "rt_info", Children: []*ir.Node{
		{Tag: "conversion_parameters", Children: []*ir.Node{
			{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: "onnx"}}},
			{Tag: "input_model", Attrs: []ir.Attr{{Name: "value", Value: m.Path}}},
			{Tag: "opset", Attrs: []ir.Attr{{Name: "value", Value: opset}}},
		}},
	}})
	return out, nil
}

// onlyDiv fails when the graph has ops other than Div and Constant,
// counting them by type.
func onlyDiv(g *Graph) error {
	others := make(map[string]int)
	for _, n := range g.Nodes {
		if n.Domain != "" || n.OpType != "Div" && n.OpType != "Constant" {
			op := n.OpType
			if n.Domain != "" {
				op = n.Domain + "." + op
			}
			others[op]++
		}
	}
	if len(others) == 0 {
		return nil
	}
	types := slices.SortedFunc(maps.Keys(others), func(a, b string) int {
		return cmp.Or(cmp.Compare(others[b], others[a]), cmp.Compare(a, b))
	})
	var counts []string
	for _, t := range types {
		counts = append(counts, fmt.Sprintf("%s x%d", t, others[t]))
	}
	return errorf("%w: irdiv converts graphs of Div and Constant; this one also has %s (validate an IR of it, from OpenVINO's converter, with --onnx MODEL.onnx)", ErrUnsupported, strings.Join(counts, ", "))
}

// constantValue is the tensor of a Constant node.
func constantValue(n *Node) (*ir.Tensor, error) {
	for name, a := range n.Attrs {
		switch name {
		case "value":
			if a.Tensor != nil {
				return a.Tensor, nil
			}
		case "value_float":
			return ir.TensorOf(ir.F32, []int64{}, []float32{a.Float})
		case "value_floats":
			return ir.TensorOf(ir.F32, []int64{int64(len(a.Floats))}, a.Floats)
		case "value_int":
			return ir.TensorOf(ir.I64, []int64{}, []int64{a.Int})
		case "value_ints":
			return ir.TensorOf(ir.I64, []int64{int64(len(a.Ints))}, a.Ints)
		}
	}
	return nil, errorf("%w: %s has no value irdiv reads (value, value_float(s), value_int(s))", ErrUnsupported, n)
}

// tensor is an ONNX tensor converted: where it is, and what it is.
type tensor struct {
	out  ir.Output
	info ops.ValueInfo
}

// convertDiv adds the Divide of one Div node.
func convertDiv(m *ir.Model, n *Node, opset int64, version int, tensors map[string]tensor) (*ir.Layer, ops.ValueInfo, error) {
	fail := func(format string, args ...any) (*ir.Layer, ops.ValueInfo, error) {
		return nil, ops.ValueInfo{}, errorf("%w: %s: opset %d, Div-%d: %s", ErrRule, n, opset, version, fmt.Sprintf(format, args...))
	}
	if len(n.Inputs) != 2 {
		return fail("Div takes 2 inputs, the node has %d", len(n.Inputs))
	}
	var in [2]tensor
	for i, name := range n.Inputs {
		src, ok := tensors[name]
		if !ok {
			return nil, ops.ValueInfo{}, errorf("%w: %s reads %q, which no input, initializer or earlier node produces", ErrFormat, n, name)
		}
		in[i] = src
	}
	a, b := in[0].info, in[1].info
	if a.Type != b.Type {
		return fail("A is %s and B is %s; Div takes one type T for both", DataTypeName(a.Type), DataTypeName(b.Type))
	}
	if !slices.Contains(divTypes[version], a.Type) {
		var names []string
		for _, t := range divTypes[version] {
			names = append(names, DataTypeName(t))
		}
		return fail("type %s is not allowed (T is one of %s)", DataTypeName(a.Type), strings.Join(names, ", "))
	}
	d, err := divideFor(n, version, a, b)
	if err != nil {
		return fail("%v", err)
	}
	out, err := d.Infer([]ops.ValueInfo{a, b})
	if err != nil {
		return fail("%v", err)
	}
	l := m.AddLayer("Divide", "opset1", cmp.Or(n.Name, n.Outputs[0]), d.Attrs(), []ir.Output{in[0].out, in[1].out},
		[]*ir.Port{{Type: out[0].Type, Dims: ir.PortDims(out[0].Shape)}})
	return l, out[0], nil
}

// DivideFor returns the Divide that computes a Div node of m as ONNX
// specifies, for operands of the given type and shapes: the one Convert
// writes. It fails when the node breaks its version's attribute or
// broadcast rules.
func DivideFor(m *Model, n *Node, a, b ops.ValueInfo) (*ops.Divide, error) {
	d, err := divideFor(n, DivVersion(m.Opset), a, b)
	if err != nil {
		return nil, errorf("%w: %s: opset %d, Div-%d: %v", ErrRule, n, m.Opset, DivVersion(m.Opset), err)
	}
	return d, nil
}

func divideFor(n *Node, version int, a, b ops.ValueInfo) (*ops.Divide, error) {
	bc := shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
	if version >= 7 {
		for attr := range n.Attrs {
			return nil, fmt.Errorf("Unrecognized attribute: %s for operator Div", attr)
		}
	} else {
		var err error
		if bc, err = legacyBroadcast(n, a.Shape, b.Shape); err != nil {
			return nil, err
		}
	}
	return ops.NewDivide(bc, !a.Type.IsInteger()), nil // ONNX truncates integers
}

// legacyBroadcast checks the broadcast rule of Div-1 and Div-6 and returns
// the Divide broadcast that computes it: none for broadcast=0; pdpd at
// the axis (the end when absent) for broadcast=1.
func legacyBroadcast(n *Node, aShape, bShape shapeinfer.Shape) (shapeinfer.Broadcast, error) {
	mode, axisAttr := int64(0), n.Attrs["axis"]
	if attr := n.Attrs["broadcast"]; attr != nil {
		mode = attr.Int
	}
	if aShape.DynamicRank || bShape.DynamicRank {
		return shapeinfer.Broadcast{}, fmt.Errorf("the legacy broadcast rule needs static ranks (A is %s, B is %s)", aShape, bShape)
	}
	switch mode {
	case 0:
		if axisAttr != nil {
			return shapeinfer.Broadcast{}, fmt.Errorf("axis is set but broadcast=0")
		}
		if !sameDims(aShape, bShape) {
			return shapeinfer.Broadcast{}, fmt.Errorf("broadcast=0 needs equal shapes, A is %s and B is %s", aShape, bShape)
		}
		return shapeinfer.Broadcast{Mode: shapeinfer.None}, nil
	case 1:
	default:
		return shapeinfer.Broadcast{}, fmt.Errorf("broadcast=%d (0 or 1)", mode)
	}
	ra, rb := len(aShape.Dims), len(bShape.Dims)
	if rb > ra {
		return shapeinfer.Broadcast{}, fmt.Errorf("broadcast=1 needs rank(B) <= rank(A), B is %s and A is %s", bShape, aShape)
	}
	axis := int64(ra - rb)
	if axisAttr != nil {
		axis = axisAttr.Int
		if axis < 0 {
			axis += int64(ra)
		}
		if axis < 0 || axis > int64(ra-rb) {
			return shapeinfer.Broadcast{}, fmt.Errorf("axis %d does not place B %s inside A %s", axisAttr.Int, bShape, aShape)
		}
	}
	if !oneElement(bShape) {
		for i, db := range bShape.Dims {
			da := aShape.Dims[int(axis)+i]
			if da.IsStatic() && db.IsStatic() && da.Min != db.Min || db.IsStatic() && db.Min == 1 && !da.Contains(1) {
				return shapeinfer.Broadcast{}, fmt.Errorf("broadcast=1 needs B %s to equal A's dims from axis %d (A is %s); 1-dim expansion is not allowed", bShape, axis, aShape)
			}
		}
	}
	if axisAttr == nil {
		return shapeinfer.Broadcast{Mode: shapeinfer.PDPD, Axis: -1}, nil
	}
	return shapeinfer.Broadcast{Mode: shapeinfer.PDPD, Axis: axis}, nil
}

// oneElement reports whether every dim of s is a static 1 (a scalar too).
func oneElement(s shapeinfer.Shape) bool {
	for _, d := range s.Dims {
		if !d.IsStatic() || d.Min != 1 {
			return false
		}
	}
	return true
}

// sameDims reports whether two shapes can be equal: the same rank and
// dims that agree where both are static.
func sameDims(a, b shapeinfer.Shape) bool {
	if len(a.Dims) != len(b.Dims) {
		return false
	}
	for i := range a.Dims {
		if a.Dims[i].IsStatic() && b.Dims[i].IsStatic() && a.Dims[i].Min != b.Dims[i].Min {
			return false
		}
	}
	return true
}

// namesFitXML fails on a name an IR file cannot hold.
func namesFitXML(g *Graph) error {
	names := []string{g.Name}
	for _, v := range append(slices.Clone(g.Inputs), g.Outputs...) {
		names = append(names, v.Name)
	}
	for _, init := range g.Initializers {
		names = append(names, init.Name)
	}
	for _, n := range g.Nodes {
		names = append(append(append(names, n.Name), n.Inputs...), n.Outputs...)
	}
	for _, name := range names {
		if !ir.IsXMLText(name) {
			return errorf("%w: the name %q holds characters an IR file (XML 1.0) cannot hold", ErrUnsupported, name)
		}
	}
	return nil
}
