package absint

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of If, Loop and TensorIterator (ops' controlflow.go and
// tensoriterator.go): each walks the bodies
// of its layer with the values that reach them from the outer graph, so
// that the Divides inside have values as precise as those outside.
//
// An If's bodies get the values of the inputs that feed them, each its
// own; its outputs are the then_body's where the condition is true, the
// else_body's where it is false (sym.Where, keyed by the condition).
//
// A Loop's body gets its invariant inputs as they are (every iteration
// reads the same tensor), and stands for every iteration at once: its
// loop-carried values are new symbols of a range that every iteration
// keeps (loopValues), of any dims of their rank, the current iteration
// any number from 0 to the trip count less one. Its outputs are within
// the ranges of what the body gives.

// ifValues walks both branches of an If and joins their outputs.
func ifValues(a *Analysis, c *call) []*Value {
	f := c.op.(*ops.If)
	cond := c.ins[0]
	var pick sym.Expr
	switch {
	case cond.Int && cond.Elems != nil && len(cond.Elems) == 1:
		pick = cond.Elems[0]
	case cond.Int && cond.Elems == nil && cond.Rank == 0:
		pick = a.All(cond)
	default:
		pick = a.fresh(c.l, sym.R(0, 1), "the condition")
	}
	var branches [][]*Value
	// Why each branch runs on no input where it runs: a layer of it that
	// fails, or the condition never picking it.
	var fails []string
	for k, b := range f.Bodies(a.inputInfos(c.l)) {
		// then_body runs where the condition holds, else_body where it
		// fails: each knows it of what it reads (where(x >= 0, x / 2, 0)).
		params := make([]*Value, len(b.Feeds))
		for p, ext := range b.Feeds {
			if ext >= 0 && ext < len(c.ins) {
				params[p] = a.assumed(c.ins[ext], pick, k == 0)
			}
		}
		var res []*Value
		dead := ""
		if !cond.DeclaredLayout && !cond.DeclaredDims {
			dead = a.deadBranch(pick, k == 0)
		}
		run := &bodyRun{holder: c.l, body: b.Model, iteration: -1}
		a.walkingDead(dead, func() { a.inBody(run, func() { res = a.walkBody(c.l, b, params) }) })
		switch name := []string{"then_branch", "else_branch"}[min(k, 1)]; {
		case dead != "":
			fails = append(fails, name+" never runs ("+dead+")")
		case run.failed != nil:
			u := run.failed
			fails = append(fails, fmt.Sprintf("%s: layer %q (%s), which %s, gets %s", name, u.Layer.Name, u.Layer.Type, u.Needs, u.Detail))
		}
		outs := make([]*Value, len(b.Outputs))
		for i, r := range b.Outputs {
			if r < len(res) {
				outs[i] = res[r]
			}
		}
		branches = append(branches, outs)
	}
	// (A condition laid out as at the declared shapes only narrows the
	// branches' values there, not at other shapes.)
	if len(branches) == 2 && len(fails) == 2 && !cond.DeclaredLayout && !cond.DeclaredDims {
		a.fails(c.l, "runs the branch its condition picks", strings.Join(fails, "; "))
	}
	if len(branches) != 2 || len(branches[0]) != len(branches[1]) {
		return nil
	}
	out := make([]*Value, len(branches[0]))
	for i := range out {
		out[i] = a.join(pick, branches[0][i], branches[1][i], c.out(i))
		if out[i] == nil {
			out[i] = a.opaque(c.l, i, c.out(i))
		}
	}
	return out
}

// deadBranch says why an If's branch never runs (then: then_body): its
// condition is the other branch's at every input; "" where it may run.
func (a *Analysis) deadBranch(cond sym.Expr, then bool) string {
	r := a.decide.Range(cond)
	switch {
	case then && r == sym.R(0, 0):
		return "the If's condition is false" + a.whereItRuns(cond)
	case !then && r.Lo.AtLeast(1):
		return "the If's condition is true" + a.whereItRuns(cond)
	}
	return ""
}

// whereItRuns says where a claim about e holds: at every input, or where
// the model runs, as the layers that narrow e's inputs require.
func (a *Analysis) whereItRuns(e sym.Expr) string {
	runs := a.Narrowings(e)
	if len(runs) == 0 {
		return " at every input"
	}
	return " wherever the model runs (" + strings.Join(runs, "; ") + ")"
}

// assumed is v where the comparison that made c holds (or fails): its
// dims and elements narrowed as assume narrows them; v itself where that
// changes nothing.
func (a *Analysis) assumed(v *Value, c sym.Expr, holds bool) *Value {
	var out *Value
	change := func(e sym.Expr) sym.Expr {
		n := a.assume(e, c, holds)
		if out == nil && !n.Equal(e) {
			copied := *v
			copied.Dims, copied.Elems = slices.Clone(v.Dims), slices.Clone(v.Elems)
			copied.summary = nil
			out = &copied
		}
		return n
	}
	dims := make([]sym.Expr, len(v.Dims))
	for i, d := range v.Dims {
		dims[i] = change(d)
	}
	elems := make([]sym.Expr, len(v.Elems))
	for i, e := range v.Elems {
		elems[i] = change(e)
	}
	all := v.all
	if v.Int && v.Elems == nil {
		all = change(v.all)
	}
	if out == nil {
		return v
	}
	out.Dims, out.Elems, out.all = dims, elems, all
	if v.Elems == nil {
		out.Elems = nil
	}
	if v.Dims == nil {
		out.Dims = nil
	}
	return out
}

// join is then where cond is not 0, els where it is: dims and elements
// picked by the same condition; nil where either is not known.
func (a *Analysis) join(cond sym.Expr, then, els *Value, info ops.ValueInfo) *Value {
	if then == nil || els == nil {
		return nil
	}
	where := func(x, y sym.Expr) sym.Expr { return a.B.Where(cond, x, y) }
	v := &Value{Type: info.Type, Rank: -1, Shape: then.Shape && els.Shape,
		DeclaredLayout: then.DeclaredLayout || els.DeclaredLayout, DeclaredDims: then.DeclaredDims || els.DeclaredDims}
	if then.Rank >= 0 && then.Rank == els.Rank && then.Dims != nil && els.Dims != nil {
		v.Rank = then.Rank
		for i := range then.Dims {
			v.Dims = append(v.Dims, where(then.Dims[i], els.Dims[i]))
		}
	}
	if then.Int && els.Int && isInt(info.Type) {
		v.Int = true
		if then.Elems != nil && els.Elems != nil && len(then.Elems) == len(els.Elems) && sameDims(then.Dims, els.Dims) {
			for i := range then.Elems {
				v.Elems = append(v.Elems, where(then.Elems[i], els.Elems[i]))
			}
		} else {
			// The elements of one branch, at positions the other's may
			// not share: each an element of either.
			v.all = a.B.Copy(where(a.All(then), a.All(els)))
		}
	}
	if then.F != nil && els.F != nil {
		v.F = unionF(then.F, els.F)
		v.FD = narrowerF(unionF(then.DeclaredF(), els.DeclaredF()), v.F)
	}
	return v
}

// loopIterations bounds how many times a Loop's body is walked in search
// of ranges its loop-carried integers keep; maxBodyWalks bounds the walks
// of Loop bodies of one analysis that search for them; unrolledIterations
// is the most iterations walked one at a time.
const (
	loopIterations     = 4
	maxBodyWalks       = 1024
	unrolledIterations = 8
)

// bounds are the ranges of a value under the declared input shapes and
// under any: a Loop's carried values and current iteration have one of
// each, as the inputs they come from do.
type bounds struct{ declared, any sym.Range }

func (a *Analysis) boundsOf(e sym.Expr) bounds {
	if a.declared == nil {
		a.declared = sym.NewProver(a.B, &a.Declared)
	}
	// The declared shapes are some of all shapes: what holds at every
	// shape holds at them too (the declared prover may not know it).
	anyShape := a.decide.Range(e)
	return bounds{intersect(a.declared.Range(e), anyShape), anyShape}
}

func (s bounds) within(t bounds) bool { return s.declared.Within(t.declared) && s.any.Within(t.any) }

func hullBounds(s, t bounds) bounds {
	return bounds{hullRange(s.declared, t.declared), hullRange(s.any, t.any)}
}

// loopValues walks a Loop's body for every iteration at once (iterate):
// its invariant inputs as they are, the current iteration at most the
// trip count less one, where that is known. Where the trip count is at
// most unrolledIterations, the body is also walked once per iteration
// (unroll), each walk given the carried values the last one gave back (a
// carried 5 halved twice is 5 or 2, where the invariant made it [0, 5]),
// and each carried value keeps what that hull and the invariant share;
// where the Loop runs exactly that many iterations, its last values are
// those of the last walk. The Loop's outputs are within what the walk
// that holds gives (loopOutputs), for a last value joined with the
// initial one, since a Loop may run no iteration.
func loopValues(a *Analysis, c *call) []*Value {
	lp := c.op.(*ops.Loop)
	bodies := lp.Bodies(a.inputInfos(c.l))
	if len(bodies) != 1 {
		return nil
	}
	b := bodies[0]
	// A negative trip count bounds nothing.
	everyIteration := sym.R(0, math.MaxInt64)
	iterations := bounds{everyIteration, everyIteration}
	if c.ins[0].Int {
		trip := a.valueBounds(c.ins[0])
		for _, r := range []struct{ trip, iterations *sym.Range }{{&trip.declared, &iterations.declared}, {&trip.any, &iterations.any}} {
			if r.trip.Lo.AtLeast(0) && r.trip.Hi.IsFinite() && r.trip.Hi.AtLeast(1) {
				*r.iterations = sym.R(0, r.trip.Hi.V-1)
			}
		}
	}
	dead := ""
	if c.ins[0].Int && a.valueBounds(c.ins[0]).any == sym.R(0, 0) {
		dead = "the Loop's trip count is 0" + a.whereItRuns(a.All(c.ins[0]))
	}
	var out []*Value
	a.walkingDead(dead, func() { out = a.loopBody(c, b, iterations) })
	return out
}

// loopBody walks a Loop's body as loopValues says, given the range of
// its current iteration, and returns the Loop's outputs.
func (a *Analysis) loopBody(c *call, b ops.Body, iterations bounds) []*Value {
	given := func(iteration bounds) func(p, ext int) *Value {
		return func(p, ext int) *Value {
			if ext < 0 {
				return a.loopValue(b, p, iteration, "the current iteration")
			}
			return c.ins[ext]
		}
	}
	var unrolled []bounds
	var unrolledKnown []bool
	// lastResults are the body's Results at the last iteration where every
	// run of the Loop makes the same number of them: its outputs of last
	// values are those.
	var lastResults []*Value
	// (Hi is MaxInt64 where the trip count bounds nothing: compared before
	// adding one, which would wrap below unrolledIterations.)
	if hi := iterations.any.Hi; hi.IsFinite() && hi.V < unrolledIterations && a.bodyWalks+int(hi.V+1) <= maxBodyWalks {
		n := hi.V + 1
		unrolled, unrolledKnown = a.initialRanges(c, b)
		var always bool
		lastResults, always = a.unroll(c, b, n, unrolled, unrolledKnown, given)
		if !always || !a.iterationsExactly(c, n) {
			lastResults = nil
		}
	}
	res, ranges, known, dims, stable := a.iterate(c, b, given(iterations))
	if unrolled == nil {
		return a.loopOutputs(c, b, res, ranges, known)
	}
	// Both the invariant (where one was found) and the hull of the
	// unrolled iterations hold at every iteration: so does what they
	// share. (Unrolled, a Div by 0 at the first iteration leaves any
	// value to the next; the invariant assumes it does not run.)
	for p := range ranges {
		switch {
		case stable && known[p] && unrolledKnown[p]:
			ranges[p] = bounds{intersect(ranges[p].declared, unrolled[p].declared), intersect(ranges[p].any, unrolled[p].any)}
		case unrolledKnown[p]:
			ranges[p], known[p] = unrolled[p], true
		case !stable:
			known[p] = false
		}
	}
	res = a.walkBody(c.l, b, a.bodyParams(c, b, given(iterations), func(p int) *Value {
		if !known[p] {
			return a.withDims(b, p, nil, dims[p])
		}
		return a.withDims(b, p, a.loopValue(b, p, ranges[p], "a loop-carried value"), dims[p])
	}))
	out := a.loopOutputs(c, b, res, ranges, known)
	for i, r := range b.Outputs {
		if !b.Concat[i] && r < len(lastResults) && lastResults[r] != nil && lastResults[r].Type == out[i].Type {
			out[i] = lastResults[r]
		}
	}
	return out
}

// initialRanges are the ranges of the values that feed a Loop's or
// TensorIterator's loop-carried Parameters (known: those of integers).
func (a *Analysis) initialRanges(c *call, b ops.Body) (ranges []bounds, known []bool) {
	ranges = make([]bounds, len(b.Feeds))
	known = make([]bool, len(b.Feeds))
	for p, ext := range b.Feeds {
		if b.Carried[p] && ext >= 0 && ext < len(c.ins) && c.ins[ext].Int {
			ranges[p], known[p] = a.valueBounds(c.ins[ext]), true
		}
	}
	return ranges, known
}

// bodyParams are the values of a body's Parameters for a walk: carried
// gives the loop-carried ones (nil: any of its type), given every other
// (p, fed by input ext, -1 for a Loop's current iteration).
func (a *Analysis) bodyParams(c *call, b ops.Body, given func(p, ext int) *Value, carried func(p int) *Value) []*Value {
	params := make([]*Value, len(b.Feeds))
	for p, ext := range b.Feeds {
		switch {
		case b.Carried[p]:
			params[p] = carried(p)
		case ext < len(c.ins):
			params[p] = given(p, ext)
		}
	}
	return params
}

// iterate walks the body of a Loop or TensorIterator for every iteration
// at once. Each loop-carried integer gets a range that holds at every
// iteration, under the declared shapes and under any: its initial
// value's, widened by what the body gives back, until the body gives
// back nothing outside it (then, by induction, no iteration does; stable
// says so); after loopIterations walks, any value of its type. given
// gives the value of every other Parameter p (fed by input ext, -1 for a
// Loop's current iteration) at each walk. It returns the Results of the
// walk that holds for every iteration, and the carried ranges (known:
// those of integers), which hold the initial values still, and the
// carried dims that hold at every iteration (carriedDims).
func (a *Analysis) iterate(c *call, b ops.Body, given func(p, ext int) *Value) (res []*Value, ranges []bounds, known []bool, dims []carriedDims, stable bool) {
	ranges, known = a.initialRanges(c, b)
	dims = a.initialDims(c, b)
	// Nested Loops multiply their walks: past a budget, one walk, the
	// carried values any of their types.
	first := 1
	if a.bodyWalks > maxBodyWalks {
		first = loopIterations
	}
	for walk := first; ; walk++ {
		a.bodyWalks++
		last := walk >= loopIterations
		res = a.walkBody(c.l, b, a.bodyParams(c, b, given, func(p int) *Value {
			if last || !known[p] {
				return a.withDims(b, p, nil, dims[p]) // any value of its type
			}
			return a.withDims(b, p, a.loopValue(b, p, ranges[p], "a loop-carried value"), dims[p])
		}))
		kept := keepDims(b, res, dims)
		if last {
			if !kept {
				// The dims the walk assumed are not all given back: walk
				// again without those, until the rest are.
				walk--
				continue
			}
			return res, ranges, known, dims, false
		}
		stable = kept
		for p, r := range b.Back {
			if r < 0 || !known[p] {
				continue
			}
			if r >= len(res) || res[r] == nil || !res[r].Int {
				stable, known[p] = false, false
				continue
			}
			got := a.valueBounds(res[r])
			if !got.within(ranges[p]) {
				stable, ranges[p] = false, hullBounds(ranges[p], got)
			}
		}
		if stable {
			return res, ranges, known, dims, true
		}
	}
}

// carriedDims are the dims of a loop-carried value at every iteration
// (nil: not known): its initial value's, where the body gives back a
// value of those very dims when given one of them (x / 3 of a carried x),
// so that, by induction, every iteration starts with them (an empty
// initial value stays empty: seeds 1947 and 2136 of the differential).
// declared: they hold at the declared shapes only (Value.DeclaredDims).
type carriedDims struct {
	dims     []sym.Expr
	declared bool
}

// initialDims are the dims of the values that feed a Loop's or
// TensorIterator's loop-carried Parameters, where their rank is the
// Parameter's.
func (a *Analysis) initialDims(c *call, b ops.Body) []carriedDims {
	out := make([]carriedDims, len(b.Feeds))
	for p, ext := range b.Feeds {
		if !b.Carried[p] || ext < 0 || ext >= len(c.ins) || c.ins[ext] == nil {
			continue
		}
		v := c.ins[ext]
		if info := b.Params[p]; v.Rank < 0 || v.Dims == nil || len(v.Dims) != v.Rank || info.Shape.DynamicRank || len(info.Shape.Dims) != v.Rank {
			continue
		}
		out[p] = carriedDims{dims: v.Dims, declared: v.DeclaredDims}
	}
	return out
}

// withDims is v (nil: a value of any of its type) of carried Parameter p
// with the dims d, where known.
func (a *Analysis) withDims(b ops.Body, p int, v *Value, d carriedDims) *Value {
	if d.dims == nil {
		return v
	}
	if v == nil {
		v = a.opaque(b.Model.Parameters()[p], 0, b.Params[p])
	}
	if v.Rank != len(d.dims) {
		return v
	}
	v.Dims, v.DeclaredDims = d.dims, d.declared
	return v
}

// keepDims forgets the carried dims the body does not give back as they
// are, and reports whether it kept them all.
func keepDims(b ops.Body, res []*Value, dims []carriedDims) bool {
	kept := true
	for p, r := range b.Back {
		if dims[p].dims == nil {
			continue
		}
		if r < 0 || r >= len(res) || res[r] == nil || !sameDims(res[r].Dims, dims[p].dims) || res[r].DeclaredDims && !dims[p].declared {
			dims[p], kept = carriedDims{}, false
		}
	}
	return kept
}

// iterationsExactly reports whether a Loop runs exactly n iterations at
// every input: its trip count n under the declared shapes and under any,
// its first condition true (or absent). (Its body's condition is the
// caller's to check.)
func (a *Analysis) iterationsExactly(c *call, n int64) bool {
	exactly := sym.R(n, n)
	if trip := a.valueBounds(c.ins[0]); trip.declared != exactly || trip.any != exactly {
		return false
	}
	return len(c.ins) < 2 || c.ins[1] == nil || a.provablyTrue(c.ins[1])
}

// provablyTrue reports whether every element of v is 1 (true) at every
// input.
func (a *Analysis) provablyTrue(v *Value) bool {
	return v.Int && a.valueBounds(v).any == sym.R(1, 1)
}

// valueBounds are the bounds of v's elements. Elements laid out as at
// the declared shapes only (y[2] - y[-1] is 0 while y has 3 elements)
// bound nothing at other shapes: there, any value of the type (seed
// 36473 of the differential: a Loop of clip(y[-1] - y[2], 0, 3)
// iterations was taken never to run at any shape).
func (a *Analysis) valueBounds(v *Value) bounds {
	b := a.boundsOf(a.All(v))
	if v.DeclaredLayout || v.DeclaredDims {
		b.any = typeRange(v.Type)
	}
	return b
}

// unroll walks a Loop's body once for each of its first n iterations,
// each walk given the carried values the one before gave back, and
// widens ranges to the values each iteration starts with. A carried
// value the body does not give back as an integer becomes unknown. It
// returns the Results of the last walk, and whether the body's
// condition was true at every one.
func (a *Analysis) unroll(c *call, b ops.Body, n int64, ranges []bounds, known []bool, given func(iteration bounds) func(p, ext int) *Value) (last []*Value, always bool) {
	always = true
	current := make([]*Value, len(b.Feeds))
	for p, ext := range b.Feeds {
		if known[p] {
			current[p] = c.ins[ext]
		}
	}
	// A Loop of the model (not of a body, whose walks may be some of
	// several) walked at every iteration it may run keeps its Divides'
	// operands at each one.
	_, nested := a.Holders[c.l]
	record := !nested
	// A Loop's iteration k runs only where its trip count exceeds k.
	var trip *Value
	if _, loop := c.op.(*ops.Loop); loop && len(c.ins) > 0 && c.ins[0] != nil && c.ins[0].Int {
		trip = c.ins[0]
	}
	runs := len(c.ins) > 0 && c.ins[0] != nil && c.ins[0].Int && (len(c.ins) < 2 || c.ins[1] == nil || a.provablyTrue(c.ins[1]))
	for k := range n {
		a.bodyWalks++
		// Every run of the Loop runs iteration k where the trip count
		// exceeds k at every input, and the condition held so far.
		var run *bodyRun
		if runs = runs && always && a.valueBounds(c.ins[0]).any.Lo.AtLeast(k+1); runs {
			run = &bodyRun{holder: c.l, body: b.Model, iteration: k}
		}
		var res []*Value
		if record {
			a.walked = make(map[*ir.Layer]bool)
		}
		a.inBody(run, func() {
			res = a.walkBody(c.l, b, a.bodyParams(c, b, given(bounds{sym.R(k, k), sym.R(k, k)}), func(p int) *Value { return current[p] }))
		})
		last = res
		if record {
			a.recordIteration(c.l, b.Model, n, trip)
			a.walked = nil
		}
		if b.Cond >= 0 && (b.Cond >= len(res) || res[b.Cond] == nil || !a.provablyTrue(res[b.Cond])) {
			always = false
		}
		next := make([]*Value, len(b.Feeds))
		for p, r := range b.Back {
			if !known[p] {
				continue
			}
			ranges[p] = hullBounds(ranges[p], a.valueBounds(current[p]))
			if r < 0 || r >= len(res) || res[r] == nil || !res[r].Int {
				known[p] = false
				continue
			}
			next[p] = res[r]
		}
		current = next
	}
	return last, always
}

// loopOutputs are the values of a Loop's or TensorIterator's outputs,
// from the walk of its body that holds for every iteration (res, its
// Results): each element of a concatenated output is one of some
// iteration's Result, a last value is one of the last iteration's, or
// where no iteration may run (not b.AtLeastOnce), for a loop-carried
// value its initial one (ranges, where known). Their elements are
// followed as one, within those ranges; their dims are as inference gives
// them.
func (a *Analysis) loopOutputs(c *call, b ops.Body, res []*Value, ranges []bounds, known []bool) []*Value {
	out := make([]*Value, len(b.Outputs))
	for i, r := range b.Outputs {
		v := a.opaque(c.l, i, c.out(i))
		out[i] = v
		if !v.Int || r >= len(res) || res[r] == nil || !res[r].Int {
			continue
		}
		got := a.valueBounds(res[r])
		if !b.Concat[i] && !b.AtLeastOnce {
			p := slices.Index(b.Back, r)
			if p < 0 || !known[p] {
				continue // no iteration: a value the body does not give
			}
			got = hullBounds(got, ranges[p])
		}
		t := typeRange(v.Type)
		v.all = a.B.Var(a.newSym("an output of the "+c.l.Type+" "+describe(c.l), true, intersect(got.declared, t), intersect(got.any, t), Origin{Kind: Derived, Layer: c.l, Index: -1}))
		// A range that holds at the declared shapes only (the body's, or
		// an initial value's) stays so.
		v.DeclaredLayout = res[r].DeclaredLayout || slices.ContainsFunc(c.ins, func(x *Value) bool { return x != nil && x.DeclaredLayout })
	}
	return out
}

// loopValue is a value of a Loop body's Parameter p of elements within r:
// its dims any of their rank, its elements followed as one.
func (a *Analysis) loopValue(b ops.Body, p int, r bounds, what string) *Value {
	l := b.Model.Parameters()[p]
	v := a.opaque(l, 0, b.Params[p])
	if v.Int {
		t := typeRange(v.Type)
		v.all = a.B.Var(a.newSym(what+" of "+describe(l), true, intersect(r.declared, t), intersect(r.any, t), Origin{Kind: Derived, Layer: l, Index: -1}))
	}
	return v
}

func hullRange(x, y sym.Range) sym.Range {
	if y.Lo.Less(x.Lo) {
		x.Lo = y.Lo
	}
	if x.Hi.Less(y.Hi) {
		x.Hi = y.Hi
	}
	return x
}

// inputInfos are the infos at the declared shapes of what feeds l.
func (a *Analysis) inputInfos(l *ir.Layer) []ops.ValueInfo {
	out := make([]ops.ValueInfo, len(l.Inputs))
	for i, src := range a.Sources[l] {
		if i < len(out) && src.Layer != nil && src.Index < len(a.Infos[src.Layer]) {
			out[i] = a.Infos[src.Layer][src.Index]
		}
	}
	return out
}

// walkBody works out the values of a body's layers, its Parameters given
// params (nil: a value of any of its type, a Loop's carried ones and its
// current iteration), and returns the values of its Results, in the
// order of Model.Results(). The body's layers join the analysis (Ops,
// Infos, Sources, Values), each with the layer of the outer graph that
// holds it (Holders).
func (a *Analysis) walkBody(holder *ir.Layer, b ops.Body, params []*Value) []*Value {
	inf, err := ops.InferModelAt(b.Model, b.Params, ops.WalkOptions{Error: func(*ops.LayerError) {}})
	if err != nil {
		return nil // a cycle: the body stays unknown
	}
	if outer, ok := a.Holders[holder]; ok {
		holder = outer
	}
	a.adopt(inf, holder)
	bound := make(map[*ir.Layer]*Value, len(params))
	for i, l := range b.Model.Parameters() {
		if i >= len(params) || i >= len(b.Params) {
			break
		}
		v := params[i]
		if v == nil {
			v = a.opaque(l, 0, b.Params[i])
		}
		bound[l] = v
	}
	for _, l := range inf.Order {
		if a.dead != "" {
			if a.unreached == nil {
				a.unreached = make(map[*ir.Layer]string)
			}
			a.unreached[l] = a.dead
		} else {
			if a.reached == nil {
				a.reached = make(map[*ir.Layer]bool)
			}
			a.reached[l] = true
			if a.walked != nil {
				a.walked[l] = true
			}
		}
		if v, ok := bound[l]; ok {
			a.Values[ir.Output{Layer: l}] = v
			continue
		}
		for i, v := range a.transfer(l) {
			a.flatten(l, v)
			a.track(l, v)
			a.Values[ir.Output{Layer: l, Index: i}] = v
		}
	}
	var out []*Value
	for _, r := range b.Model.Results() {
		var v *Value
		if src := a.Sources[r]; len(src) == 1 {
			v = a.Values[src[0]]
		}
		out = append(out, v)
	}
	return out
}

// adopt makes a body's layers part of the analysis. The maps of the
// outer graph's inference are copied first: they are the caller's.
func (a *Analysis) adopt(inf *ops.Inference, holder *ir.Layer) {
	if a.Holders == nil {
		a.Holders = make(map[*ir.Layer]*ir.Layer)
		a.Ops, a.Infos, a.Sources = maps.Clone(a.Ops), maps.Clone(a.Infos), maps.Clone(a.Sources)
	}
	for _, l := range inf.Order {
		a.Holders[l] = holder
		if op, ok := inf.Ops[l]; ok {
			a.Ops[l] = op
		}
		a.Infos[l] = inf.Outputs[l]
		if src, ok := inf.Sources[l]; ok {
			a.Sources[l] = src
		}
	}
}

// Iterations are the operands of an integer Divide in the body of a Loop
// of the model whose every iteration the walk followed one at a time
// (unroll): Pairs[k] at iteration k, for each iteration the Loop may run
// at any input. A Divide whose walk at every iteration proves agreement
// agrees, where the walk that holds for every iteration at once (carried
// values in a range) may not tell (a carried 2 halved by -1 is 2 or -2,
// never 1, where the range says [-2, 2]).
type Iterations struct {
	Loop  *ir.Layer
	Pairs [][]Pair
	// DeclaredLayout: at some iteration an operand was laid out as at the
	// declared shapes only (Value.DeclaredLayout): what its pairs prove
	// holds there, not for every input shape.
	DeclaredLayout bool
	// Trip is the Loop's trip count (TripKnown: it has one), which
	// iteration k runs only where it exceeds k, or is negative (OpenVINO
	// takes a negative trip count as none at all); TripDeclaredOnly: it is
	// laid out as at the declared shapes only, and bounds nothing at
	// others. Pairs[k] is empty where the walk of iteration k found that
	// the Divide never runs there (in a branch its If never picks then).
	Trip                        sym.Expr
	TripKnown, TripDeclaredOnly bool
}

// IterationPairs gives the operands of l, an integer Divide in a Loop's
// body, at each iteration, where the walk followed every one.
func (a *Analysis) IterationPairs(l *ir.Layer) (Iterations, bool) {
	it, ok := a.iterations[l]
	if !ok || it == nil || int64(len(it.Pairs)) != it.want {
		return Iterations{}, false
	}
	return it.Iterations, true
}

// iterationRecord is what recordIteration keeps of a Divide; want is how
// many iterations the Loop may run, which the record must cover.
type iterationRecord struct {
	Iterations
	want int64
}

// recordIteration keeps, after the walk of one iteration of the Loop
// loop (its trip count trip, nil where it has none), the operands of
// every integer Divide of its body and of the If branches within it (a
// nested Loop's body is walked over and over in search of its ranges:
// none of those walks is one iteration); none for a Divide the walk
// found never to run (walked). A Divide whose operands the walk did not
// follow gets no record at all.
func (a *Analysis) recordIteration(loop *ir.Layer, m *ir.Model, n int64, trip *Value) {
	if a.iterations == nil {
		a.iterations = make(map[*ir.Layer]*iterationRecord)
	}
	for _, l := range m.Layers {
		switch op := a.Ops[l].(type) {
		case *ops.Divide:
			r, seen := a.iterations[l]
			if seen && r == nil {
				continue
			}
			pairs := []Pair{}
			if a.walked == nil || a.walked[l] {
				if pairs = a.Pairs(l, op.Broadcast); len(pairs) == 0 {
					a.iterations[l] = nil
					continue
				}
			}
			if !seen {
				r = &iterationRecord{Iterations: Iterations{Loop: loop}, want: n}
				if trip != nil {
					r.Trip, r.TripKnown, r.TripDeclaredOnly = a.All(trip), true, trip.DeclaredLayout || trip.DeclaredDims
				}
				a.iterations[l] = r
			}
			r.Pairs = append(r.Pairs, pairs)
			r.DeclaredLayout = r.DeclaredLayout || a.DeclaredLayout(l)
		case *ops.If:
			for _, b := range op.Bodies(a.inputInfos(l)) {
				a.recordIteration(loop, b.Model, n, trip)
			}
		}
	}
}
