package absint

import (
	"fmt"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// What an input must be for the model to run. A model runs on an input
// only if every layer does: a pooling's window fits its padded input, a
// dim Squeeze removes is 1 (ONNX), a shape Expand or ConstantOfShape is
// given is not negative, a Gather's index is within its axis (ONNX), a
// Range's step is not 0 (ONNX, Range-1), a Reshape makes as many
// elements as its input holds. A
// verdict is about the inputs the model runs on (elsewhere there is no
// output to differ), so each such requirement of a layer that some
// Result depends on narrows the input symbols it is about: a proof may
// then rest on x.shape[2] >= 8 where three poolings of window 2 need it.
//
// A requirement narrows a symbol only where it is about that one input
// symbol, through an expression that is exactly the value the layer
// checks and monotone in the symbol (sym's Monotone): then the inputs the
// layer accepts are an interval of the symbol's values, found by
// bisection. As requirements met late in the walk narrow symbols the
// walk used early, the walk runs again with the narrowed ranges
// (Analyze), at most maxPasses times in all.

// maxPasses bounds the walks of one analysis.
const maxPasses = 2

// requirement is what a layer needs of a value to run: e within r.
// stops says that a value outside r stops the model in the semantics
// the analysis takes (ONNX's with Options.ONNX, else OpenVINO's): a
// pooling's window is OpenVINO's need, and ONNX Runtime runs some
// smaller inputs; ONNX Runtime refuses a negative dim of Expand only
// where the product of the dims is negative.
type requirement struct {
	l     *ir.Layer
	e     sym.Expr
	r     sym.Range
	why   string
	stops bool
}

// inputKey names an input symbol across walks, whose symbol numbers may
// differ.
type inputKey struct {
	layer *ir.Layer
	dim   bool
	index int
}

// Unrunnable is a layer of the model's graph, which some Result depends
// on, that runs on no input: what it needs of a value holds at none. The
// model then runs on no input either.
type Unrunnable struct {
	Layer *ir.Layer
	// Needs says what the layer needs ("takes indices within its axis,
	// as ONNX requires"); Detail why no input gives it ("3 at every
	// input, where it needs [-3, 2]").
	Needs, Detail string
}

// Narrowing is what the model's layers require of one input symbol: its
// range at the inputs the model runs on, and the layer that requires the
// tighter end.
type Narrowing struct {
	Layer *ir.Layer
	Range sym.Range
	Why   string
	// Stops: every requirement that narrowed the range stops the model
	// outside it (requirement.stops).
	Stops bool
}

// require records that layer l runs only where e lies within r (why
// says what l needs, for the evidence of proofs; stops that a value
// outside r stops the model, as requirement says). A requirement of a
// layer no Result depends on is dropped: OpenVINO removes such layers.
// Values laid out as at the declared shapes only (DeclaredLayout,
// DeclaredDims) are not what the layer checks at other shapes, and
// require nothing. A requirement that stops the model and that no input
// meets makes the layer Unrunnable.
func (a *Analysis) require(l *ir.Layer, v *Value, e sym.Expr, r sym.Range, why string, stops bool) {
	if _, inBody := a.Holders[l]; inBody && stops {
		a.requireInBody(l, v, e, r, why)
		return
	}
	if l == nil || !a.feedsResult(l) {
		return
	}
	if stops {
		// What is laid out as at the declared shapes is what the layer
		// checks there.
		a.requireDeclared(l, e, r, why)
	}
	if v.DeclaredLayout || v.DeclaredDims {
		return
	}
	if stops {
		a.noteJoint(l, e, r)
		a.noteFact(l, e, r)
	}
	if c, ok := e.IsConst(); ok {
		if !r.Contains(c) && stops {
			a.unrunnable(l, why, fmt.Sprintf("%d at every input, where it needs %s", c, r))
		}
		return
	}
	if got := a.decide.Range(e); stops && (r.Hi.Less(r.Lo) || !got.Hi.Less(got.Lo) && (got.Hi.Less(r.Lo) || r.Hi.Less(got.Lo))) {
		// Every value e may have is outside r (of several symbols, or
		// not monotone in one), or r holds none (an index into an axis
		// of 0).
		a.unrunnable(l, why, fmt.Sprintf("%s at every input, where it needs %s", got, r))
		return
	}
	q := requirement{l, e, r, why, stops}
	k, s, n, ok, none := a.narrowing(q, a.current)
	if none && stops {
		// n.Range is every value the symbol may have, none of them one
		// the layer runs at.
		a.unrunnable(l, why, fmt.Sprintf("%s is within %s at no value of %s in %s", a.B.String(e), r, a.B.Info(s).Name, n.Range))
		return
	}
	// The rest of the walk may use it at once: a Reshape after three
	// poolings reads its pattern with the dims they need.
	if ok {
		if !n.Stops {
			if a.opts.strict {
				return
			}
			a.loose = true
		}
		a.current[k] = n
		a.Declared.set(s, intersect(a.Declared.Range(s), n.Range))
		a.Any.set(s, intersect(a.Any.Range(s), n.Range))
		// The prover's memory of atom ranges is of the wider ranges.
		a.decide = sym.NewProver(a.B, &a.Any)
		a.declared = nil
	}
}

// bodyRun is a body the walk is in whose layers (those some Result of
// the body depends on: every run of the body computes them) run
// whenever the layer that holds it runs: an iteration of a Loop that
// every run of the Loop runs (its trip count exceeds the iteration at
// every input, its condition held at the start and after every
// iteration before), or a branch of an If, where its condition picks
// it. A layer of it that runs on no input makes the Loop fail, and the
// If once each branch fails or never runs (fails).
type bodyRun struct {
	holder    *ir.Layer
	body      *ir.Model
	iteration int64 // of a Loop; -1 for a branch of an If
	computed  map[*ir.Layer]bool
	// failed is the first layer of an If's branch that runs on no input
	// where the branch runs.
	failed *Unrunnable
}

// inBody walks run's body as it runs (run is the body the walk is in
// meanwhile).
func (a *Analysis) inBody(run *bodyRun, walk func()) {
	saved := a.running
	a.running = run
	walk()
	a.running = saved
}

// requireInBody records that a layer of a body runs only where e lies
// within r: where that holds at no input, the layer fails (fails). Nothing
// is narrowed: a body's value is not the model's input, and a body may
// not run.
func (a *Analysis) requireInBody(l *ir.Layer, v *Value, e sym.Expr, r sym.Range, why string) {
	if a.running == nil || a.dead != "" || v.DeclaredLayout || v.DeclaredDims {
		return
	}
	got := a.decide.Range(e)
	if c, ok := e.IsConst(); ok {
		got = sym.R(c, c)
	}
	if !r.Hi.Less(r.Lo) && (got.Hi.Less(got.Lo) || !got.Hi.Less(r.Lo) && !r.Hi.Less(got.Lo)) {
		return // some value within r
	}
	a.fails(l, why, fmt.Sprintf("%s at every input, where it needs %s", got, r))
}

// fails records that layer l runs on no input where it runs (what it
// needs, and why no input gives it): a layer of the model's graph that
// some Result depends on is Unrunnable; one of the body the walk is in
// (Analysis.running), which every run of that body computes, makes the
// layer that holds the body fail in turn: a Loop at once, the iteration
// running whenever the Loop does (seed 2230: x / iter divides by 0 at
// iteration 0 of a Loop of 3); an If once each branch fails or never
// runs (ifValues). A layer of a body within that body (of an If in it,
// which may not run) fails nothing here: its own body's walk tells.
func (a *Analysis) fails(l *ir.Layer, needs, detail string) {
	if _, inBody := a.Holders[l]; !inBody {
		if a.feedsResult(l) {
			a.unrunnable(l, needs, detail)
		}
		return
	}
	run := a.running
	if run == nil || a.dead != "" || !slices.Contains(run.body.Layers, l) {
		return
	}
	if run.computed == nil {
		run.computed = a.computedOf(run.body)
	}
	if !run.computed[l] {
		return
	}
	if run.iteration < 0 {
		if run.failed == nil {
			run.failed = &Unrunnable{Layer: l, Needs: needs, Detail: detail}
		}
		return
	}
	a.fails(run.holder, fmt.Sprintf("runs its body, whose layer %q (%s) %s", l.Name, l.Type, needs),
		fmt.Sprintf("%s, at iteration %d, which every run of the Loop runs", detail, run.iteration))
}

// computedOf are the layers of a body that some Result of it depends on.
func (a *Analysis) computedOf(body *ir.Model) map[*ir.Layer]bool {
	computed := make(map[*ir.Layer]bool)
	stack := body.Results()
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if computed[l] {
			continue
		}
		computed[l] = true
		for _, src := range a.Sources[l] {
			if src.Layer != nil && !computed[src.Layer] {
				stack = append(stack, src.Layer)
			}
		}
	}
	return computed
}

// maxJoint bounds the joint requirements an analysis keeps.
const maxJoint = 32

// Joint is what a layer needs of a value of several input symbols (E
// within R), where the model stops outside it: a Gather of y at index
// x.shape[0] needs x.shape[0] < y.shape[0]. No one symbol's range shows
// it, but a search for inputs the model runs on may choose its symbols
// together.
type Joint struct {
	Layer *ir.Layer
	E     sym.Expr
	R     sym.Range
}

// noteJoint keeps a requirement of a layer of the model's graph (a
// body's may not run) about several symbols, each a dim or an element of
// an input, the first maxJoint of them.
func (a *Analysis) noteJoint(l *ir.Layer, e sym.Expr, r sym.Range) {
	if _, inBody := a.Holders[l]; inBody || len(a.joint) >= maxJoint {
		return
	}
	syms := a.B.Syms(e)
	if len(syms) == 0 {
		return
	}
	for _, s := range syms {
		if int(s) >= len(a.Origins) || a.Origins[s].Input == nil {
			return
		}
	}
	a.joint = append(a.joint, Joint{l, e, r})
}

// JointRequirements are the requirements of several input symbols that
// stop the model (Joint), of the layers some Result depends on.
func (a *Analysis) JointRequirements() []Joint { return a.joint }

// maxFacts bounds the facts an analysis keeps.
const maxFacts = 64

// noteFact keeps a requirement that stops the model, of a layer of the
// model's graph (a body's may not run), as a fact of every input the
// model runs on: of any values, input symbols or not (an element moved
// out of a Range, a value converted), the first maxFacts of them.
func (a *Analysis) noteFact(l *ir.Layer, e sym.Expr, r sym.Range) {
	if _, inBody := a.Holders[l]; inBody || len(a.facts) >= maxFacts {
		return
	}
	if _, ok := e.IsConst(); ok {
		return
	}
	a.facts = append(a.facts, Joint{l, e, r})
}

// Facts are what the layers of the model's graph that some Result
// depends on require of values, where a value outside stops the model:
// true at every input the model runs on.
func (a *Analysis) Facts() []Joint { return a.facts }

// requireNonZero records that layer l runs only where e is not 0 (a
// Range's step), which stops the model. Where e has one sign at every
// input (0 aside), that is e within [1, +inf] or [-inf, -1], which
// require takes: a constant 0 makes l Unrunnable, and 0 at one end of
// the symbol's range narrows it (a step x.shape[0] needs it 1 or more).
// Where e takes both signs, nothing narrows, but 0 at every input of the
// declared shapes still makes l unrunnable there.
func (a *Analysis) requireNonZero(l *ir.Layer, v *Value, e sym.Expr, why string) {
	if _, inBody := a.Holders[l]; l == nil || !inBody && !a.feedsResult(l) {
		return
	}
	positive, negative := sym.Range{Lo: sym.Finite(1), Hi: sym.PosInf}, sym.Range{Lo: sym.NegInf, Hi: sym.Finite(-1)}
	b := a.boundsOf(e)
	switch {
	case b.any.Lo.AtLeast(0):
		a.require(l, v, e, positive, why, true)
	case b.any.Hi.AtMost(0):
		a.require(l, v, e, negative, why, true)
	case b.declared.Lo.AtLeast(0):
		a.requireDeclared(l, e, positive, why)
	case b.declared.Hi.AtMost(0):
		a.requireDeclared(l, e, negative, why)
	}
}

// requireDim records that dim axis of x lies within r.
func (a *Analysis) requireDim(l *ir.Layer, x *Value, axis int, r sym.Range, why string, stops bool) {
	if axis < 0 || axis >= len(x.Dims) {
		return
	}
	a.require(l, x, x.Dims[axis], r, why, stops)
}

// feedsResult tells whether some Result depends on l.
func (a *Analysis) feedsResult(l *ir.Layer) bool {
	if a.reaching == nil {
		a.reaching = make(map[*ir.Layer]bool, len(a.Order))
		for i := len(a.Order) - 1; i >= 0; i-- {
			m := a.Order[i]
			if !a.reaching[m] && len(m.Outputs) > 0 {
				continue
			}
			a.reaching[m] = true
			for _, src := range a.Sources[m] {
				if src.Layer != nil {
					a.reaching[src.Layer] = true
				}
			}
		}
	}
	return a.reaching[l]
}

// narrowing works out what a requirement makes of the range of its
// input symbol, given the narrowings so far: ok where it narrows it;
// none where no value of the symbol meets it (n.Range is then the range
// searched), and the model runs on no input.
func (a *Analysis) narrowing(q requirement, have map[inputKey]Narrowing) (k inputKey, s sym.Sym, n Narrowing, ok, none bool) {
	syms := a.B.Syms(q.e)
	if len(syms) != 1 {
		return inputKey{}, 0, Narrowing{}, false, false
	}
	s = syms[0]
	k, ok = a.inputKeyOf(s)
	if !ok {
		return inputKey{}, 0, Narrowing{}, false, false
	}
	// a.decide ranges as a.Any does: require makes another where a
	// narrowing changes a.Any.
	dir, ok := a.decide.Monotone(q.e, s)
	if !ok || dir == 0 {
		return inputKey{}, 0, Narrowing{}, false, false
	}
	cur, stops := a.Any.Range(s), q.stops
	if n, had := have[k]; had {
		cur, stops = intersect(cur, n.Range), stops && n.Stops
	}
	lo, hi, ok := a.solve(q.e, s, dir, cur, q.r)
	switch {
	case !ok:
		// The bisection could not evaluate.
		return inputKey{}, 0, Narrowing{}, false, false
	case lo > hi:
		return k, s, Narrowing{Layer: q.l, Range: cur, Why: q.why, Stops: stops}, false, true
	case lo <= cur.Lo.V && hi >= cur.Hi.V:
		// No narrower range.
		return inputKey{}, 0, Narrowing{}, false, false
	}
	return k, s, Narrowing{Layer: q.l, Range: sym.R(max(lo, cur.Lo.V), min(hi, cur.Hi.V)), Why: q.why, Stops: stops}, true, false
}

// unrunnable records that layer l runs on no input, where l is a layer
// of the model's graph (a body's may not run at all) that some Result
// depends on (require checks that), once per layer.
func (a *Analysis) unrunnable(l *ir.Layer, needs, detail string) {
	if _, inBody := a.Holders[l]; inBody || slices.ContainsFunc(a.unrunnables, func(u Unrunnable) bool { return u.Layer == l }) {
		return
	}
	a.unrunnables = append(a.unrunnables, Unrunnable{Layer: l, Needs: needs, Detail: detail})
}

// requireDeclared records l as unrunnable at the declared input shapes
// where e, at every input of those shapes, lies outside r: x.shape[1]
// of x: [2, 3] is 3, where a Gather of Shape(x) needs [-2, 1]. A reshape
// to other shapes may run it (a Gather of Shape(x) at 1 runs at [2, 1]).
func (a *Analysis) requireDeclared(l *ir.Layer, e sym.Expr, r sym.Range, why string) {
	if _, inBody := a.Holders[l]; inBody || slices.ContainsFunc(a.unrunnablesDeclared, func(u Unrunnable) bool { return u.Layer == l }) {
		return
	}
	got := a.boundsOf(e).declared
	if got.Hi.Less(got.Lo) || !got.Hi.Less(r.Lo) && !r.Hi.Less(got.Lo) {
		return // empty (no declared input), or some value within r
	}
	a.unrunnablesDeclared = append(a.unrunnablesDeclared, Unrunnable{Layer: l, Needs: why,
		Detail: fmt.Sprintf("%s at every input of the declared shapes, where it needs %s", got, r)})
}

// unrunnableLayers are the layers a walk found to run on no input, and
// on no input of the declared shapes.
type unrunnableLayers struct{ any, declared []Unrunnable }

// UnrunnablesDeclared are the layers that run on no input of the declared
// shapes (requireDeclared), where the input ranges are narrowed only by
// requirements that stop the model (as Unrunnables).
func (a *Analysis) UnrunnablesDeclared() []Unrunnable {
	if a.loose {
		if a.strict != nil {
			return a.strict.declared
		}
		return nil
	}
	return a.unrunnablesDeclared
}

// Unrunnables are the layers that run on no input (Unrunnable), where the
// input ranges are narrowed only by requirements that stop the model:
// one narrowed to what OpenVINO runs (a pooling's window, in an ONNX
// model) may leave no value an ONNX requirement accepts where ONNX
// Runtime has some.
func (a *Analysis) Unrunnables() []Unrunnable {
	if a.loose {
		if a.strict != nil {
			return a.strict.any
		}
		return nil
	}
	return a.unrunnables
}

// NarrowedAsTheModelRuns reports whether the input ranges are narrowed
// only by requirements that stop the model (requirement.stops): then
// what holds at every input of the ranges holds at every input the
// model runs on, in the semantics the analysis takes.
func (a *Analysis) NarrowedAsTheModelRuns() bool { return !a.loose }

// RunsWheneverTheModelDoes reports whether l is a layer of the model's
// graph (not of a body, which may not run) that some Result depends on:
// every run of the model runs it.
func (a *Analysis) RunsWheneverTheModelDoes(l *ir.Layer) bool {
	_, inBody := a.Holders[l]
	return !inBody && a.feedsResult(l)
}

// narrowed reports whether this walk narrowed an input symbol beyond
// what the walk started from: then its early layers were worked out with
// wider ranges than the model runs on, and another walk may decide more.
func (a *Analysis) narrowedMore() bool {
	for k, n := range a.current {
		if m, ok := a.narrowings[k]; !ok || m.Range != n.Range {
			return true
		}
	}
	return false
}

// narrowingReachesDivide tells whether an input symbol this walk narrowed
// is in the operands of an integer Divide, whose verdicts another walk
// may sharpen; elsewhere a second walk of a large model costs its time
// and decides nothing more (the ranges the prover reads are narrowed
// already).
func (a *Analysis) narrowingReachesDivide() bool {
	narrowed := make(map[sym.Sym]bool)
	for _, in := range a.Inputs {
		for i, s := range in.Dims {
			if _, ok := a.current[inputKey{in.Layer, true, i}]; ok {
				narrowed[s] = true
			}
		}
		for i, s := range in.Elems {
			if _, ok := a.current[inputKey{in.Layer, false, i}]; ok && !in.Summary {
				narrowed[s] = true
			}
		}
	}
	if len(narrowed) == 0 {
		return false
	}
	for _, l := range a.Order {
		if _, ok := a.Ops[l].(*ops.Divide); !ok {
			continue
		}
		for _, src := range a.Sources[l] {
			v := a.Values[src]
			if v == nil || !v.Int {
				continue
			}
			es := v.Elems
			if es == nil {
				es = []sym.Expr{a.All(v)}
			}
			for _, e := range es {
				for _, s := range a.B.Syms(e) {
					if narrowed[s] {
						return true
					}
				}
			}
		}
	}
	return false
}

// inputKeyOf names a symbol that is a dim of a model input, or one of
// its elements tracked one by one: the symbols a requirement narrows.
func (a *Analysis) inputKeyOf(s sym.Sym) (inputKey, bool) {
	if int(s) >= len(a.Origins) {
		return inputKey{}, false
	}
	o := a.Origins[s]
	switch {
	case o.Input == nil:
		return inputKey{}, false
	case o.Kind == InputDim:
		return inputKey{o.Input.Layer, true, o.Index}, true
	case o.Kind == InputElem && o.Index >= 0 && !o.Input.Summary:
		return inputKey{o.Input.Layer, false, o.Index}, true
	}
	return inputKey{}, false
}

// solve finds the values of s within cur for which e, monotone in s in
// direction dir, lies within r: an interval [lo, hi], by bisection.
func (a *Analysis) solve(e sym.Expr, s sym.Sym, dir int, cur, r sym.Range) (lo, hi int64, ok bool) {
	if !cur.Lo.IsFinite() || !cur.Hi.IsFinite() {
		return 0, 0, false
	}
	// One evaluator for every bisection of the walk: each makes memory
	// for the atoms it reaches, and a model has hundreds of requirements.
	if a.solver == nil {
		a.solver = a.B.NewEvaluator()
	}
	ev := a.solver
	failed := false
	at := func(v int64) int64 {
		x, ok := ev.Eval(e, func(sym.Sym) int64 { return v }, nil)
		if !ok {
			failed = true
		}
		return x
	}
	// fits tells whether e at v is within r, and for a value outside it,
	// on which side of the interval v lies.
	below := func(v int64) bool { // v is below the interval of s
		x := at(v)
		if dir > 0 {
			return r.Lo.IsFinite() && x < r.Lo.V || r.Lo.Inf > 0
		}
		return r.Hi.IsFinite() && x > r.Hi.V || r.Hi.Inf < 0
	}
	above := func(v int64) bool { // v is above it
		x := at(v)
		if dir > 0 {
			return r.Hi.IsFinite() && x > r.Hi.V || r.Hi.Inf < 0
		}
		return r.Lo.IsFinite() && x < r.Lo.V || r.Lo.Inf > 0
	}
	lo, hi = cur.Lo.V, cur.Hi.V
	// The least value not below: below is true up to some point, then
	// false (monotone).
	if below(lo) {
		if below(hi) {
			return 0, -1, !failed
		}
		lo = lastHolding(lo, hi, below) + 1
	}
	if above(hi) {
		if above(lo) {
			return 0, -1, !failed
		}
		hi = lastHolding(lo, hi, func(v int64) bool { return !above(v) })
	}
	return lo, hi, !failed
}

// lastHolding is the last value in [l, h] where holds, true at l and
// false at h, holds: it changes once between them (a bisection).
func lastHolding(l, h int64, holds func(int64) bool) int64 {
	for apart(l, h) > 1 {
		if m := midpoint(l, h); holds(m) {
			l = m
		} else {
			h = m
		}
	}
	return l
}

// apart is h - l for l <= h, which may exceed int64 (MAX - MIN).
func apart(l, h int64) uint64 { return uint64(h) - uint64(l) }

// midpoint is a value between l and h (l <= h) that h - l cannot make
// overflow: the bisection of a symbol's whole int64 range starts there.
func midpoint(l, h int64) int64 { return int64(uint64(l) + apart(l, h)/2) }

// narrowed gives an input symbol of this walk the range earlier walks'
// requirements leave it.
func (a *Analysis) narrowed(in *Input, dim bool, index int, declared, anyShape sym.Range) (sym.Range, sym.Range) {
	n, ok := a.narrowings[inputKey{in.Layer, dim, index}]
	if ok {
		a.current[inputKey{in.Layer, dim, index}] = n
		a.loose = a.loose || !n.Stops
	}
	if !ok {
		return declared, anyShape
	}
	return intersect(declared, n.Range), intersect(anyShape, n.Range)
}

// intersect is the common part of two ranges; where there is none (the
// declared shapes never run), the first as it is.
func intersect(x, y sym.Range) sym.Range {
	r := x
	if x.Lo.Less(y.Lo) {
		r.Lo = y.Lo
	}
	if y.Hi.Less(x.Hi) {
		r.Hi = y.Hi
	}
	if r.Hi.Less(r.Lo) {
		return x
	}
	return r
}

// Narrowings lists what the layers require of the input symbols e
// depends on, one line each, for the evidence of a proof: "x.shape[2] in
// [8, 2^40]: layer "pool3" (MaxPool) needs its window to fit".
func (a *Analysis) Narrowings(es ...sym.Expr) []string {
	var out []string
	for _, e := range es {
		for _, s := range a.B.Syms(e) {
			k, ok := a.inputKeyOf(s)
			if !ok {
				continue
			}
			n, ok := a.current[k]
			if !ok {
				continue
			}
			line := fmt.Sprintf("%s in %s: layer %q (%s) %s", a.B.Info(s).Name, n.Range, n.Layer.Name, n.Layer.Type, n.Why)
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out
}
