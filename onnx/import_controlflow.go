package onnx

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// controlFlow imports the ops that hold subgraphs as OpenVINO's ONNX
// frontend does (src/frontends/onnx/frontend/src/op/if.cpp, loop.cpp,
// scan.cpp): If into If-8, Loop into Loop-5 and Scan into
// TensorIterator-1, each subgraph an IR body.
// (Assigned in init: the converters import subgraphs, whose nodes they
// look up here.)
var controlFlow map[string]converter

func init() {
	controlFlow = map[string]converter{"If": importIf, "Loop": importLoop, "Scan": importScan}
}

// outerRef is a name of an enclosing graph that a subgraph reads: the
// Parameter of the body that stands for it, and the enclosing graph's
// tensor, which the If or Loop feeds to that Parameter.
type outerRef struct {
	name  string
	param *ir.Layer
	outer tensor
}

// lookup returns the tensor of a name as this graph sees it: its own, or,
// in a subgraph, one of an enclosing graph, which then becomes a
// Parameter of the body (once per name), as the frontend's "inputs from
// parent" are. The Parameter keeps the outer tensor's value when known:
// it is constant while the body runs.
func (im *importer) lookup(name string) (tensor, bool) {
	if t, ok := im.tensors[name]; ok {
		return t, true
	}
	if im.parent == nil {
		return tensor{}, false
	}
	outer, ok := im.parent.lookup(name)
	if !ok {
		return tensor{}, false
	}
	l := im.parameter(name, outer.info)
	t := tensor{ir.Output{Layer: l}, outer.info}
	im.tensors[name] = t
	im.outer = append(im.outer, outerRef{name, l, outer})
	return t, true
}

// parameter adds a Parameter for the ONNX tensor name.
func (im *importer) parameter(name string, info ops.ValueInfo) *ir.Layer {
	l := im.m.AddParameter(name, info.Type, info.Shape)
	l.Outputs[0].DynamicRank = info.Shape.DynamicRank
	im.name(l, name)
	return l
}

// body is a subgraph imported as an IR model.
type body struct {
	m       *ir.Model
	params  []*ir.Layer     // per graph input
	results []*ir.Layer     // per graph output
	infos   []ops.ValueInfo // per graph output, as the import inferred it
	outer   []outerRef
}

// subgraph imports the GRAPH attribute attr of node n, its inputs typed
// and shaped by inputs (the subgraph's own declarations give way, as in
// the frontend). The inputs squeeze names are read through a Squeeze at
// that axis (a Scan's element, one slice of a TensorIterator's sliced
// input); the outputs unsqueeze names are unsqueezed at that axis, the
// way the frontend prepares a Loop's or Scan's scan outputs for
// concatenation.
func (im *importer) subgraph(n *Node, attr string, g *Graph, inputs []ops.ValueInfo, squeeze, unsqueeze map[int]int64) (*body, error) {
	bi := &importer{
		src: im.src, m: &ir.Model{Name: cmp.Or(g.Name, attr), Version: 11}, opts: im.opts, opset: im.opset,
		tensors: make(map[string]tensor), declared: make(map[string]ValueInfo), names: make(map[string]int), outputs: make(map[string]bool), parent: im,
	}
	for _, v := range g.ValueInfos {
		bi.declared[v.Name] = v
	}
	for _, v := range g.Outputs {
		if v.Type != ir.Dynamic {
			bi.declared[v.Name] = v
			bi.outputs[v.Name] = true
		}
	}
	b := &body{m: bi.m}
	wrap := func(err error) error {
		d, _ := pkgerr.Detail("onnx", err)
		return errorf("%s attribute %q: %w", n, attr, d)
	}
	bi.node = n
	for i, in := range g.Inputs {
		info := inputs[i]
		l := bi.parameter(in.Name, info)
		t := tensor{ir.Output{Layer: l}, info}
		if axis, ok := squeeze[i]; ok {
			var err error
			if t, err = bi.one("Squeeze", "opset1", in.Name+"/squeeze", nil, t, bi.ints(in.Name+"/squeeze_axis", false, axis)); err != nil {
				return nil, wrap(err)
			}
		}
		bi.tensors[in.Name] = t
		b.params = append(b.params, l)
	}
	for _, init := range g.Initializers {
		bi.constant(init.Name, init.Name, init.Tensor)
	}
	for _, sub := range g.Nodes {
		bi.node = sub
		if err := bi.importNode(sub); err != nil {
			return nil, wrap(err)
		}
	}
	bi.node = n
	for i, o := range g.Outputs {
		t, ok := bi.lookup(o.Name)
		if !ok {
			return nil, wrap(errorf("%w: output %q is produced by no node", ErrFormat, o.Name))
		}
		if axis, ok := unsqueeze[i]; ok {
			var err error
			if t, err = bi.one("Unsqueeze", "opset1", o.Name+"/scan", nil, t, bi.ints(o.Name+"/scan_axis", false, axis)); err != nil {
				return nil, wrap(err)
			}
		}
		r := bi.m.AddResult("", t.out)
		bi.name(r, o.Name+"/sink_port_0")
		b.results = append(b.results, r)
		b.infos = append(b.infos, ops.ValueInfo{Type: t.info.Type, Shape: t.info.Shape})
	}
	b.outer = bi.outer
	return b, nil
}

// portEntry writes an <input> or <output> of a port map.
func portEntry(tag string, external int64, internal *ir.Layer, extra ...ir.Attr) *ir.Node {
	attrs := []ir.Attr{{Name: "external_port_id", Value: strconv.FormatInt(external, 10)}, {Name: "internal_layer_id", Value: strconv.FormatUint(internal.ID, 10)}}
	return &ir.Node{Tag: tag, Attrs: append(attrs, extra...)}
}

// addBodies appends a layer that holds bodies (extras: its port maps,
// back edges and bodies, in the serializer's order). Its outputs are
// inferred by ops; when ops cannot build it (a body holds an op irdiv
// does not know), they are those the import inferred (fallback).
func (im *importer) addBodies(typ, opset string, ins []tensor, extras []ir.Extra, fallback []ops.ValueInfo) ([]tensor, error) {
	srcs := make([]ir.Output, len(ins))
	infos := make([]ops.ValueInfo, len(ins))
	for i, in := range ins {
		srcs[i], infos[i] = in.out, in.info
	}
	l := im.m.AddLayer(typ, opset, "", nil, srcs, nil)
	im.name(l, nodeName(im.node))
	l.Extra = extras
	outs := fallback
	op, err := ops.New(l)
	switch {
	case err == nil:
		if outs, err = op.Infer(infos); err != nil {
			return nil, im.fail(&ops.LayerError{Layer: l, Err: err})
		}
		im.fold(op, ins, outs)
	case !isUnsupported(err):
		return nil, im.fail(err)
	}
	result := make([]tensor, len(outs))
	for i, info := range outs {
		l.Outputs = append(l.Outputs, &ir.Port{ID: uint64(len(ins) + i), Type: info.Type, Precision: info.Type.Precision(), Dims: ir.PortDims(info.Shape), DynamicRank: info.Shape.DynamicRank})
		result[i] = tensor{ir.Output{Layer: l, Index: i}, info}
	}
	return result, nil
}

// graphAttr returns the subgraph of attribute name, or fails with the
// frontend's words.
func (im *importer) graphAttr(n *Node, name string) (*Graph, error) {
	a := n.Attrs[name]
	if a == nil || a.Graph == nil {
		return nil, im.ruleErr("Missing '%s' attribute", name)
	}
	return a.Graph, nil
}

// scanBody keeps the body of a Scan the import could not turn into a
// TensorIterator (keepScan), which stays an opaque layer l, as l's body,
// its inputs as the body declares them: irdiv does not run it, but
// validate counts and examines the integer Divides in it, which would
// otherwise go unseen. A body that cannot be imported is left out.
func (im *importer) scanBody(n *Node, l *ir.Layer) {
	a := n.Attrs["body"]
	if a == nil || a.Graph == nil {
		return
	}
	g := a.Graph
	inputs := make([]ops.ValueInfo, len(g.Inputs))
	for i, in := range g.Inputs {
		inputs[i] = ops.ValueInfo{Type: in.Type, Shape: in.Shape}
	}
	k := im.mark()
	b, err := im.subgraph(n, "body", g, inputs, nil, nil)
	if err != nil {
		im.rollback(k)
		return
	}
	l.Extra = append(l.Extra, ir.Extra{Node: &ir.Node{Tag: "body"}, Body: b.m})
	if why, ok := im.scanWhy[n]; ok {
		l.RTInfo = &ir.Node{Tag: "rt_info", Children: []*ir.Node{{Tag: "attribute", Attrs: []ir.Attr{
			{Name: "name", Value: ScanKeptReason}, {Name: "version", Value: "0"}, {Name: "value", Value: why}}}}}
	}
}

// importIf turns an If into If-8: input 0 is the condition, then come the
// outer tensors each branch reads (the then_branch's, then the
// else_branch's), each mapped to a Parameter of its body.
func importIf(im *importer, n *Node) ([]tensor, error) {
	if len(n.Inputs) != 1 {
		return nil, im.ruleErr("If operator takes only one input (it has %d)", len(n.Inputs))
	}
	cond, ok := im.input(0)
	if !ok {
		return nil, im.ruleErr("If has no condition")
	}
	var branches [2]*body
	for i, name := range []string{"then_branch", "else_branch"} {
		g, err := im.graphAttr(n, name)
		if err != nil {
			return nil, err
		}
		if len(g.Inputs) != 0 {
			return nil, im.ruleErr("Number of inputs to '%s' is invalid: a branch takes no inputs, it has %d", name, len(g.Inputs))
		}
		if branches[i], err = im.subgraph(n, name, g, nil, nil, nil); err != nil {
			return nil, err
		}
	}
	then, els := branches[0], branches[1]
	if len(then.results) != len(els.results) {
		return nil, im.ruleErr("'then' and 'else' branches have to have the same number of outputs (%d and %d)", len(then.results), len(els.results))
	}
	if len(then.results) == 0 {
		return nil, im.ruleErr("the branches have no outputs")
	}
	ins := []tensor{cond}
	maps := [2]*ir.Node{{Tag: "then_port_map"}, {Tag: "else_port_map"}}
	for i, b := range branches {
		for _, r := range b.outer {
			maps[i].Children = append(maps[i].Children, portEntry("input", int64(len(ins)), r.param))
			ins = append(ins, r.outer)
		}
	}
	fallback := make([]ops.ValueInfo, len(then.results))
	for i, b := range branches {
		for k, r := range b.results {
			maps[i].Children = append(maps[i].Children, portEntry("output", int64(len(ins)+k), r))
		}
	}
	for k := range fallback {
		v, ok := mergeInfos(then.infos[k], els.infos[k])
		if !ok {
			return nil, im.ruleErr("output %d is %s in then_branch and %s in else_branch", k, then.infos[k].Type, els.infos[k].Type)
		}
		fallback[k] = v
	}
	return im.addBodies("If", "opset8", ins, []ir.Extra{
		{Node: maps[0]}, {Node: maps[1]},
		{Node: &ir.Node{Tag: "then_body"}, Body: then.m}, {Node: &ir.Node{Tag: "else_body"}, Body: els.m},
	}, fallback)
}

// mergeInfos is what either of two branches may give.
func mergeInfos(a, b ops.ValueInfo) (ops.ValueInfo, bool) {
	t := cmp.Or(a.Type, b.Type)
	if a.Type != ir.Dynamic && b.Type != ir.Dynamic && a.Type != b.Type {
		return ops.ValueInfo{}, false
	}
	if a.Shape.DynamicRank || b.Shape.DynamicRank || len(a.Shape.Dims) != len(b.Shape.Dims) {
		return ops.ValueInfo{Type: t, Shape: shapeinfer.DynamicRankShape()}, true
	}
	s := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(a.Shape.Dims))}
	for i, d := range a.Shape.Dims {
		e := b.Shape.Dims[i]
		s.Dims[i] = shapeinfer.Interval(min(d.Min, e.Min), max(d.Max, e.Max))
	}
	return ops.ValueInfo{Type: t, Shape: s}, true
}

// importLoop turns a Loop into Loop-5 as the frontend does. Inputs: the
// trip count (a Const -1, no bound, when M is absent or INT64_MAX), the
// execution condition (a Const true when absent), the condition again
// for the body's condition Parameter, the loop-carried values, and the
// outer tensors the body reads. The body's iteration number is the
// current_iteration Parameter, its first output the execution_condition;
// each loop-carried Result feeds its Parameter back (back_edges) and is
// an output after the last iteration; each scan output is unsqueezed and
// concatenated along axis 0.
func importLoop(im *importer, n *Node) ([]tensor, error) {
	g, err := im.graphAttr(n, "body")
	if err != nil {
		return nil, err
	}
	if len(n.Inputs) < 2 {
		return nil, im.ruleErr("Expecting at least two canonical inputs for Loop op: trip count and termination condition")
	}
	deps := make([]tensor, len(n.Inputs)-2)
	for i := range deps {
		t, ok := im.input(2 + i)
		if !ok {
			return nil, im.ruleErr("loop-carried input %d is absent", 2+i)
		}
		deps[i] = t
	}
	nDeps := len(deps)
	if len(g.Inputs) != nDeps+2 {
		return nil, im.ruleErr("The provided loop body graph inputs size (%d), does not match the sum of loop carried dependencies and two mandatory inputs (%d)", len(g.Inputs), nDeps+2)
	}
	if len(g.Outputs) < nDeps+1 {
		return nil, im.ruleErr("The provided loop body graph outputs size (%d) is smaller than number of outputs. Required at least: %d", len(g.Outputs), nDeps+1)
	}
	// The body's Parameters: the iteration number and the condition as
	// ONNX types them, each loop-carried value with its initial type and
	// rank, its dims left dynamic since they may change from one
	// iteration to the next (the import must not fold them).
	inputs := []ops.ValueInfo{{Type: ir.I64, Shape: shapeinfer.StaticShape()}, {Type: ir.Boolean, Shape: shapeinfer.StaticShape()}}
	for _, d := range deps {
		shape := d.info.Shape
		if !shape.DynamicRank {
			shape = shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(shape.Dims))}
			for i := range shape.Dims {
				shape.Dims[i] = shapeinfer.Dynamic()
			}
		}
		inputs = append(inputs, ops.ValueInfo{Type: d.info.Type, Shape: shape})
	}
	scans := make(map[int]int64)
	for i := 1 + nDeps; i < len(g.Outputs); i++ {
		scans[i] = 0
	}
	b, err := im.subgraph(n, "body", g, inputs, nil, scans)
	if err != nil {
		return nil, err
	}
	trip, ok := im.input(0)
	if v := trip.info.Value; !ok || v != nil && v.Len() == 1 && v.Type == ir.I64 && ir.View[int64](v)[0] == math.MaxInt64 {
		trip = im.ints("trip_count", false, -1)
	}
	cond, ok := im.input(1)
	if !ok {
		t, _ := ir.NewTensor(ir.Boolean, []int64{1})
		t.Data[0] = 1
		cond = im.constant(nodeName(n)+"/execution_cond", "", t)
	}
	ins := append([]tensor{trip, cond, cond}, deps...)
	portMap := &ir.Node{Tag: "port_map"}
	add := func(e *ir.Node) { portMap.Children = append(portMap.Children, e) }
	add(portEntry("input", 2, b.params[1]))
	add(portEntry("input", -1, b.params[0], ir.Attr{Name: "purpose", Value: "current_iteration"}))
	for i := range deps {
		add(portEntry("input", int64(3+i), b.params[2+i]))
	}
	for _, r := range b.outer {
		add(portEntry("input", int64(len(ins)), r.param))
		ins = append(ins, r.outer)
	}
	add(portEntry("output", -1, b.results[0], ir.Attr{Name: "purpose", Value: "execution_condition"}))
	fallback := make([]ops.ValueInfo, 0, len(b.results)-1)
	for i, r := range b.results[1:] {
		if i < nDeps {
			add(portEntry("output", int64(len(ins)+i), r))
			v, _ := mergeInfos(b.infos[1+i], deps[i].info)
			fallback = append(fallback, v)
			continue
		}
		add(portEntry("output", int64(len(ins)+i), r, ir.Attr{Name: "axis", Value: "0"}))
		v := b.infos[1+i]
		if !v.Shape.DynamicRank && len(v.Shape.Dims) > 0 {
			v.Shape = shapeinfer.Shape{Dims: append([]shapeinfer.Dim{shapeinfer.Dynamic()}, v.Shape.Dims[1:]...)}
		}
		fallback = append(fallback, v)
	}
	backEdges := &ir.Node{Tag: "back_edges"}
	edge := func(from, to *ir.Layer) {
		backEdges.Children = append(backEdges.Children, &ir.Node{Tag: "edge", Attrs: []ir.Attr{
			{Name: "from-layer", Value: strconv.FormatUint(from.ID, 10)}, {Name: "from-port", Value: "0"},
			{Name: "to-layer", Value: strconv.FormatUint(to.ID, 10)}, {Name: "to-port", Value: "0"}}})
	}
	edge(b.results[0], b.params[1])
	for i := range deps {
		edge(b.results[1+i], b.params[2+i])
	}
	return im.addBodies("Loop", "opset5", ins, []ir.Extra{
		{Node: portMap}, {Node: backEdges}, {Node: &ir.Node{Tag: "body"}, Body: b.m},
	}, fallback)
}

// importScan turns a Scan into TensorIterator-1 as the frontend does
// (scan.cpp): the loop state values are loop-carried (each body Result
// fed back to its Parameter, and an output after the last iteration);
// each scan input is sliced along its axis, one element per iteration (a
// Parameter of dim 1 there, squeezed in the body), the last first where
// its direction is 1; each scan output is unsqueezed at its axis and
// concatenated along it, in reverse where its direction is 1. Scan-8
// (opset 8) has a sequence_lens input first, which the frontend refuses
// when present, and a batch axis: its axes default to 1. Outer tensors
// the body reads are invariant inputs.
func importScan(im *importer, n *Node) ([]tensor, error) {
	g, err := im.graphAttr(n, "body")
	if err != nil {
		return nil, err
	}
	a := n.Attrs["num_scan_inputs"]
	if a == nil || a.Kind != "INT" {
		return nil, im.ruleErr("Missing 'num_scan_inputs' attribute")
	}
	numScanInputs := a.Int
	defaultAxis, offset, directionsAttr := int64(0), 0, "scan_input_directions"
	if im.opset < 9 {
		if _, ok := im.input(0); ok {
			return nil, im.ruleErr("ONNX Scan-8 `sequence_lens` input is not supported.")
		}
		defaultAxis, offset, directionsAttr = 1, 1, "directions"
	}
	numStates := int64(len(g.Inputs)) - numScanInputs
	switch {
	case numScanInputs < 1 || numStates < 0:
		return nil, im.ruleErr("num_scan_inputs is %d, and the body has %d inputs", numScanInputs, len(g.Inputs))
	case int64(len(n.Inputs)-offset) != int64(len(g.Inputs)):
		return nil, im.ruleErr("the Scan has %d state and scan inputs, its body %d", len(n.Inputs)-offset, len(g.Inputs))
	case int64(len(g.Outputs)) < numStates:
		return nil, im.ruleErr("the body has %d outputs, fewer than its %d state variables", len(g.Outputs), numStates)
	}
	numScanOutputs := int64(len(g.Outputs)) - numStates
	list := func(name string, n2 int64, def int64) ([]int64, error) {
		v, ok := attrInts(n, name)
		if !ok {
			return slices.Repeat([]int64{def}, int(n2)), nil
		}
		if int64(len(v)) != n2 {
			return nil, im.ruleErr("%s has %d values, want %d", name, len(v), n2)
		}
		return v, nil
	}
	inAxes, err1 := list("scan_input_axes", numScanInputs, defaultAxis)
	inDirs, err2 := list(directionsAttr, numScanInputs, 0)
	outAxes, err3 := list("scan_output_axes", numScanOutputs, defaultAxis)
	outDirs, err4 := list("scan_output_directions", numScanOutputs, 0)
	if err := cmp.Or(err1, err2, err3, err4); err != nil {
		return nil, err
	}
	ins := make([]tensor, len(g.Inputs))
	for i := range ins {
		t, ok := im.input(offset + i)
		if !ok {
			return nil, im.ruleErr("input %d is absent", offset+i)
		}
		ins[i] = t
	}
	// The body's Parameters: each state with its initial type and rank,
	// its dims dynamic since they may change from one iteration to the
	// next (the import must not fold them, as for a Loop); each scan
	// input as its input with 1 along the axis.
	inputs := make([]ops.ValueInfo, len(ins))
	squeeze := make(map[int]int64)
	for i, t := range ins {
		if int64(i) < numStates {
			inputs[i] = anyDims(t.info)
			continue
		}
		axis := inAxes[int64(i)-numStates]
		squeeze[i] = axis
		shape := t.info.Shape
		if shape.DynamicRank {
			if axis < 0 {
				return nil, im.ruleErr("Rank must be static in order to normalize negative axis=%d", axis)
			}
		} else {
			r := int64(len(shape.Dims))
			if axis < -r || axis >= r {
				return nil, im.ruleErr("Parameter axis %d out of the tensor rank range [%d, %d].", axis, -r, r-1)
			}
			shape = shapeinfer.Shape{Dims: slices.Clone(shape.Dims)}
			shape.Dims[(axis+r)%r] = shapeinfer.Static(1)
		}
		inputs[i] = ops.ValueInfo{Type: t.info.Type, Shape: shape}
	}
	unsqueeze := make(map[int]int64)
	for i, axis := range outAxes {
		unsqueeze[int(numStates)+i] = axis
	}
	b, err := im.subgraph(n, "body", g, inputs, squeeze, unsqueeze)
	if err != nil {
		return im.keepScan(n, err)
	}
	portMap := &ir.Node{Tag: "port_map"}
	add := func(e *ir.Node) { portMap.Children = append(portMap.Children, e) }
	cut := func(axis, direction int64) []ir.Attr {
		start, end, stride := "0", "-1", "1"
		if direction != 0 {
			start, end, stride = "-1", "0", "-1"
		}
		return []ir.Attr{{Name: "axis", Value: strconv.FormatInt(axis, 10)}, {Name: "start", Value: start}, {Name: "end", Value: end},
			{Name: "stride", Value: stride}, {Name: "part_size", Value: "1"}}
	}
	for i := range ins {
		if int64(i) < numStates {
			add(portEntry("input", int64(i), b.params[i]))
			continue
		}
		k := int64(i) - numStates
		axis := inAxes[k]
		if r := ins[i].info.Shape; !r.DynamicRank && axis < 0 {
			axis += int64(len(r.Dims))
		}
		add(portEntry("input", int64(i), b.params[i], cut(axis, inDirs[k])...))
	}
	for _, r := range b.outer {
		add(portEntry("input", int64(len(ins)), r.param))
		ins = append(ins, r.outer)
	}
	fallback := make([]ops.ValueInfo, len(b.results))
	backEdges := &ir.Node{Tag: "back_edges"}
	for i, r := range b.results {
		if int64(i) < numStates {
			add(portEntry("output", int64(len(ins)+i), r))
			backEdges.Children = append(backEdges.Children, &ir.Node{Tag: "edge", Attrs: []ir.Attr{
				{Name: "from-layer", Value: strconv.FormatUint(r.ID, 10)}, {Name: "from-port", Value: "0"},
				{Name: "to-layer", Value: strconv.FormatUint(b.params[i].ID, 10)}, {Name: "to-port", Value: "0"}}})
			fallback[i], _ = mergeInfos(b.infos[i], ins[i].info)
			continue
		}
		k := int64(i) - numStates
		v := b.infos[i]
		axis := outAxes[k]
		if v.Shape.DynamicRank {
			if axis < 0 {
				return nil, im.ruleErr("Rank must be static in order to normalize negative axis=%d", axis)
			}
		} else {
			r := int64(len(v.Shape.Dims))
			if axis < -r || axis >= r {
				return nil, im.ruleErr("Parameter axis %d out of the tensor rank range [%d, %d].", axis, -r, r-1)
			}
			axis = (axis + r) % r
			v.Shape = shapeinfer.Shape{Dims: slices.Clone(v.Shape.Dims)}
			v.Shape.Dims[axis] = shapeinfer.Dynamic()
		}
		add(portEntry("output", int64(len(ins)+i), r, cut(axis, outDirs[k])...))
		fallback[i] = v
	}
	out, err := im.addBodies("TensorIterator", "opset1", ins, []ir.Extra{
		{Node: portMap}, {Node: backEdges}, {Node: &ir.Node{Tag: "body"}, Body: b.m},
	}, fallback)
	if err != nil {
		return im.keepScan(n, err)
	}
	return out, nil
}

// keepScan gives up turning Scan n into a TensorIterator: it stays an
// opaque layer with its body kept for validate (scanBody), and why
// (err) in the layer's rt_info, for the reports.
func (im *importer) keepScan(n *Node, err error) ([]tensor, error) {
	if im.scanWhy == nil {
		im.scanWhy = make(map[*Node]string)
	}
	d, _ := pkgerr.Detail("onnx", err)
	im.scanWhy[n] = d.Error()
	return nil, nil
}

// ScanKeptReason is the rt_info attribute of a Scan the import kept
// opaque: why it could not turn it into a TensorIterator.
const ScanKeptReason = "irdiv_scan_kept"

// anyDims is v's type and rank, its dims dynamic.
func anyDims(v ops.ValueInfo) ops.ValueInfo {
	shape := v.Shape
	if !shape.DynamicRank {
		shape = shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(shape.Dims))}
		for i := range shape.Dims {
			shape.Dims[i] = shapeinfer.Dynamic()
		}
	}
	return ops.ValueInfo{Type: v.Type, Shape: shape}
}
