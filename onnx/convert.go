package onnx

import (
	"fmt"
	"slices"

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
		// An op type and domain become an opaque layer's type and version.
		names = append(append(append(names, n.Name, n.OpType, n.Domain), n.Inputs...), n.Outputs...)
		for _, key := range sortedKeys(n.Attrs) {
			if a := n.Attrs[key]; a.Graph != nil {
				if err := namesFitXML(a.Graph); err != nil {
					return err
				}
			}
		}
	}
	for _, name := range names {
		if !ir.IsXMLText(name) {
			return errorf("%w: the name %q holds characters an IR file (XML 1.0) cannot hold", ErrUnsupported, name)
		}
	}
	return nil
}
