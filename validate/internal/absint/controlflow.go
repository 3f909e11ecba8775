package absint

import (
	"maps"
	"math"
	"slices"

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
	for k, b := range f.Bodies(a.inputInfos(c.l)) {
		// then_body runs where the condition holds, else_body where it
		// fails: each knows it of what it reads (where(x >= 0, x / 2, 0)).
		params := make([]*Value, len(b.Feeds))
		for p, ext := range b.Feeds {
			if ext >= 0 && ext < len(c.ins) {
				params[p] = a.assumed(c.ins[ext], pick, k == 0)
			}
		}
		res := a.walkBody(c.l, b, params)
		outs := make([]*Value, len(b.Outputs))
		for i, r := range b.Outputs {
			if r < len(res) {
				outs[i] = res[r]
			}
		}
		branches = append(branches, outs)
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
	}
	return v
}

// loopIterations bounds how many times a Loop's body is walked in search
// of ranges its loop-carried integers keep; maxBodyWalks bounds the walks
// of Loop bodies of one analysis that search for them.
const (
	loopIterations = 4
	maxBodyWalks   = 1024
)

// loopValues walks a Loop's body for every iteration at once (iterate):
// its invariant inputs as they are, the current iteration at most the
// trip count less one, where that is known. The Loop's outputs are within
// what the walk that holds gives (loopOutputs), for a last value joined
// with the initial one, since a Loop may run no iteration.
func loopValues(a *Analysis, c *call) []*Value {
	lp := c.op.(*ops.Loop)
	bodies := lp.Bodies(a.inputInfos(c.l))
	if len(bodies) != 1 {
		return nil
	}
	b := bodies[0]
	// A negative trip count bounds nothing.
	iterations := sym.R(0, math.MaxInt64)
	if c.ins[0].Int {
		if trip := a.decide.Range(a.All(c.ins[0])); trip.Lo.AtLeast(0) && trip.Hi.IsFinite() && trip.Hi.AtLeast(1) {
			iterations = sym.R(0, trip.Hi.V-1)
		}
	}
	res, ranges, known := a.iterate(c, b, func(p, ext int) *Value {
		if ext < 0 {
			return a.loopValue(b, p, iterations, "the current iteration")
		}
		return c.ins[ext]
	})
	return a.loopOutputs(c, b, res, ranges, known)
}

// iterate walks the body of a Loop or TensorIterator for every iteration
// at once. Each loop-carried integer gets a range that holds at every
// iteration: its initial value's, widened by what the body gives back,
// until the body gives back nothing outside it (then, by induction, no
// iteration does); after loopIterations walks, any value of its type.
// given gives the value of every other Parameter p (fed by input ext, -1
// for a Loop's current iteration) at each walk. It returns the Results of
// the walk that holds for every iteration, and the carried ranges (known:
// those of integers).
func (a *Analysis) iterate(c *call, b ops.Body, given func(p, ext int) *Value) (res []*Value, ranges []sym.Range, known []bool) {
	ranges = make([]sym.Range, len(b.Feeds))
	known = make([]bool, len(b.Feeds))
	for p, ext := range b.Feeds {
		if b.Carried[p] && ext >= 0 && ext < len(c.ins) && c.ins[ext].Int {
			ranges[p], known[p] = a.decide.Range(a.All(c.ins[ext])), true
		}
	}
	// Nested Loops multiply their walks: past a budget, one walk, the
	// carried values any of their types.
	first := 1
	if a.bodyWalks > maxBodyWalks {
		first = loopIterations
	}
	for walk := first; ; walk++ {
		a.bodyWalks++
		last := walk >= loopIterations
		params := make([]*Value, len(b.Feeds))
		for p, ext := range b.Feeds {
			switch {
			case b.Carried[p] && !last && known[p]:
				params[p] = a.loopValue(b, p, ranges[p], "a loop-carried value")
			case b.Carried[p]:
				// any value of its type
			case ext < len(c.ins):
				params[p] = given(p, ext)
			}
		}
		res = a.walkBody(c.l, b, params)
		if last {
			// ranges still hold the initial values, which a last value
			// joins where no iteration may run.
			return res, ranges, known
		}
		stable := true
		for p, r := range b.Back {
			if r < 0 || !known[p] {
				continue
			}
			if r >= len(res) || res[r] == nil || !res[r].Int {
				stable, known[p] = false, false
				continue
			}
			got := a.decide.Range(a.All(res[r]))
			if !got.Within(ranges[p]) {
				stable, ranges[p] = false, hullRange(ranges[p], got)
			}
		}
		if stable {
			return res, ranges, known
		}
	}
}

// loopOutputs are the values of a Loop's or TensorIterator's outputs,
// from the walk of its body that holds for every iteration (res, its
// Results): each element of a concatenated output is one of some
// iteration's Result, a last value is one of the last iteration's, or
// where no iteration may run (not b.AtLeastOnce), for a loop-carried
// value its initial one (ranges, where known). Their elements are
// followed as one, within those ranges; their dims are as inference gives
// them.
func (a *Analysis) loopOutputs(c *call, b ops.Body, res []*Value, ranges []sym.Range, known []bool) []*Value {
	out := make([]*Value, len(b.Outputs))
	for i, r := range b.Outputs {
		v := a.opaque(c.l, i, c.out(i))
		out[i] = v
		if !v.Int || r >= len(res) || res[r] == nil || !res[r].Int {
			continue
		}
		got := a.decide.Range(a.All(res[r]))
		if !b.Concat[i] && !b.AtLeastOnce {
			p := slices.Index(b.Back, r)
			if p < 0 || !known[p] {
				continue // no iteration: a value the body does not give
			}
			got = hullRange(got, ranges[p])
		}
		v.all = a.fresh(c.l, intersect(got, typeRange(v.Type)), "an output of the "+c.l.Type)
		// A range that holds at the declared shapes only (the body's, or
		// an initial value's) stays so.
		v.DeclaredLayout = res[r].DeclaredLayout || slices.ContainsFunc(c.ins, func(x *Value) bool { return x != nil && x.DeclaredLayout })
	}
	return out
}

// loopValue is a value of a Loop body's Parameter p of elements within r:
// its dims any of their rank, its elements followed as one.
func (a *Analysis) loopValue(b ops.Body, p int, r sym.Range, what string) *Value {
	l := b.Model.Parameters()[p]
	v := a.opaque(l, 0, b.Params[p])
	if v.Int {
		v.all = a.fresh(l, intersect(r, typeRange(v.Type)), what)
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
