package ops

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The control-flow ops, If-8, Loop-5 and TensorIterator-1
// (tensoriterator.go), whose bodies are models of their
// own (ir.Layer.Extra, with the port maps and back edges as ir.Nodes), read
// as OpenVINO's IR deserializer reads them
// (src/frontends/ir/src/ir_deserializer.cpp) and computed as its reference
// implementations do (src/core/reference/src/op/if.cpp, loop.cpp), which
// follow ONNX's If and Loop.

// DefaultMaxBodyRuns is the default of Options.MaxBodyRuns: about a
// million body runs (Loop iterations and If branches) per evaluation.
const DefaultMaxBodyRuns = 1 << 20

// maxBodyDepth bounds how deeply bodies nest. Inferring a Loop may infer
// its body twice (once more when a loop-carried shape changes) and an If
// with an unknown condition infers both branches, so inference costs up
// to 2^depth body inferences: the bound keeps a crafted model cheap, and
// real models nest two or three bodies deep.
const maxBodyDepth = 12

func registerControlFlow() {
	registry["if"] = &opInfo{name: "If", versions: []int{8}, nested: func(l *ir.Layer, _, depth int) (Op, error) { return newIf(l, depth) }}
	registry["loop"] = &opInfo{name: "Loop", versions: []int{5}, nested: func(l *ir.Layer, _, depth int) (Op, error) { return newLoop(l, depth) }}
	registry["tensoriterator"] = &opInfo{name: "TensorIterator", versions: []int{1}, nested: func(l *ir.Layer, _, depth int) (Op, error) { return newTensorIterator(l, depth) }}
}

// bodyHolder is implemented by the ops that run bodies: they evaluate when
// every op of their bodies does.
type bodyHolder interface {
	bodiesEvaluable() bool
}

// bodyErr puts the name of a body before an error that happened in it,
// keeping one "ops: " prefix and the error chain.
func bodyErr(body string, err error) error {
	return errorf("%s %w", body, detail(err))
}

// detail strips this package's prefix from an error's message, to put
// context before it; the error chain is kept.
func detail(err error) error {
	if msg, ok := strings.CutPrefix(err.Error(), "ops: "); ok {
		return &detailed{msg, err}
	}
	return err
}

// detailed is an error of this package without its prefix.
type detailed struct {
	msg string
	err error
}

func (d *detailed) Error() string { return d.msg }
func (d *detailed) Unwrap() error { return d.err }

// withRuns gives o the counter of body runs of the evaluation it starts,
// unless an enclosing body already did.
func (o Options) withRuns() Options {
	if o.runs == nil {
		n := cmp.Or(o.MaxBodyRuns, DefaultMaxBodyRuns)
		o.runs = &n
	}
	return o
}

// spend counts one body run; it fails once the evaluation has run more
// bodies than MaxBodyRuns allows.
func (o Options) spend() error {
	if *o.runs--; *o.runs < 0 {
		return errorf("%w: more than %d body runs (Options.MaxBodyRuns): a Loop whose trip count and condition do not end it soon", ir.ErrLimit, cmp.Or(o.MaxBodyRuns, DefaultMaxBodyRuns))
	}
	return nil
}

// portEntry is one <input> or <output> of a port map.
type portEntry struct {
	external int64
	internal uint64
	axis     *int64
	purpose  string
	node     *ir.Node
}

// extra returns the child of a layer with the given tag: a body or a node.
func extra(l *ir.Layer, tag string) (ir.Extra, bool) {
	for _, x := range l.Extra {
		if x.Node != nil && x.Node.Tag == tag {
			return x, true
		}
	}
	return ir.Extra{}, false
}

// body builds the program of a layer's body.
func body(l *ir.Layer, tag string, depth int) (*Program, error) {
	x, ok := extra(l, tag)
	if !ok || x.Body == nil {
		return nil, errorf("%w: %s has no <%s> (Missing body part.)", ErrAttribute, l.Type, tag)
	}
	if depth >= maxBodyDepth {
		return nil, errorf("%w: bodies nest more than %d deep", ir.ErrLimit, maxBodyDepth)
	}
	p, err := newProgram(x.Body, depth+1)
	if err != nil {
		return nil, bodyErr(tag, err)
	}
	return p, nil
}

// portMap reads the <input> and <output> entries of a port map, as
// OpenVINO's deserializer does: ordered by external_port_id.
func portMap(l *ir.Layer, tag string) (inputs, outputs []portEntry, err error) {
	x, ok := extra(l, tag)
	if !ok || x.Body != nil {
		return nil, nil, errorf("%w: %s has no <%s>", ErrAttribute, l.Type, tag)
	}
	for _, n := range x.Node.Children {
		if n.Tag != "input" && n.Tag != "output" {
			continue
		}
		e := portEntry{node: n}
		ext, ok := n.Attr("external_port_id")
		if e.external, err = strconv.ParseInt(strings.TrimSpace(ext), 10, 64); !ok || err != nil {
			return nil, nil, errorf("%w: <%s> <%s> has external_port_id %q, not an integer", ErrAttribute, tag, n.Tag, ext)
		}
		in, ok := n.Attr("internal_layer_id")
		if e.internal, err = strconv.ParseUint(strings.TrimSpace(in), 10, 64); !ok || err != nil {
			return nil, nil, errorf("%w: <%s> <%s> has internal_layer_id %q, not an unsigned integer", ErrAttribute, tag, n.Tag, in)
		}
		if s, ok := n.Attr("axis"); ok {
			axis, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return nil, nil, errorf("%w: <%s> <%s> has axis %q, not an integer", ErrAttribute, tag, n.Tag, s)
			}
			e.axis = &axis
		}
		e.purpose, _ = n.Attr("purpose")
		if n.Tag == "input" {
			inputs = append(inputs, e)
		} else {
			outputs = append(outputs, e)
		}
	}
	byExternal := func(a, b portEntry) int { return cmp.Compare(a.external, b.external) }
	slices.SortStableFunc(inputs, byExternal)
	slices.SortStableFunc(outputs, byExternal)
	return inputs, outputs, nil
}

// mergeInfo is the union of what two bodies (or iterations) may give: the
// same type (a dynamic one gives way), and a shape that admits both.
func mergeInfo(a, b ValueInfo) (ValueInfo, bool) {
	t := a.Type
	switch {
	case a.Type == ir.Dynamic:
		t = b.Type
	case b.Type != ir.Dynamic && a.Type != b.Type:
		return ValueInfo{}, false
	}
	return ValueInfo{Type: t, Shape: unionShape(a.Shape, b.Shape)}, true
}

// unionShape admits every shape a or b admits: a dynamic rank where the
// ranks may differ, each dim's interval widened to hold both.
func unionShape(a, b shapeinfer.Shape) shapeinfer.Shape {
	if a.DynamicRank || b.DynamicRank || len(a.Dims) != len(b.Dims) {
		return shapeinfer.DynamicRankShape()
	}
	s := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(a.Dims))}
	for i := range a.Dims {
		s.Dims[i] = shapeinfer.Interval(min(a.Dims[i].Min, b.Dims[i].Min), max(a.Dims[i].Max, b.Dims[i].Max))
	}
	return s
}

// noValues drops the values of infos: Infer never sets them.
func noValues(infos []ValueInfo) []ValueInfo {
	for i := range infos {
		infos[i].Value = nil
	}
	return infos
}

// oneElement checks a condition or trip count: a scalar or a tensor of one
// element.
func checkOneElement(what string, v ValueInfo) error {
	if v.Shape.DynamicRank {
		return nil
	}
	for _, d := range v.Shape.Dims {
		if !d.Contains(1) {
			return errorf("%w: the %s must be a scalar or hold one element, not %s", ErrShape, what, v.Shape)
		}
	}
	return nil
}

// If is If-8: it runs Then when its first input (a boolean scalar or
// one-element tensor) is true and Else otherwise; the other inputs feed
// the bodies' Parameters through the port maps, and each output is a
// body Result.
type If struct {
	Then, Else *ifBranch
	inputs     int // the inputs of the layer, the condition included
}

// ifBranch is one body of an If and its port map.
type ifBranch struct {
	name string
	prog *Program
	in   []int // per body Parameter, the If input that feeds it
	out  []int // per If output, the body Result
}

func newIf(l *ir.Layer, depth int) (Op, error) {
	f := &If{inputs: len(l.Inputs)}
	for i, name := range []string{"then", "else"} {
		prog, err := body(l, name+"_body", depth)
		if err != nil {
			return nil, err
		}
		b := &ifBranch{name: name + "_body", prog: prog}
		if err := b.ports(l, name+"_port_map"); err != nil {
			return nil, err
		}
		if i == 0 {
			f.Then = b
		} else {
			f.Else = b
		}
	}
	if len(f.Then.out) != len(f.Else.out) {
		return nil, errorf("%w: then_body gives %s and else_body %s: both must give one per output of the If", ErrAttribute, count(len(f.Then.out), "output"), count(len(f.Else.out), "output"))
	}
	if len(f.Then.out) == 0 {
		return nil, errorf("%w: the If has no outputs (each body must have at least one Result in its port map)", ErrAttribute)
	}
	return f, nil
}

// ports reads a branch's port map: each body Parameter is fed by exactly
// one If input other than the condition; the outputs, in the order of
// their external_port_id, are the If's outputs.
func (b *ifBranch) ports(l *ir.Layer, tag string) error {
	ins, outs, err := portMap(l, tag)
	if err != nil {
		return err
	}
	b.in = slices.Repeat([]int{-1}, len(b.prog.params))
	for _, e := range ins {
		p, ok := b.prog.paramIndex(e.internal)
		switch {
		case !ok:
			return errorf("%w: <%s> maps input %d to layer %d, which is no Parameter of %s", ErrAttribute, tag, e.external, e.internal, b.name)
		case e.external < 0 || e.external >= int64(len(l.Inputs)):
			return errorf("%w: <%s> maps Parameter %d of %s to input %d, which the If does not have (it has %s)", ErrAttribute, tag, e.internal, b.name, e.external, count(len(l.Inputs), "input"))
		case b.in[p] >= 0:
			return errorf("%w: <%s> feeds Parameter %d of %s twice", ErrAttribute, tag, e.internal, b.name)
		}
		b.in[p] = int(e.external)
	}
	for p, ext := range b.in {
		if ext < 0 {
			return errorf("%w: %s of %s is fed by no input of the If (<%s>)", ErrAttribute, b.prog.params[p], b.name, tag)
		}
	}
	for _, e := range outs {
		if e.external < 0 {
			continue
		}
		r, ok := b.prog.resultIndex(e.internal)
		if !ok {
			return errorf("%w: <%s> maps output %d to layer %d, which is no Result of %s", ErrAttribute, tag, e.external, e.internal, b.name)
		}
		b.out = append(b.out, r)
	}
	return nil
}

func (*If) OpType() (string, string) { return "If", "opset8" }

// Attrs: an If has no <data>; its bodies and port maps stay in the layer.
func (*If) Attrs() []ir.Attr { return nil }

func (f *If) bodiesEvaluable() bool { return f.Then.prog.evaluable() && f.Else.prog.evaluable() }

// Infer infers both bodies from the inputs that feed them; the outputs
// are the branch the condition picks when its value is known, else the
// union of both branches (same types; shapes that admit either).
func (f *If) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) != f.inputs {
		return nil, errorf("%w: If has %s, but the layer declares %s", ir.ErrGraph, count(f.inputs, "input"), count(len(in), "input port"))
	}
	cond := in[0]
	if cond.Type != ir.Boolean && cond.Type != ir.Dynamic {
		return nil, errorf("%w: the condition of an If must be boolean, not %s", ErrType, cond.Type)
	}
	if err := checkOneElement("condition", cond); err != nil {
		return nil, err
	}
	infer := func(b *ifBranch) ([]ValueInfo, error) {
		params := make([]ValueInfo, len(b.in))
		for p, ext := range b.in {
			params[p] = in[ext]
		}
		res, err := b.prog.infer(params)
		if err != nil {
			return nil, bodyErr(b.name, err)
		}
		out := make([]ValueInfo, len(b.out))
		for i, r := range b.out {
			out[i] = res[r]
		}
		return out, nil
	}
	if cond.Value != nil && cond.Value.Len() == 1 {
		b := f.Else
		if cond.Value.Data[0] != 0 {
			b = f.Then
		}
		out, err := infer(b)
		return noValues(out), err
	}
	then, err := infer(f.Then)
	if err != nil {
		return nil, err
	}
	els, err := infer(f.Else)
	if err != nil {
		return nil, err
	}
	out := make([]ValueInfo, len(then))
	for i := range then {
		var ok bool
		if out[i], ok = mergeInfo(then[i], els[i]); !ok {
			return nil, errorf("%w: output %d is %s in then_body and %s in else_body", ErrType, i, then[i].Type, els[i].Type)
		}
	}
	return out, nil
}

// evaluateDynamic runs the branch the condition picks.
func (f *If) evaluateDynamic(in []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	if len(in) != f.inputs {
		return nil, errorf("%w: If has %s, but %d tensors are given", ir.ErrGraph, count(f.inputs, "input"), len(in))
	}
	cond := in[0]
	if cond.Type != ir.Boolean || cond.Len() != 1 {
		return nil, errorf("%w: the condition of an If must be a boolean scalar or one-element tensor, not %s%v", ErrType, cond.Type, cond.Shape)
	}
	b := f.Else
	if cond.Data[0] != 0 {
		b = f.Then
	}
	o = o.withRuns()
	if err := o.spend(); err != nil {
		return nil, err
	}
	args := make([]*ir.Tensor, len(b.in))
	for p, ext := range b.in {
		args[p] = in[ext]
	}
	res, err := b.prog.Run(args, o)
	if err != nil {
		return nil, bodyErr(b.name, err)
	}
	out := make([]*ir.Tensor, len(b.out))
	for i, r := range b.out {
		out[i] = res[r]
	}
	return out, nil
}

// Loop is Loop-5: it runs its body while the iteration is below the trip
// count (first input; negative: no bound) and the condition holds (the
// second input before the first iteration, the body's execution_condition
// Result after each). Other inputs feed body Parameters: once (invariant
// inputs) or before the first iteration only, the back edges feeding them
// afterwards (loop-carried values). An output is a body Result after the
// last iteration (the initial value of its loop-carried Parameter when no
// iteration runs), or its values of all iterations concatenated along an
// axis (scan outputs).
type Loop struct {
	Body   *Program
	inputs int
	// in is, per body Parameter, the Loop input that feeds it (-1 for the
	// current iteration); back, the Result that feeds it after each
	// iteration (-1: none).
	in, back   []int
	iterParam  int // -1: the body does not read the iteration number
	condResult int // -1: the body gives no condition, which stays true
	out        []loopOutput
}

// loopOutput is one output of a Loop: a body Result, its last value or
// its values concatenated along axis.
type loopOutput struct {
	result int
	concat bool
	axis   int64
}

func newLoop(l *ir.Layer, depth int) (Op, error) {
	prog, err := body(l, "body", depth)
	if err != nil {
		return nil, err
	}
	lp := &Loop{Body: prog, inputs: len(l.Inputs), iterParam: -1, condResult: -1,
		in: slices.Repeat([]int{-2}, len(prog.params)), back: slices.Repeat([]int{-1}, len(prog.params))}
	ins, outs, err := portMap(l, "port_map")
	if err != nil {
		return nil, err
	}
	for _, e := range ins {
		p, ok := prog.paramIndex(e.internal)
		switch {
		case !ok:
			return nil, errorf("%w: <port_map> maps input %d to layer %d, which is no Parameter of the body", ErrAttribute, e.external, e.internal)
		case lp.in[p] != -2:
			return nil, errorf("%w: <port_map> feeds %s of the body twice", ErrAttribute, prog.params[p])
		case e.purpose == "current_iteration":
			lp.in[p], lp.iterParam = -1, p
		case e.axis != nil:
			return nil, errorf("%w: irdiv does not implement the sliced inputs of a Loop (<input axis=...>)", ErrUnsupportedOp)
		case e.external < 0 || e.external >= int64(len(l.Inputs)):
			return nil, errorf("%w: <port_map> maps %s of the body to input %d, which the Loop does not have (it has %s)", ErrAttribute, prog.params[p], e.external, count(len(l.Inputs), "input"))
		default:
			lp.in[p] = int(e.external)
		}
	}
	for p, ext := range lp.in {
		if ext == -2 {
			return nil, errorf("%w: %s of the body is fed by no input of the Loop (<port_map>)", ErrAttribute, prog.params[p])
		}
	}
	for _, e := range outs {
		r, ok := prog.resultIndex(e.internal)
		if !ok {
			return nil, errorf("%w: <port_map> maps output %d to layer %d, which is no Result of the body", ErrAttribute, e.external, e.internal)
		}
		if e.purpose == "execution_condition" {
			lp.condResult = r
			continue
		}
		if e.external < 0 {
			continue
		}
		o := loopOutput{result: r}
		if e.axis != nil {
			for _, a := range []struct {
				name string
				def  int64
			}{{"start", 0}, {"stride", 1}, {"part_size", 1}, {"end", -1}} {
				if s, ok := e.node.Attr(a.name); ok && strings.TrimSpace(s) != strconv.FormatInt(a.def, 10) {
					return nil, errorf("%w: irdiv concatenates every iteration's output of a Loop (%s %s is not %d)", ErrUnsupportedOp, a.name, s, a.def)
				}
			}
			o.concat, o.axis = true, *e.axis
		}
		lp.out = append(lp.out, o)
	}
	if err := readBackEdges(l, prog, lp.back, lp.iterParam); err != nil {
		return nil, err
	}
	return lp, nil
}

// readBackEdges reads the <back_edges> of a Loop or TensorIterator into
// back (per body Parameter, the Result that feeds it after each
// iteration): each from a Result to a Parameter, none to Parameter
// notCarried (a Loop's current iteration; -1: none), none twice.
func readBackEdges(l *ir.Layer, prog *Program, back []int, notCarried int) error {
	x, ok := extra(l, "back_edges")
	if !ok || x.Node == nil {
		return nil
	}
	for _, n := range x.Node.Children {
		if n.Tag != "edge" {
			continue
		}
		from, err1 := layerIDAttr(n, "from-layer")
		to, err2 := layerIDAttr(n, "to-layer")
		if err := cmp.Or(err1, err2); err != nil {
			return err
		}
		r, okR := prog.resultIndex(from)
		p, okP := prog.paramIndex(to)
		switch {
		case !okR || !okP:
			return errorf("%w: <back_edges> goes from layer %d to layer %d, not from a Result to a Parameter of the body", ErrAttribute, from, to)
		case p == notCarried:
			return errorf("%w: <back_edges> feeds the current iteration %s", ErrAttribute, prog.params[p])
		case back[p] >= 0:
			return errorf("%w: <back_edges> feeds %s twice", ErrAttribute, prog.params[p])
		}
		back[p] = r
	}
	return nil
}

func layerIDAttr(n *ir.Node, name string) (uint64, error) {
	s, _ := n.Attr(name)
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, errorf("%w: <back_edges> <edge> has %s %q, not a layer id", ErrAttribute, name, s)
	}
	return v, nil
}

func (*Loop) OpType() (string, string) { return "Loop", "opset5" }

// Attrs: a Loop has no <data>; its body, port map and back edges stay in
// the layer.
func (*Loop) Attrs() []ir.Attr { return nil }

func (lp *Loop) bodiesEvaluable() bool { return lp.Body.evaluable() }

// iterInfo is the type and shape of the current iteration's Parameter:
// as declared (i64 or i32; a scalar when its rank is not).
func (lp *Loop) iterInfo() ValueInfo {
	p, _ := newParameterOf(lp.Body.params[lp.iterParam])
	v := ValueInfo{Type: ir.I64, Shape: shapeinfer.StaticShape()}
	if p != nil && (p.Type == ir.I32 || p.Type == ir.I64) {
		v.Type = p.Type
	}
	if p != nil && !p.Shape.DynamicRank && len(p.Shape.Dims) == 1 {
		v.Shape = shapeinfer.StaticShape(1)
	}
	return v
}

// newParameterOf reads a body Parameter's declared type and shape.
func newParameterOf(l *ir.Layer) (*Parameter, error) {
	op, err := newParameter(l)
	if err != nil {
		return nil, err
	}
	return op.(*Parameter), nil
}

func (lp *Loop) checkControl(in []ValueInfo) error {
	if len(in) != lp.inputs || len(in) < 2 {
		return errorf("%w: Loop has %s, but the layer declares %s", ir.ErrGraph, count(lp.inputs, "input"), count(len(in), "input port"))
	}
	if t := in[0].Type; t != ir.I64 && t != ir.I32 && t != ir.Dynamic {
		return errorf("%w: the trip count of a Loop must be i64 or i32, not %s", ErrType, t)
	}
	if t := in[1].Type; t != ir.Boolean && t != ir.Dynamic {
		return errorf("%w: the execution condition of a Loop must be boolean, not %s", ErrType, t)
	}
	return cmp.Or(checkOneElement("trip count", in[0]), checkOneElement("execution condition", in[1]))
}

// Infer infers the body from the inputs that feed it; a loop-carried
// Parameter whose Result comes back with another shape is widened to
// admit both, and the body inferred again. Scan outputs have the axis
// dimension dynamic, unless the trip count and both conditions are known.
func (lp *Loop) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := lp.checkControl(in); err != nil {
		return nil, err
	}
	params := make([]ValueInfo, len(lp.in))
	for p, ext := range lp.in {
		if ext < 0 {
			params[p] = lp.iterInfo()
			continue
		}
		params[p] = in[ext]
		if lp.back[p] >= 0 {
			params[p].Value = nil // it changes from one iteration to the next
		}
	}
	res, err := inferCarried(lp.Body, params, lp.back)
	if err != nil {
		return nil, err
	}
	iterations, known := lp.knownIterations(in, res)
	out := make([]ValueInfo, len(lp.out))
	for i, o := range lp.out {
		v := res[o.result]
		if !o.concat {
			for p, r := range lp.back {
				if r == o.result && lp.in[p] >= 0 {
					// No iteration gives the initial value.
					v, _ = mergeInfo(v, in[lp.in[p]])
				}
			}
			out[i] = ValueInfo{Type: v.Type, Shape: v.Shape}
			continue
		}
		shape := shapeinfer.DynamicRankShape()
		if !v.Shape.DynamicRank {
			axis, err := normalizeAxis(o.axis, len(v.Shape.Dims))
			if err != nil {
				return nil, errorf("output %d: %w", i, err)
			}
			shape = shapeinfer.Shape{Dims: slices.Clone(v.Shape.Dims)}
			d := shapeinfer.Dynamic()
			if known && v.Shape.Dims[axis].IsStatic() {
				d = shapeinfer.Static(satMul(v.Shape.Dims[axis].Min, iterations))
			}
			shape.Dims[axis] = d
		}
		out[i] = ValueInfo{Type: v.Type, Shape: shape}
	}
	return out, nil
}

// inferCarried infers the body of a Loop or TensorIterator from params;
// a loop-carried Parameter (back: the Result that feeds it, per
// Parameter) whose Result comes back with another shape is widened to
// admit both, and the body inferred again, until it comes back within
// them. After the first widening, a dim that still changes is opened
// (openChanged) where it grew or shrank, so that it changes no more than
// twice: a Concat each iteration grows it at every iteration (it had
// stopped after one widening, and claimed [0, 5] of a dim that four
// iterations make 7). A Parameter still changing after maxCarriedRounds
// takes any shape.
func inferCarried(body *Program, params []ValueInfo, back []int) ([]ValueInfo, error) {
	for round := 0; ; round++ {
		res, err := body.infer(params)
		if err != nil {
			return nil, bodyErr("body", err)
		}
		changed := false
		for p, r := range back {
			if r < 0 {
				continue
			}
			merged, ok := mergeInfo(params[p], res[r])
			if !ok {
				return nil, errorf("%w: the body gives %s back to %s, which is %s", ErrType, res[r].Type, body.params[p], params[p].Type)
			}
			merged.Value = nil
			if !merged.Shape.Equal(params[p].Shape) || merged.Type != params[p].Type {
				switch {
				case round >= maxCarriedRounds:
					merged.Shape = shapeinfer.DynamicRankShape()
				case round >= 1:
					merged.Shape = openChanged(params[p].Shape, merged.Shape)
				}
				params[p], changed = merged, true
			}
		}
		if !changed {
			return res, nil
		}
	}
}

// maxCarriedRounds bounds the widenings of loop-carried Parameters
// before one that still changes takes any shape (which no body output
// changes again).
const maxCarriedRounds = 8

// openChanged is merged with each dim that differs from was's open on
// the side it moved: unbounded above where it grew, from 0 where it
// shrank.
func openChanged(was, merged shapeinfer.Shape) shapeinfer.Shape {
	if merged.DynamicRank || was.DynamicRank || len(was.Dims) != len(merged.Dims) {
		return merged
	}
	out := shapeinfer.Shape{Dims: slices.Clone(merged.Dims)}
	for i, d := range merged.Dims {
		lo, hi := d.Min, d.Max
		if d.Max != was.Dims[i].Max {
			hi = shapeinfer.Unbounded
		}
		if d.Min != was.Dims[i].Min {
			lo = 0
		}
		out.Dims[i] = shapeinfer.Interval(lo, hi)
	}
	return out
}

// knownIterations tells how many iterations run when inference knows it:
// a known trip count and execution condition, and a body condition that
// is a constant true.
func (lp *Loop) knownIterations(in, res []ValueInfo) (int64, bool) {
	trip, cond := in[0].Value, in[1].Value
	if trip == nil || cond == nil || trip.Len() != 1 || cond.Len() != 1 {
		return 0, false
	}
	if cond.Data[0] == 0 {
		return 0, true
	}
	n := intAt(trip, 0)
	if n < 0 {
		return 0, false
	}
	if lp.condResult >= 0 {
		if p := lp.Body.resultParam(lp.condResult); p >= 0 && lp.back[p] == lp.condResult && lp.in[p] >= 0 {
			// The body hands its condition Parameter back unchanged (as
			// converters write a Loop without a condition): it stays what
			// it was before the first iteration.
			c := in[lp.in[p]].Value
			return n, c != nil && c.Len() == 1 && c.Data[0] != 0
		}
		c := res[lp.condResult].Value
		if c == nil || c.Type != ir.Boolean || c.Len() != 1 || c.Data[0] == 0 {
			return 0, false
		}
	}
	return n, true
}

// evaluateDynamic runs the body as ONNX's Loop does:
//
//	for i := 0; (trip < 0 || i < trip) && cond; i++ { ...; cond = body's condition }
//
// Each iteration counts against Options.MaxBodyRuns, and the values a
// scan output gathers against the tensor cap, so that no Loop runs
// forever or fills the memory.
func (lp *Loop) evaluateDynamic(in []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	infos := make([]ValueInfo, len(in))
	for i, t := range in {
		infos[i] = ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...)}
	}
	if err := lp.checkControl(infos); err != nil {
		return nil, err
	}
	if in[0].Len() != 1 || in[1].Len() != 1 {
		return nil, errorf("%w: the trip count and execution condition must hold one element, not %v and %v", ErrShape, in[0].Shape, in[1].Shape)
	}
	trip, cond := intAt(in[0], 0), in[1].Data[0] != 0
	o = o.withRuns()
	maxBytes := cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes)
	vals := make([]*ir.Tensor, len(lp.in))
	for p, ext := range lp.in {
		if ext >= 0 {
			vals[p] = in[ext]
		}
	}
	scans := make([][]*ir.Tensor, len(lp.out))
	scanBytes := make([]int64, len(lp.out))
	var last []*ir.Tensor
	iter := int64(0)
	for ; (trip < 0 || iter < trip) && cond; iter++ {
		if err := o.spend(); err != nil {
			return nil, errorf("iteration %d: %w", iter, detail(err))
		}
		if lp.iterParam >= 0 {
			v := lp.iterInfo()
			dims, _ := v.Shape.ToStatic()
			t, _ := ir.NewTensor(v.Type, dims)
			if v.Type == ir.I32 {
				ir.View[int32](t)[0] = int32(iter)
			} else {
				ir.View[int64](t)[0] = iter
			}
			vals[lp.iterParam] = t
		}
		res, err := lp.Body.Run(vals, o)
		if err != nil {
			return nil, errorf("iteration %d: %w", iter, detail(bodyErr("body", err)))
		}
		for i, out := range lp.out {
			if !out.concat {
				continue
			}
			t := res[out.result]
			if scanBytes[i] += int64(len(t.Data)); scanBytes[i] > maxBytes {
				return nil, errorf("%w: iteration %d: scan output %d grows past the %d bytes allowed (MaxTensorBytes)", ir.ErrTooLarge, iter, i, maxBytes)
			}
			scans[i] = append(scans[i], t)
		}
		for p, r := range lp.back {
			if r >= 0 {
				vals[p] = res[r]
			}
		}
		if lp.condResult >= 0 {
			c := res[lp.condResult]
			if c.Type != ir.Boolean || c.Len() != 1 {
				return nil, errorf("%w: iteration %d: the body's execution condition is %s%v, not a boolean scalar or one-element tensor", ErrType, iter, c.Type, c.Shape)
			}
			cond = c.Data[0] != 0
		}
		last = res
	}
	out := make([]*ir.Tensor, len(lp.out))
	for i, o2 := range lp.out {
		var err error
		switch {
		case o2.concat && len(scans[i]) > 0:
			var cat []*ir.Tensor
			if cat, err = Evaluate(&Concat{Axis: o2.axis}, scans[i], o); err == nil {
				out[i] = cat[0]
			}
		case o2.concat:
			out[i], err = lp.emptyScan(in, o2)
		case last != nil:
			out[i] = last[o2.result]
		default:
			out[i], err = lp.initialValue(in, o2.result)
		}
		if err != nil {
			return nil, errorf("output %d: %w", i, detail(err))
		}
	}
	return out, nil
}

// initialValue is the output of a Result when no iteration ran: the
// initial value of the loop-carried Parameter it feeds back to.
func (lp *Loop) initialValue(in []*ir.Tensor, r int) (*ir.Tensor, error) {
	return initialValue(lp.Body, lp.in, lp.back, in, r)
}

// initialValue is the output of Result r of the body of a Loop or
// TensorIterator when no iteration ran: the initial value of the
// loop-carried Parameter it feeds back to (feeds: the input of each
// Parameter; back: the Result fed back to it).
func initialValue(body *Program, feeds, back []int, in []*ir.Tensor, r int) (*ir.Tensor, error) {
	for p, b := range back {
		if b == r && feeds[p] >= 0 {
			return in[feeds[p]], nil
		}
	}
	return nil, errorf("no iteration ran, and %s of the body feeds no loop-carried Parameter whose initial value it could give", body.results[r])
}

// emptyScan is a scan output when no iteration ran: the shape the body
// would give, inferred from the inputs, with 0 along the axis.
func (lp *Loop) emptyScan(in []*ir.Tensor, o loopOutput) (*ir.Tensor, error) {
	params := make([]ValueInfo, len(lp.in))
	for p, ext := range lp.in {
		if ext < 0 {
			params[p] = lp.iterInfo()
			continue
		}
		params[p] = ValueInfo{Type: in[ext].Type, Shape: shapeinfer.StaticShape(in[ext].Shape...), Value: in[ext]}
	}
	res, err := lp.Body.infer(params)
	if err != nil {
		return nil, bodyErr("body", err)
	}
	return emptyAlong(res[o.result], o.axis)
}

// emptyAlong is a concatenation of no values of v: v's shape, which must
// be known, with 0 along axis.
func emptyAlong(v ValueInfo, axis int64) (*ir.Tensor, error) {
	if v.Shape.DynamicRank {
		return nil, errorf("no iteration ran, and the rank of the scan output is not known")
	}
	a, err := normalizeAxis(axis, len(v.Shape.Dims))
	if err != nil {
		return nil, err
	}
	dims := make([]int64, len(v.Shape.Dims))
	for i, d := range v.Shape.Dims {
		if i == a {
			continue
		}
		if !d.IsStatic() {
			return nil, errorf("no iteration ran, and the scan output's shape %s is not known", v.Shape)
		}
		dims[i] = d.Min
	}
	if err := evaluable(v.Type); err != nil {
		return nil, err
	}
	return ir.NewTensor(v.Type, dims)
}

// BodyHolder is implemented by the ops that run bodies, If, Loop and
// TensorIterator: it
// gives their bodies as the layer's inputs feed them.
type BodyHolder interface {
	Bodies(in []ValueInfo) []Body
}

// Body is a body of an If, a Loop or a TensorIterator as the layer that
// holds it feeds it,
// for an analysis that follows values into bodies.
type Body struct {
	// Tag is the body's element: then_body, else_body or body.
	Tag   string
	Model *ir.Model
	// Feeds gives, per body Parameter (in Model.Parameters() order), the
	// input of the layer that feeds it; -1 for a Loop's current
	// iteration.
	Feeds []int
	// Carried marks a Loop's loop-carried Parameters: their input feeds
	// the first iteration only, a body Result each one after; Back gives
	// that Result (by position in Model.Results()), -1 for the others.
	Carried []bool
	Back    []int
	// Sliced marks a TensorIterator's sliced Parameters: each iteration
	// reads one part of its input, cut along SliceAxis (as the port map
	// writes it: a negative axis counts from the end). The body runs
	// once per part: no time where the axis is empty. AtLeastOnce tells
	// that every run of the layer runs the body at least once whatever
	// its inputs (a TensorIterator without sliced inputs whose
	// concatenated output counts one iteration or more); a Loop may
	// always run it no time.
	Sliced      []bool
	SliceAxis   []int64
	AtLeastOnce bool
	// SlicePart is the part_size of each sliced Parameter: the length of
	// its part along the axis; SliceReverse marks those taken last to
	// first (a negative stride).
	SlicePart    []int64
	SliceReverse []bool
	// Params are the type and shape of each Parameter at the layer's
	// input infos: what feeds it, or for a loop-carried value, what every
	// iteration may give it (its rank, when every iteration keeps it, and
	// dims of any size), or for a sliced one, one part of its input.
	Params []ValueInfo
	// Outputs gives, per output of the layer, the body Result (by
	// position in Model.Results()) that gives it: an If's output is that
	// Result's value; a Loop's or TensorIterator's, its value after the
	// last iteration (for a loop-carried value, its initial one where no
	// iteration runs), or where Concat marks it, its values of every
	// iteration concatenated.
	Outputs []int
	Concat  []bool
	// Cond is, for a Loop, the body Result that decides whether another
	// iteration runs (by position in Model.Results()); -1 where the body
	// gives none (the condition stays true), and for an If.
	Cond int
}

// Bodies returns the two branches of an If, fed by in.
func (f *If) Bodies(in []ValueInfo) []Body {
	var out []Body
	for _, b := range []*ifBranch{f.Then, f.Else} {
		body := Body{Tag: b.name, Model: b.prog.model, Feeds: slices.Clone(b.in), Carried: make([]bool, len(b.in)), Sliced: make([]bool, len(b.in)), Outputs: slices.Clone(b.out), Cond: -1}
		for _, ext := range b.in {
			var info ValueInfo
			if ext < len(in) {
				info = in[ext]
			}
			body.Params = append(body.Params, info)
		}
		out = append(out, body)
	}
	return out
}

// Bodies returns the body of a Loop, fed by in: its loop-carried values
// may be anything of their type, at any shape of their rank where the
// body keeps it.
func (lp *Loop) Bodies(in []ValueInfo) []Body {
	body := Body{Tag: "body", Model: lp.Body.model, Feeds: slices.Clone(lp.in), Carried: make([]bool, len(lp.in)), Sliced: make([]bool, len(lp.in)), Back: slices.Repeat([]int{-1}, len(lp.in)), Cond: lp.condResult}
	params := make([]ValueInfo, len(lp.in))
	for p, ext := range lp.in {
		switch {
		case ext < 0:
			params[p] = lp.iterInfo()
		case ext < len(in):
			params[p] = in[ext]
			if lp.back[p] >= 0 {
				body.Carried[p], body.Back[p] = true, lp.back[p]
				params[p] = anyOfRank(in[ext])
			}
		}
	}
	keepRanks(lp.Body, params, body.Carried, lp.back)
	body.Params = params
	for _, o := range lp.out {
		body.Outputs = append(body.Outputs, o.result)
		body.Concat = append(body.Concat, o.concat)
	}
	return []Body{body}
}

// keepRanks gives the loop-carried Parameters (carried; back: the Result
// fed back to each) whose rank the body changes a dynamic rank, which no
// body can narrow.
func keepRanks(body *Program, params []ValueInfo, carried []bool, back []int) {
	res, err := body.infer(params)
	if err != nil {
		return
	}
	for p, r := range back {
		if r >= 0 && carried[p] && !sameRank(params[p].Shape, res[r].Shape) {
			params[p] = ValueInfo{Type: params[p].Type, Shape: shapeinfer.DynamicRankShape()}
		}
	}
}

// anyOfRank is a value of v's type and rank, of dims of any size.
func anyOfRank(v ValueInfo) ValueInfo {
	if v.Shape.DynamicRank {
		return ValueInfo{Type: v.Type, Shape: v.Shape}
	}
	dims := make([]shapeinfer.Dim, len(v.Shape.Dims))
	for i := range dims {
		dims[i] = shapeinfer.Dynamic()
	}
	return ValueInfo{Type: v.Type, Shape: shapeinfer.Shape{Dims: dims}}
}

func sameRank(a, b shapeinfer.Shape) bool {
	return !a.DynamicRank && !b.DynamicRank && len(a.Dims) == len(b.Dims)
}
