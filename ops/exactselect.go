package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// AddExactSelect rewrites the i32 or i64 Select l of m (auto_broadcast
// none or numpy), c ? x : y, into
//
//	y + Convert(c) * (x - y)
//
// which OpenVINO's CPU plugin computes exactly: its Select has a float32
// emitter only (jit_select_emitter), so that i32 values beyond 2^24 come
// out rounded (CPUPlugin), where Subtract, Multiply and Add have exact
// i32 emitters that wrap (vpsubd, vpmulld, vpaddd) and a Convert of a
// boolean gives 0 or 1. Modulo 2^32 the sum is x where c holds and y
// elsewhere, so it is exact for every i32 value, and for every i64 value
// under the reference (modulo 2^64); numpy broadcasting of the three ops
// aligns c, x and y as the Select did. l itself becomes the Subtract
// (keeping its name, its x and y inputs), and the layers that read l read
// the Add, which takes l's output names. It returns the Add.
func AddExactSelect(m *ir.Model, l *ir.Layer) (*ir.Layer, error) {
	if !strings.EqualFold(l.Type, "Select") || len(l.Inputs) != 3 || len(l.Outputs) != 1 {
		return nil, fmt.Errorf("ops: %s: not a Select of three inputs and one output", l)
	}
	t := l.Outputs[0].Type
	if t != ir.I32 && t != ir.I64 {
		return nil, fmt.Errorf("ops: %s: the exact form is for i32 and i64, not %s", l, t)
	}
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		if mode, err := shapeinfer.ParseMode(s); err != nil || mode == shapeinfer.PDPD {
			return nil, fmt.Errorf("ops: %s: auto_broadcast %s, which the form's numpy ops would align otherwise", l, s)
		}
	}
	sources := m.Sources()[l]
	if len(sources) != 3 || slices.Contains(sources, ir.Output{}) {
		return nil, fmt.Errorf("ops: %s: an input is not connected", l)
	}
	c, x, y := sources[0], sources[1], sources[2]
	out := l.Outputs[0]
	// l becomes Subtract(x, y): its condition's port and edge go, and
	// x's and y's ports become 0 and 1.
	renumber := map[uint64]uint64{l.Inputs[1].ID: 0, l.Inputs[2].ID: 1}
	cond := l.Inputs[0].ID
	m.Edges = slices.DeleteFunc(m.Edges, func(e ir.Edge) bool { return e.ToLayer == l.ID && e.ToPort == cond })
	for i, e := range m.Edges {
		if e.ToLayer == l.ID {
			m.Edges[i].ToPort = renumber[e.ToPort]
		}
	}
	l.Inputs = l.Inputs[1:]
	for _, p := range l.Inputs {
		p.ID = renumber[p.ID]
	}
	// The layers that read l, before the form reads it too (and after
	// the deletion, which moves edges).
	var readers []int
	for i, e := range m.Edges {
		if e.FromLayer == l.ID && e.FromPort == out.ID {
			readers = append(readers, i)
		}
	}
	out.ID = 2
	// Its output is x's and y's shape broadcast, without c's.
	sub := binary[Subtract](t)
	res, err := sub.Infer([]ValueInfo{{Type: t, Shape: x.Port().Shape()}, {Type: t, Shape: y.Port().Shape()}})
	if err != nil {
		return nil, fmt.Errorf("ops: %s: x - y: %w", l, err)
	}
	l.Type, l.Version = sub.OpType()
	l.Data = sub.Attrs()
	out.Dims, out.DynamicRank = ir.PortDims(res[0].Shape), res[0].Shape.DynamicRank
	diff := ir.Output{Layer: l}
	step := func(name string, op Op, ins ...ir.Output) (*ir.Layer, error) {
		infos := make([]ValueInfo, len(ins))
		for i, in := range ins {
			p := in.Port()
			infos[i] = ValueInfo{Type: p.Type, Shape: p.Shape()}
		}
		res, err := op.Infer(infos)
		if err != nil {
			return nil, fmt.Errorf("ops: %s: step %s of the exact select: %w", l, name, err)
		}
		typ, version := op.OpType()
		return m.AddLayer(typ, version, l.Name+exactSelectMarker+name, op.Attrs(), ins,
			[]*ir.Port{{Type: res[0].Type, Dims: ir.PortDims(res[0].Shape), DynamicRank: res[0].Shape.DynamicRank}}), nil
	}
	count, err := step("count", &Convert{DestinationType: t}, c)
	if err != nil {
		return nil, err
	}
	chosen, err := step("chosen", binary[Multiply](t), ir.Output{Layer: count}, diff)
	if err != nil {
		return nil, err
	}
	sum, err := step("select", binary[Add](t), y, ir.Output{Layer: chosen})
	if err != nil {
		return nil, err
	}
	for _, i := range readers {
		m.Edges[i].FromLayer, m.Edges[i].FromPort = sum.ID, sum.Outputs[0].ID
	}
	sum.Outputs[0].Names, out.Names = out.Names, nil
	return sum, nil
}

// exactSelectMarker joins a Select's name and a step's in the names of
// the layers of its form.
const exactSelectMarker = "/irdiv_select/"
