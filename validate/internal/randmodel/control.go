package randmodel

import (
	"math/rand/v2"

	"github.com/irdiv/irdiv/ir"
)

// controlStream seeds the stream of the control-flow choices (the
// fractional digits of pi), apart from the stream of the other steps.
const controlStream = 0x243f6a8885a308d3

// ownStream makes g draw from a stream of its own, seeded by seed and
// stream, in one model in n (ok; g unchanged in the others): restore
// gives g its main stream back.
func (g *gen) ownStream(seed, stream uint64, n int) (restore func(), ok bool) {
	r := rand.New(rand.NewPCG(seed, stream))
	if r.IntN(n) != 0 {
		return nil, false
	}
	main := g.r
	g.r = r
	return func() { g.r = main }, true
}

// controlFlow puts integer Divs inside the bodies of an If or a Loop (an
// If inside a Loop's body now and then), in about one model in four,
// after every other step: its choices come from a stream of their own,
// so that the other models stay what they were before bodies came, with
// the verdicts learnt of them.
func (g *gen) controlFlow(seed uint64) {
	restore, ok := g.ownStream(seed, controlStream, 4)
	if !ok {
		return
	}
	defer restore()
	var out *val
	if g.chance(0.5) {
		out = g.ifOp(nil)
	} else {
		out = g.loopOp()
	}
	if g.chance(0.3) {
		// What the body computed, divided again outside it.
		g.binary("Div", out, g.konst(out.t, nil, pick[int64](g, 2, -3, 4)))
	}
}

// bodyState is what enter saves of the graph around a body.
type bodyState struct {
	nodes         []node
	ints, tensors int
	scope, body   string
}

// enter starts the body at path: nodes go to a list of their own, named
// apart, until leave; values of the graphs around it stay usable (ONNX's
// outer scope).
func (g *gen) enter(path string) bodyState {
	s := bodyState{g.m.nodes, len(g.ints), len(g.tensors), g.scope, g.body}
	g.m.nodes = nil
	g.scope = g.fresh("body") + "/"
	if g.body != "" {
		path = g.body + " > " + path
	}
	g.body = path
	return s
}

// leave ends a body and returns its nodes: its values go out of scope.
func (g *gen) leave(s bodyState) []node {
	nodes := g.m.nodes
	g.m.nodes, g.scope, g.body = s.nodes, s.scope, s.body
	g.ints, g.tensors = g.ints[:s.ints], g.tensors[:s.tensors]
	return nodes
}

// param is a body's input.
func (g *gen) param(prefix string, like *val) *val {
	v := *like
	v.name, v.shape = g.fresh(prefix), nil
	g.m.types[v.name] = v.t
	if v.t.IsInteger() {
		g.ints = append(g.ints, &v)
	}
	return &v
}

func portOf(v *val) port { return port{v.name, v.t, v.rank} }

// control appends an If or a Loop named name (nodeName's, taken before
// its bodies were made) and returns its outputs.
func (g *gen) control(op, name string, ins []*val, bodies []*graph, outs []*val) []*val {
	names := make([]string, len(ins))
	for i, in := range ins {
		if in != nil {
			names[i] = in.name
		}
	}
	var outNames []string
	for _, o := range outs {
		o.name = g.fresh("v")
		g.m.types[o.name] = o.t
		if o.t.IsInteger() {
			g.ints = append(g.ints, o)
		}
		outNames = append(outNames, o.name)
	}
	g.m.nodes = append(g.m.nodes, node{op: op, name: name, inputs: names, outputs: outNames, bodies: bodies})
	return outs
}

// bodyOperand is a second operand for cur inside a body that keeps cur's
// shape: a constant, or a scalar or a value of cur's shape, of the body
// or the graphs around it, converted to cur's type.
func (g *gen) bodyOperand(cur *val) *val {
	if g.chance(0.5) {
		return g.konst(cur.t, nil, g.smallInt(cur.t))
	}
	o := g.anyInt(func(o *val) bool { return o != cur && (o.rank == 0 || o.class == cur.class) })
	if o == nil {
		return g.konst(cur.t, nil, g.smallInt(cur.t))
	}
	return g.as(o, cur.t)
}

// chain adds steps ops on cur inside a body, each giving cur's shape and
// type; with div, one of them at least a Div (the last, if none came
// before), whose divisor is a constant of either sign or a value, outer
// (loop-invariant) or not.
func (g *gen) chain(cur *val, steps int, div bool) *val {
	divided := false
	for i := range steps {
		if div && (i == steps-1 && !divided || g.chance(0.4)) {
			// A value, or a constant not 0 (bodyOperand's may be): a Div by
			// a constant 0 faults at every input, and its model gives no
			// ground truth.
			b := g.anyInt(func(o *val) bool { return o != cur && (o.rank == 0 || o.class == cur.class) })
			if b == nil || g.chance(0.6) {
				b = g.konst(cur.t, nil, pick[int64](g, 2, 2, 3, 4, -2, -3, 5, 8, -1, 1, 16, 7))
			} else {
				b = g.as(b, cur.t)
				if g.chance(0.5) {
					b = g.binary(pick(g, "Add", "Max"), b, g.konst(cur.t, nil, pick[int64](g, 1, 1, 2, -1)))
				}
			}
			cur = g.binary("Div", cur, b)
			divided = true
			continue
		}
		switch g.r.IntN(6) {
		case 0, 1:
			cur = g.binary(pick(g, "Add", "Sub", "Mul"), cur, g.bodyOperand(cur))
		case 2:
			cur = g.binary("Mod", cur, g.konst(cur.t, nil, pick[int64](g, 2, 3, -2, 4)), intAttr("fmod", 0))
		case 3:
			cur = g.binary(pick(g, "Min", "Max"), cur, g.bodyOperand(cur))
		case 4:
			cur = g.add(pick(g, "Abs", "Neg"), []*val{cur}, nil, derived(cur, cur.t))
		default:
			lo, hi := g.smallInt(cur.t), g.smallInt(cur.t)
			if lo > hi {
				lo, hi = hi, lo
			}
			cur = g.add("Clip", []*val{cur, g.konst(cur.t, nil, lo), g.konst(cur.t, nil, hi)}, nil, derived(cur, cur.t))
		}
	}
	return cur
}

// ifOp adds an If whose condition compares an integer scalar with a
// constant or another scalar, and whose branches compute from src (any
// integer value when nil) a value of its shape and type, a Div in one
// branch at least.
func (g *gen) ifOp(src *val) *val {
	a := g.anyInt(scalar)
	if a == nil {
		a = g.add("Size", []*val{g.x}, nil, &val{t: ir.I64, n: -1})
	}
	b := g.konst(a.t, nil, g.smallInt(a.t))
	if o := g.anyInt(func(o *val) bool { return scalar(o) && o != a }); o != nil && g.chance(0.4) {
		b = g.as(o, a.t)
	}
	cond := g.add(pick(g, "Less", "Greater", "Equal"), []*val{a, b}, nil, &val{t: ir.Boolean, n: -1})
	if src == nil {
		src = g.anyInt(nil)
	}
	name := g.nodeName("If")
	divides := g.r.IntN(3) // then_branch, else_branch, both
	var bodies []*graph
	for i, attr := range []string{"then_branch", "else_branch"} {
		s := g.enter(name + " " + attr)
		res := g.chain(src, 1+g.r.IntN(3), divides == i || divides == 2)
		bodies = append(bodies, &graph{attr: attr, nodes: g.leave(s), outputs: []port{portOf(res)}})
	}
	return g.control("If", name, []*val{cond}, bodies, []*val{derived(src, src.t)})[0]
}

// loopOp adds a Loop of 1 to 3 iterations, or of a computed count
// clipped to [0, 3], its condition true or left out, whose body divides
// a loop-carried value by constants and values of the outer graph
// (invariant), or gives a Div per iteration as a scan output, or both;
// now and then the loop-carried value passes through an If inside the
// body. It returns the loop-carried value's final value, or the scan
// output.
func (g *gen) loopOp() *val {
	trip := g.konst(ir.I64, nil, pick[int64](g, 1, 1, 2, 3))
	if s := g.anyInt(scalar); s != nil && g.chance(0.4) {
		trip = g.add("Clip", []*val{g.as(s, ir.I64), g.konst(ir.I64, nil, 0), g.konst(ir.I64, nil, 3)}, nil, &val{t: ir.I64, n: -1})
	}
	var cond *val
	if g.chance(0.7) {
		cond = g.konst(ir.Boolean, nil, 1)
	}
	src := g.anyInt(nil)
	mode := g.r.IntN(3) // carried, scan, both
	name := g.nodeName("Loop")
	s := g.enter(name + " body")
	iter := g.param("iter", &val{t: ir.I64, n: -1})
	condIn := g.param("cond", &val{t: ir.Boolean, n: -1})
	inputs := []port{portOf(iter), portOf(condIn)}
	condOut := g.add("Identity", []*val{condIn}, nil, &val{t: ir.Boolean, n: -1})
	outputs := []port{portOf(condOut)}
	var carried *val
	if mode != 1 {
		carried = g.param("carried", src)
		inputs = append(inputs, portOf(carried))
		next := carried
		if g.chance(0.3) {
			next = g.ifOp(carried)
			if g.chance(0.5) {
				next = g.chain(next, 1, false)
			}
		} else {
			next = g.chain(carried, 1+g.r.IntN(2), true)
		}
		outputs = append(outputs, portOf(next))
	}
	var scanned *val
	if mode != 0 {
		from := carried
		if from == nil || g.chance(0.5) {
			// A value of the iteration number: i, plus an outer value or a
			// constant.
			t := g.intType()
			from = g.as(iter, t)
			from = g.binary(pick(g, "Add", "Sub", "Mul"), from, g.bodyOperand(from))
		}
		scanned = g.chain(from, 1+g.r.IntN(2), true)
		outputs = append(outputs, portOf(scanned))
	}
	body := &graph{attr: "body", inputs: inputs, outputs: outputs, nodes: g.leave(s)}
	var outs []*val
	if carried != nil {
		outs = append(outs, derived(src, src.t))
	}
	if scanned != nil {
		outs = append(outs, g.unique(scanned.t, scanned.rank+1))
	}
	ins := []*val{trip, cond}
	if carried != nil {
		ins = append(ins, src)
	}
	return g.control("Loop", name, ins, []*graph{body}, outs)[0]
}

// scanStream seeds the stream of the Scan choices (the fractional digits
// of e), apart from the others.
const scanStream = 0xb7e151628aed2a6a

// scanFlow adds a Scan (scanOp) in about one model in twenty-five, after
// every other step: its choices come from a stream of its own, so that
// the other models stay what they were before Scans came.
func (g *gen) scanFlow(seed uint64) {
	restore, ok := g.ownStream(seed, scanStream, 25)
	if !ok {
		return
	}
	defer restore()
	out := g.scanOp()
	if out.t.IsInteger() && g.chance(0.3) {
		// What the body computed, divided again outside it.
		g.binary("Div", out, g.konst(out.t, nil, pick[int64](g, 2, -3, 4)))
	}
}

// scanOp adds a Scan over an integer value of rank 1 or more (along axis
// 0, now and then another, either direction), whose body divides the
// scanned element (a scan output, concatenated along axis 0 or the last,
// either direction), or a loop-carried scalar it combines with the
// element, or both. It returns the loop-carried value's final value, or
// the scan output.
func (g *gen) scanOp() *val {
	src := g.anyInt(func(o *val) bool { return o.rank >= 1 })
	if src == nil {
		src = g.add("Shape", []*val{g.x}, nil, &val{t: ir.I64, rank: 1, n: -1, class: g.fresh("shape")})
	}
	axis := int64(0)
	if src.rank >= 2 && g.chance(0.3) {
		axis = pick[int64](g, 1, -1)
	}
	elemRank := src.rank - 1
	var init *val
	mode := g.r.IntN(3) // carried, scan, both
	if mode != 1 {
		if init = g.anyInt(scalar); init == nil || g.chance(0.4) {
			init = g.konst(g.intType(), nil, g.smallInt(ir.I32))
		}
	}
	name := g.nodeName("Scan")
	s := g.enter(name + " body")
	var inputs, outputs []port
	var carried *val
	if init != nil {
		carried = g.param("carried", init)
		inputs = append(inputs, portOf(carried))
	}
	elem := g.param("elem", g.unique(src.t, elemRank))
	inputs = append(inputs, portOf(elem))
	if carried != nil {
		next := carried
		if elemRank == 0 && g.chance(0.7) {
			next = g.binary(pick(g, "Add", "Sub", "Max", "Min"), carried, g.as(elem, carried.t))
		}
		next = g.chain(next, 1+g.r.IntN(2), true)
		outputs = append(outputs, portOf(next))
	}
	var scanned *val
	if mode != 0 {
		scanned = g.chain(elem, 1+g.r.IntN(2), true)
		outputs = append(outputs, portOf(scanned))
	}
	body := &graph{attr: "body", inputs: inputs, outputs: outputs, nodes: g.leave(s)}
	attrs := []attr{intAttr("num_scan_inputs", 1)}
	if axis != 0 {
		attrs = append(attrs, intsAttr("scan_input_axes", axis))
	}
	if g.chance(0.3) {
		attrs = append(attrs, intsAttr("scan_input_directions", 1))
	}
	if scanned != nil {
		if g.chance(0.2) {
			attrs = append(attrs, intsAttr("scan_output_axes", -1))
		}
		if g.chance(0.3) {
			attrs = append(attrs, intsAttr("scan_output_directions", 1))
		}
	}
	var ins, outs []*val
	if carried != nil {
		ins = append(ins, init)
		outs = append(outs, derived(init, init.t))
	}
	ins = append(ins, src)
	if scanned != nil {
		outs = append(outs, g.unique(scanned.t, scanned.rank+1))
	}
	n := len(g.m.nodes)
	res := g.control("Scan", name, ins, []*graph{body}, outs)[0]
	g.m.nodes[n].attrs = attrs
	return res
}
