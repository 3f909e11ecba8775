package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// comparisons are the op types AddExactCompare rewrites.
var comparisons = []string{"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"}

// IsComparison reports whether typ is one of the comparisons (Equal,
// NotEqual, Less, LessEqual, Greater, GreaterEqual).
func IsComparison(typ string) bool {
	return slices.ContainsFunc(comparisons, func(c string) bool { return strings.EqualFold(c, typ) })
}

// AddExactCompare rewrites the comparison l of m (Equal, NotEqual, Less,
// LessEqual, Greater or GreaterEqual of i32 or i64 operands,
// auto_broadcast none or numpy), x op y, into
//
//	Subtract(x, y) op 0
//
// which OpenVINO's CPU plugin computes exactly wherever x - y is an i32
// (which the caller checks): its comparisons have float32 emitters only,
// so that i32 operands of 2^24 and beyond are rounded as they are loaded
// and two that differ by less than their rounding compare as equal
// (CPUPlugin), where its Subtract has an exact i32 emitter (vpsubd) and a
// nonzero integer converts to a nonzero float32 of its sign, 0 to 0. Under
// the reference the form is exact wherever x - y does not wrap. The
// Subtract broadcasts x and y as l did; l keeps its name, op and output
// (nothing that reads it changes), and compares the difference with a
// scalar 0 of the operands' type, numpy broadcast. It returns the
// Subtract.
func AddExactCompare(m *ir.Model, l *ir.Layer) (*ir.Layer, error) {
	if !IsComparison(l.Type) || len(l.Inputs) != 2 || len(l.Outputs) != 1 {
		return nil, fmt.Errorf("ops: %s: not a comparison of two inputs and one output", l)
	}
	bc := shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		mode, err := shapeinfer.ParseMode(s)
		if err != nil || mode == shapeinfer.PDPD {
			return nil, fmt.Errorf("ops: %s: auto_broadcast %s, which the form's numpy ops would align otherwise", l, s)
		}
		bc.Mode = mode
	}
	sources := m.Sources()[l]
	if len(sources) != 2 || slices.Contains(sources, ir.Output{}) {
		return nil, fmt.Errorf("ops: %s: an input is not connected", l)
	}
	x, y := sources[0], sources[1]
	t := x.Port().Type
	if t != ir.I32 && t != ir.I64 || y.Port().Type != t {
		return nil, fmt.Errorf("ops: %s: the exact form is for i32 and i64 operands, not %s and %s", l, t, y.Port().Type)
	}
	sub := binary[Subtract](t)
	sub.(*Subtract).Broadcast = bc
	res, err := sub.Infer([]ValueInfo{{Type: t, Shape: x.Port().Shape()}, {Type: t, Shape: y.Port().Shape()}})
	if err != nil {
		return nil, fmt.Errorf("ops: %s: x - y: %w", l, err)
	}
	typ, version := sub.OpType()
	diff := m.AddLayer(typ, version, l.Name+exactCompareMarker+"difference", sub.Attrs(), []ir.Output{x, y},
		[]*ir.Port{{Type: t, Dims: ir.PortDims(res[0].Shape), DynamicRank: res[0].Shape.DynamicRank}})
	v, err := ir.NewTensor(t, nil)
	if err != nil {
		return nil, err
	}
	zero := m.AddConst(l.Name+exactCompareMarker+"zero", v)
	// l reads the difference and 0 on the ports that read x and y.
	for i, src := range []*ir.Layer{diff, zero} {
		p := l.Inputs[i]
		for j, e := range m.Edges {
			if e.ToLayer == l.ID && e.ToPort == p.ID {
				m.Edges[j].FromLayer, m.Edges[j].FromPort = src.ID, src.Outputs[0].ID
			}
		}
		out := src.Outputs[0]
		p.Type, p.Dims, p.DynamicRank = out.Type, slices.Clone(out.Dims), out.DynamicRank
		if p.Precision != "" {
			p.Precision = out.Type.Precision()
		}
	}
	if bc.Mode != shapeinfer.Numpy {
		l.SetDataAttr("auto_broadcast", "numpy") // a scalar 0 against the difference
	}
	return diff, nil
}

// exactCompareMarker joins a comparison's name and a step's in the names
// of the layers of its form.
const exactCompareMarker = "/irdiv_compare/"
