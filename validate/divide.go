package validate

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/safename"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/search"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// CounterExample is a counter-example at a model's inputs: a tensor for
// every Parameter, by name. Given to the model, it makes a Divide
// compute what the finding says.
type CounterExample struct {
	Inputs map[string]*ir.Tensor
}

// Files names the file of each input's tensor in a counter-example
// folder, by input name: NAME.npy, every character of the name outside
// [A-Za-z0-9_.-] replaced by "_", a long name shortened with a hash, and
// names that then collide ("a/b" and "a_b") told apart by a suffix "~N"
// (internal/safename, which internal/ortreplay reads them by too).
func (c *CounterExample) Files() map[string]string {
	return safename.Files(slices.Collect(maps.Keys(c.Inputs)))
}

// divide examines one Divide: its attributes, and for integers the values
// that reach it.
func (v *validator) divide(l *ir.Layer, d *ops.Divide) {
	for _, w := range d.Warnings {
		v.r.add(Warning, DivideAttribute, l, nil, "%s", w)
	}
	info := v.infos[l][0]
	if !info.Type.IsInteger() {
		return
	}
	if why := v.an.NeverRuns(l); why != "" {
		v.r.add(Note, FloorTruncAgree, l, Evidence{{"reason", "the Divide never runs: " + why}},
			"floor and truncation agree here: the Divide never runs (%s), so nothing is divided", why)
		return
	}
	out := v.an.Values[ir.Output{Layer: l}]
	if emptyAtEveryShape(out) {
		// Said, so that no Divide goes without a word.
		v.r.add(Note, FloorTruncAgree, l, Evidence{{"reason", "the output is empty whatever the input shapes: nothing is divided"}},
			"floor and truncation agree here: the output is empty whatever the input shapes (a dim is 0), so nothing is divided")
		return
	}
	pairs := v.an.Pairs(l, d.Broadcast)
	if len(pairs) == 0 {
		if info.Type.IsSigned() && d.PythonDiv && v.origin == fromONNX && emptyUnder(v.declared, out) {
			// Laid out as at the declared shapes, where the output has no
			// element (y[1:-1] of y: i64[2], seed 1463 of the
			// differential): nothing is divided there, and at other
			// shapes, which a reshape may give, the values are not
			// followed.
			why := "the output is empty at the declared input shapes: nothing is divided there"
			v.r.add(Warning, FloorTruncReshape, l, Evidence{{"reason", why}},
				"m_pythondiv=true floors where ONNX truncates; at the declared input shapes they agree (%s), but not for every input shape, which a reshape may give: irdiv does not follow the values of its operands there", why)
			return
		}
		v.notAnalysed(l, nil, "", "", "irdiv does not follow the values of its operands")
		return
	}
	a, b := v.operandText(l, 0, pairs), v.operandText(l, 1, pairs)
	expression := v.expr(ir.Output{Layer: l}, 0)
	shared := Evidence{{"expression", expression}, {"a", a}, {"b", b}}
	evidence := func(extra ...Fact) Evidence { return shared.With(extra...) }
	if v.faults(l, info.Type, pairs, evidence) {
		return // the model cannot run past this Divide: nothing else about it matters
	}
	signed := info.Type.IsSigned()
	if !signed && d.PythonDiv && v.origin == fromONNX {
		v.r.add(Note, FloorTruncAgree, l, evidence(Fact{"reason", "the type is unsigned"}),
			"m_pythondiv=true floors where ONNX truncates, but %s values are never negative: floor and truncation are the same", info.Type)
	}
	if !signed || !d.PythonDiv {
		v.cpu(l, info.Type, d, pairs, true, evidence)
		return
	}
	agree, reason := v.agree(v.an, v.declared, l, pairs, false)
	switch v.origin {
	case fromONNX:
		v.floorTruncation(l, pairs, agree, false, reason, a, b, evidence)
	case fromPyTorch:
		v.pytorch(l, pairs, agree, evidence)
	}
	v.cpu(l, info.Type, d, pairs, agree, evidence)
}

// emptyAtEveryShape reports whether a value has a dim that is 0 whatever
// the input shapes: one empty at the declared shapes only may hold
// elements at others.
func emptyAtEveryShape(v *absint.Value) bool {
	if v == nil {
		return false
	}
	for _, d := range v.Dims {
		if c, ok := d.IsConst(); ok && c == 0 && !v.DeclaredDims {
			return true
		}
	}
	return false
}

// emptyUnder reports whether a value has a dim that is 0 wherever p's
// ranges hold.
func emptyUnder(p *sym.Prover, v *absint.Value) bool {
	return v != nil && slices.ContainsFunc(v.Dims, func(d sym.Expr) bool { return p.Range(d) == sym.R(0, 0) })
}

// operandText shows an operand of l: its value, or the range of its
// elements, at the declared shapes.
func (v *validator) operandText(l *ir.Layer, i int, pairs []absint.Pair) string {
	src := v.sourceOf(l, i)
	val := v.an.Values[src]
	if val == nil || !val.Int {
		return "?"
	}
	if val.Elems != nil && len(val.Elems) <= 8 {
		parts := make([]string, len(val.Elems))
		consts := true
		for j, e := range val.Elems {
			c, ok := e.IsConst()
			consts = consts && ok
			parts[j] = strconv.FormatInt(c, 10)
		}
		if consts {
			if val.Rank == 0 {
				return "= " + parts[0]
			}
			return "= [" + strings.Join(parts, ",") + "]"
		}
	}
	var all sym.Range
	for j, p := range pairs {
		e := p.A
		if i == 1 {
			e = p.B
		}
		r := v.declared.Range(e)
		if j == 0 {
			all = r
		} else {
			all = union(all, r)
		}
	}
	return rangeText(all)
}

func union(a, b sym.Range) sym.Range {
	lo, hi := a.Lo, a.Hi
	if b.Lo.Less(lo) {
		lo = b.Lo
	}
	if hi.Less(b.Hi) {
		hi = b.Hi
	}
	return sym.Range{Lo: lo, Hi: hi}
}

// rangeText prints a range in the one notation every finding uses:
// "= 3", "in [0, 255]", "in [1, inf)", with the int64 limits as -2^63
// and 2^63-1.
func rangeText(r sym.Range) string {
	if r.Lo == r.Hi && r.Lo.IsFinite() {
		return "= " + boundText(r.Lo)
	}
	lo, hi := "[", "]"
	if !r.Lo.IsFinite() {
		lo = "("
	}
	if !r.Hi.IsFinite() {
		hi = ")"
	}
	return "in " + lo + boundText(r.Lo) + ", " + boundText(r.Hi) + hi
}

func boundText(b sym.Bound) string {
	switch {
	case b.Inf < 0:
		return "-inf"
	case b.Inf > 0:
		return "inf"
	case b.V == math.MinInt64:
		return "-2^63"
	case b.V == math.MaxInt64:
		return "2^63-1"
	case b.V == absint.MaxDim:
		return "2^40"
	}
	return strconv.FormatInt(b.V, 10)
}

// agree tells whether floor and truncation agree on every pair under the
// prover's ranges, and why: the operands never have opposite signs, or
// every division is exact.
//
// deep also takes a value the operands are made of as a symbol of its
// own (agreeByInnerValue): costlier, it is for Divides that nothing else
// decides.
func (v *validator) agree(an *absint.Analysis, p *sym.Prover, l *ir.Layer, pairs []absint.Pair, deep bool) (bool, string) {
	if an == v.an && v.remainderForm(l) {
		return true, "every division is exact: the dividend is a - a % b (Mod, the remainder of truncation), a multiple of b"
	}
	if p == v.declared && an == v.an && len(v.neverRunsDeclared) > 0 {
		u := v.neverRunsDeclared[0]
		return true, fmt.Sprintf("the model runs on no input of the declared shapes (%s %s %s, structure/never-runs): nothing is divided there", u.Layer.Type, u.Layer, u.Needs)
	}
	if p == v.declared && emptyUnder(p, an.Values[ir.Output{Layer: l}]) {
		// x: i64[0] / -3 divides nothing at its declared shape, and
		// anything at others: agreement there, a question for any shape.
		return true, "the output is empty at the declared input shapes: nothing is divided there"
	}
	env := sym.Env(&an.Any)
	if p == v.declared {
		env = &an.Declared
	}
	g := guard{}
	if an == v.an {
		var declaredOnly bool
		g.e, g.r, declaredOnly, g.ok = an.BranchOf(l)
		// A condition laid out as at the declared shapes says nothing
		// of others.
		g.ok = g.ok && (!declaredOnly || p == v.declared)
	}
	if g.ok && !overlaps(p.Range(g.e), g.r) {
		// (A condition the walk could not decide at every shape may be
		// decided at the declared ones, where the values are narrower.)
		return true, "the If's branch that holds the Divide never runs: nothing is divided"
	}
	if ok, why := agreeSplitting(an, p, env, pairs, g, deep); ok {
		return true, why
	}
	if an == v.an {
		if fp := v.factProver(p, env); fp != nil {
			if ok, why := agreeOn(an, fp, pairs); ok {
				return true, why + ", given what the model's layers require of values wherever it runs (" + v.factLayers() + ")"
			}
		}
	}
	// A Loop's Divide whose every iteration the analysis walked one at a
	// time: agreement at each is agreement (pairs laid out as at the
	// declared shapes at some iteration prove nothing of other shapes).
	it, ok := an.IterationPairs(l)
	if !ok || it.DeclaredLayout && p != v.declared {
		return false, ""
	}
	var whys []string
	// Iteration k runs only where the trip count exceeds k, where it is
	// never negative (OpenVINO takes a negative one as no bound): a
	// condition on the Divide, as an If's, where it is in no If's branch.
	tripGuard := !g.ok && it.TripKnown && (!it.TripDeclaredOnly || p == v.declared) && p.Range(it.Trip).Lo.AtLeast(0)
	idle := 0
	for k, ps := range it.Pairs {
		gk := g
		if tripGuard {
			gk = guard{e: it.Trip, r: sym.Range{Lo: sym.Finite(int64(k) + 1), Hi: sym.PosInf}, ok: true, iteration: true}
		}
		if len(ps) == 0 || gk.ok && !overlaps(p.Range(gk.e), gk.r) {
			idle++ // the Divide does not run at this iteration
			continue
		}
		ok, why := agreeSplitting(an, p, env, ps, gk, deep)
		if !ok {
			return false, ""
		}
		if !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
	}
	if idle > 0 {
		whys = append(whys, fmt.Sprintf("the Divide does not run at %s of them", plural(idle, "iteration")))
	}
	return true, fmt.Sprintf("at each of the %s %s may run, walked one at a time, %s", plural(len(it.Pairs), "iteration"), it.Loop, strings.Join(whys, "; "))
}

// factProver is p, under env, knowing what the layers of the model's
// graph require of values wherever the model runs (absint's Facts: a
// Concat of T - C made a ConstantOfShape's dims, so T - C is 0 or more,
// though neither T nor C alone is bounded so; seed 1165 of the
// differential); nil where no layer requires anything. It is made once
// per prover.
func (v *validator) factProver(p *sym.Prover, env sym.Env) *sym.Prover {
	facts := v.an.Facts()
	if len(facts) == 0 {
		return nil
	}
	if fp, ok := v.withFacts[p]; ok {
		return fp
	}
	fp := sym.NewProver(v.an.B, env)
	for _, j := range facts {
		fp.AddFact(j.E, j.R)
	}
	if v.withFacts == nil {
		v.withFacts = make(map[*sym.Prover]*sym.Prover)
	}
	v.withFacts[p] = fp
	return fp
}

// factLayers names the layers whose requirements the facts are, for a
// proof that rests on them: all of them, as the prover does not say which
// it used.
func (v *validator) factLayers() string {
	var names []string
	for _, j := range v.an.Facts() {
		if name := fmt.Sprintf("%s %s", j.Layer.Type, j.Layer); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return strings.Join(names[:min(len(names), 2)], ", ") + more(len(names), 2)
}

// agreeSplitting tells whether floor and truncation agree on every pair
// under p's ranges (those of env), and why: at once, or where the pairs
// depend on one or two symbols, on each piece of their ranges cut at the
// constants the operands are made with. m * m / (m - 1) with m =
// min(d, 6) is never negative, which no range of d in [0, 2^40] shows at
// once (at d = 0 the divisor is -1 and the dividend 0), and each value of
// d below 7, and the rest, shows alone. The pieces cover the ranges: what
// holds on each holds on them. A Divide inside a branch of an If (g) runs
// only where the If's condition picks it: a piece where it never does
// holds nothing to prove (min(L, 8) / max(min(L, 8), 1) where L + 3 <
// int32(L) clipped to [-8, 8]: below 2^31 that is L < 5, and L of 2^31
// and more, whose int32 wraps, never gets there; seed 1344).
func agreeSplitting(an *absint.Analysis, p *sym.Prover, env sym.Env, pairs []absint.Pair, g guard, deep bool) (bool, string) {
	if ok, why := agreeOn(an, p, pairs); ok {
		return true, why
	}
	if g.ok && len(distinctSyms(an.B, append(pairExprs(pairs), g.e)...)) > 2 {
		// More symbols than agreePieces cuts: the condition's alone cut
		// into pieces, the rest whole. clip(N - 16, 1, 3) / (max(-8,
		// min(T, 8)) - 1) divides by -1 at T = 0 only, and the pieces of
		// T say so, N and M whole (seed 486 of the differential).
		if ok, why := agreePiecesOf(an, env, pairs, g, distinctSyms(an.B, g.e)); ok {
			return true, why
		}
	}
	if ok, why := agreePieces(an, env, pairs, g); ok || !deep {
		return ok, why
	}
	return agreeByInnerValue(an, p, env, pairs, g)
}

// maxInnerValues bounds the values agreeByInnerValue tries, each as
// many as maxSplitPieces proofs; maxTopValues those of them that are an
// operand's own atoms, tried last.
const (
	maxInnerValues = 4
	maxTopValues   = 2
)

// maxDeepProofs bounds the Divides of a model agree tries deep,
// maxDeepSymbols the symbols their operands may depend on (a value taken
// as a symbol of its own leaves the rest, which agreePieces splits only
// where they are one or two) and maxDeepDepth how deep they may be (each
// piece is a proof over them). A model of thousands of Divides of long
// sums allocated gigabytes without these bounds.
const (
	maxDeepProofs  = 64
	maxDeepSymbols = 6
	maxDeepDepth   = 32
)

// smallOperands tells whether the operands of pairs depend on at most
// maxDeepSymbols symbols, at most maxDeepDepth deep.
func smallOperands(b *sym.Builder, pairs []absint.Pair) bool {
	es := pairExprs(pairs)
	for _, e := range es {
		if b.Depth(e) > maxDeepDepth {
			return false
		}
	}
	return len(distinctSyms(b, es...)) <= maxDeepSymbols
}

// distinctSyms lists the symbols es depend on, each once.
func distinctSyms(b *sym.Builder, es ...sym.Expr) []sym.Sym {
	var syms []sym.Sym
	for _, e := range es {
		for _, s := range b.Syms(e) {
			if !slices.Contains(syms, s) {
				syms = append(syms, s)
			}
		}
	}
	return syms
}

// agreeByInnerValue tells whether floor and truncation agree on every
// pair, and why, where the operands depend on more symbols than
// agreePieces splits but on those mostly through one value they are
// made of: that value taken as a symbol of its own, ranging over all it
// may be, and its range split as agreePieces does. w = int32(y[2] -
// y[1]) of two elements: Min(Max(w, -8), 8) / Max(w, 1) is w / w for w
// in [3, 6], a division by 1 for w in [-6, -2], and so on (seed 677).
// The pairs with w free hold every pair the model gives, and more: what
// holds of them holds of the model's.
func agreeByInnerValue(an *absint.Analysis, p *sym.Prover, env sym.Env, pairs []absint.Pair, g guard) (bool, string) {
	inner := an.B.Inner(pairExprs(pairs)...)
	// Then an operand's own atoms (w of w - 1, where the If's condition
	// compares w too: seed 1685 of the differential), each tried after
	// every inner value, with a budget of its own.
	candidates := append(inner, an.B.Top(pairExprs(pairs)...)...)
	tried := 0
	for i, x := range candidates {
		if i == len(inner) {
			tried = maxInnerValues - maxTopValues
		}
		if tried >= maxInnerValues {
			if i < len(inner) {
				continue
			}
			break
		}
		r := p.Range(x)
		if r.Lo == r.Hi {
			continue
		}
		ws := an.B.NewSym("("+an.B.String(x)+")", true)
		w := an.B.Var(ws)
		replaced := make([]absint.Pair, len(pairs))
		for i, pr := range pairs {
			replaced[i] = absint.Pair{A: an.B.Replace(pr.A, x, w), B: an.B.Replace(pr.B, x, w)}
		}
		es := pairExprs(replaced)
		gw := g
		if g.ok {
			gw.e = an.B.Replace(g.e, x, w)
			es = append(es, gw.e)
		}
		if len(distinctSyms(an.B, es...)) > 2 {
			continue
		}
		tried++
		if ok, why := agreePieces(an, narrowedEnv{env, map[sym.Sym]sym.Range{ws: r}}, replaced, gw); ok {
			return true, fmt.Sprintf("taking %s (in %s) as a value of its own, %s", an.B.String(x), r, why)
		}
	}
	return false, ""
}

// agreePieces tells whether floor and truncation agree on every pair,
// and why, where the pairs depend on one or two symbols: on each piece
// of their ranges (under env) cut at the constants the operands are
// made with.
func agreePieces(an *absint.Analysis, env sym.Env, pairs []absint.Pair, g guard) (bool, string) {
	es := pairExprs(pairs)
	if g.ok {
		es = append(es, g.e)
	}
	return agreePiecesOf(an, env, pairs, g, distinctSyms(an.B, es...))
}

// agreePiecesOf is agreePieces cutting the ranges of syms only (one or
// two), each other symbol's range taken whole.
func agreePiecesOf(an *absint.Analysis, env sym.Env, pairs []absint.Pair, g guard, syms []sym.Sym) (bool, string) {
	es := pairExprs(pairs)
	if g.ok {
		es = append(es, g.e)
	}
	var consts []int64
	for _, e := range es {
		consts = append(consts, an.B.Consts(e)...)
	}
	if len(syms) == 0 || len(syms) > 2 {
		return false, ""
	}
	pieces := make([][]sym.Range, len(syms))
	total := 1
	for i, s := range syms {
		pieces[i] = splitRange(env.Range(s), consts)
		total *= len(pieces[i])
	}
	if total > maxSplitPieces {
		return false, ""
	}
	at := make(map[sym.Sym]sym.Range, len(syms))
	var whys []string
	idle := 0
	// One prover for every piece, Reset to each: its memory of the
	// atoms' ranges is made once.
	piece := sym.NewProver(an.B, narrowedEnv{env, at})
	var each func(i int) bool
	each = func(i int) bool {
		if i == len(syms) {
			piece.Reset(narrowedEnv{env, at})
			if g.ok && !overlaps(piece.Range(g.e), g.r) {
				idle++ // the branch does not run here
				return true
			}
			ok, why := agreeOn(an, piece, pairs)
			if ok && !slices.Contains(whys, why) {
				whys = append(whys, why)
			}
			return ok
		}
		for _, r := range pieces[i] {
			at[syms[i]] = r
			if !each(i + 1) {
				return false
			}
		}
		return true
	}
	if !each(0) {
		return false, ""
	}
	names := make([]string, len(syms))
	for i, s := range syms {
		names[i] = an.B.Info(s).Name
	}
	switch {
	case idle == total:
		whys = append(whys, g.what()+" runs on none of them")
	case idle > 0:
		whys = append(whys, fmt.Sprintf("%s runs on %d of them only", g.what(), total-idle))
	}
	return true, fmt.Sprintf("for each of %d pieces of the range of %s, %s", total, strings.Join(names, " and "), strings.Join(whys, "; "))
}

// guard is where the Divide runs: inside a branch of an If, only where
// e, x - y of the If's comparison, lies within r (absint's BranchOf);
// ok is false where no such condition is known.
type guard struct {
	e  sym.Expr
	r  sym.Range
	ok bool
	// iteration: the condition is a Loop's trip count's, under which one
	// iteration runs, not an If's.
	iteration bool
}

// what names what runs where the guard's condition holds.
func (g guard) what() string {
	if g.iteration {
		return "the iteration"
	}
	return "the If's branch that holds the Divide"
}

// overlaps tells whether two ranges share a value.
func overlaps(x, y sym.Range) bool { return !x.Hi.Less(y.Lo) && !y.Hi.Less(x.Lo) && !x.Hi.Less(x.Lo) }

// maxSplitPieces bounds the pieces agreeSplitting proves one at a time:
// each is a prover of its own.
const maxSplitPieces = 256

// splitRange cuts r at the values near the constants (c - 1, c, c + 1,
// and -1, 0, 1): each of those in r alone, the gaps between them as
// ranges.
func splitRange(r sym.Range, consts []int64) []sym.Range {
	points := []int64{-1, 0, 1}
	for _, c := range consts {
		for _, d := range []int64{-1, 0, 1} {
			if x := c + d; (d > 0) == (x > c) || d == 0 {
				points = append(points, x)
			}
		}
	}
	slices.Sort(points)
	points = slices.Compact(points)
	var out []sym.Range
	lo := r.Lo
	for _, x := range points {
		if !r.Contains(x) {
			continue
		}
		if x > math.MinInt64 && lo.Less(sym.Finite(x)) {
			out = append(out, sym.Range{Lo: lo, Hi: sym.Finite(x - 1)})
		}
		out = append(out, sym.R(x, x))
		lo = sym.Finite(x + 1)
		if x == math.MaxInt64 {
			return out
		}
	}
	if !r.Hi.Less(lo) {
		out = append(out, sym.Range{Lo: lo, Hi: r.Hi})
	}
	return out
}

// narrowedEnv is env with some symbols' ranges replaced.
type narrowedEnv struct {
	env sym.Env
	at  map[sym.Sym]sym.Range
}

func (n narrowedEnv) Range(s sym.Sym) sym.Range {
	if r, ok := n.at[s]; ok {
		return r
	}
	return n.env.Range(s)
}

// agreeOn tells whether floor and truncation agree on every pair under
// p's ranges, and why.
func agreeOn(an *absint.Analysis, p *sym.Prover, pairs []absint.Pair) (bool, string) {
	nonNegative, exactDivision, minOnly := true, true, false
	for _, pr := range pairs {
		ra, rb := p.Range(pr.A), p.Range(pr.B)
		sameSign := ra.Lo.AtLeast(0) && rb.Lo.AtLeast(0) || ra.Hi.AtMost(0) && rb.Hi.AtMost(0) || ra.Lo.AtLeast(0) && ra.Hi.AtMost(0)
		exact := false
		if c, ok := pr.B.IsConst(); ok && c != 0 {
			exact = pr.A.MultipleOf(c)
			m := uint64(c)
			if c < 0 {
				m = -m // MIN's magnitude, 2^63, too
			}
			if !exact && m&(m-1) == 0 {
				// A power of two divides what wraps in shape arithmetic.
				exact = an.B.MultipleOfPow2(pr.A, bits.TrailingZeros64(m))
			}
		}
		if ra.Lo == ra.Hi && rb.Lo == rb.Hi && ra.Lo.IsFinite() && rb.Lo.IsFinite() && rb.Lo.V != 0 {
			// One value each (a fixed dim, 3, over -3): the division itself
			// says (seed 9318).
			exact = exact || ra.Lo.V%rb.Lo.V == 0
		}
		exact = exact || rb.Lo == rb.Hi && rb.Lo.IsFinite() && (rb.Lo.V == 1 || rb.Lo.V == -1) ||
			multipleOf(an.B, pr.A, pr.B) || p.ExactByRemainder(pr.A, pr.B)
		if !sameSign && !exact && onlyMinNegative(an.B, p, pr.A, rb) {
			// |x| wrapped into its type is negative only at MIN (Abs(MIN)
			// = MIN), which a constant power of two divides exactly.
			sameSign, exact, minOnly = true, true, true
		}
		if !sameSign && !exact {
			return false, ""
		}
		nonNegative = nonNegative && sameSign
		exactDivision = exactDivision && exact
	}
	switch {
	case nonNegative && minOnly:
		return true, "the operands never have opposite signs but where the dividend, an absolute value, is its type's minimum, which the divisor divides exactly"
	case nonNegative:
		return true, "the operands never have opposite signs"
	case exactDivision:
		return true, "every division is exact"
	}
	return true, "on every element the operands have the same sign or divide exactly"
}

// multipleOf tells whether a is k*b for an integer k, whatever the
// symbols: a / b is k then (b, -5*H*K*C over H*K*C: seed 120).
func multipleOf(b0 *sym.Builder, a, b sym.Expr) bool {
	k, ok := b0.Ratio(a, b)
	return ok && b0.Scale(b, k).Equal(a)
}

// onlyMinNegative tells whether a is never negative but at its type's
// minimum, and the divisor b (a constant) divides that minimum: then the
// division is exact wherever a is negative.
func onlyMinNegative(b0 *sym.Builder, p *sym.Prover, a sym.Expr, b sym.Range) bool {
	arg, r, ok := b0.Unwrap(a)
	if !ok || !r.Lo.IsFinite() || b.Lo != b.Hi || !b.Lo.IsFinite() || b.Lo.V == 0 {
		return false
	}
	if r.Lo.V%b.Lo.V != 0 || b.Lo.V <= 0 {
		return false
	}
	f := p.Range(arg)
	if r.Lo.V == math.MinInt64 {
		// -MIN leaves int64: |x| of an int64 x is at most 2^63, which
		// the range of Max(x, -x) shows as no bound.
		x, ok := b0.AbsArg(arg)
		fx, fnx := p.Range(x), p.Range(b0.Neg(x))
		return ok && (fx.Lo.IsFinite() && fx.Hi.IsFinite() || fnx.Lo.IsFinite() && fnx.Hi.IsFinite())
	}
	// arg in [0, -MIN]: it wraps only at -MIN, to MIN.
	return f.Lo.AtLeast(0) && f.Hi.AtMost(-r.Lo.V)
}

// shapeDerived tells whether an operand depends on input dims (a shape
// computation), where a proof for any input shape is worth saying.
func (v *validator) shapeDerived(pairs []absint.Pair) bool {
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			for _, s := range v.an.B.Syms(e) {
				if o := v.an.OriginOf(s); o.Kind == absint.InputDim || o.Kind == absint.Derived && o.Index >= 0 {
					return true
				}
			}
		}
	}
	return false
}

// pairExprs lists the operands of pairs.
func pairExprs(pairs []absint.Pair) []sym.Expr {
	var es []sym.Expr
	for _, p := range pairs {
		es = append(es, p.A, p.B)
	}
	return es
}

// floorDiffers: floor and truncation give different quotients.
func floorDiffers(x, y int64) bool {
	return y != 0 && !(x == math.MinInt64 && y == -1) && x%y != 0 && (x < 0) != (y < 0)
}

// runs are the two evaluations a floor/truncation counter-example
// compares: every signed integer Divide truncating (what ONNX, and
// OpenVINO's CPU plugin, compute) and flooring (this IR's m_pythondiv).
func truncating(*ir.Layer, *ops.Divide) bool { return false }
func flooring(*ir.Layer, *ops.Divide) bool   { return true }

// assumedDims is the assumption of a proof over input dims.
const assumedDims = "every dim is at most 2^40 (a tensor that large is a terabyte), so that shape arithmetic does not overflow int64"

// floorTruncation classifies a flooring Divide of a model from ONNX: a
// note when floor and truncation provably agree for every input shape; a
// warning when they agree at the declared shapes only; an error with a
// counter-example at the model's inputs when some input makes the model's
// outputs differ; a warning naming what stopped the analysis otherwise.
//
// deep says the proof at the declared shapes took a value the operands
// are made of as a symbol of its own (agree's deep), which the proof for
// every shape may take too.
func (v *validator) floorTruncation(l *ir.Layer, pairs []absint.Pair, agree, deep bool, reason, a, b string, evidence func(...Fact) Evidence) {
	// Both evaluations run the ops of empty inputs as ONNX Runtime does: a
	// counter-example is the ONNX model's, replayed there.
	onnxRun := search.RunOptions{Floor: truncating, MaxTensorBytes: v.opts.MaxTensorBytes, ONNX: true, EmptyAsONNXRuntime: true}
	irRun := search.RunOptions{Floor: flooring, MaxTensorBytes: v.opts.MaxTensorBytes, EmptyAsONNXRuntime: true}
	find := func(anyShape bool) (*search.Witness, bool) {
		return v.search.Search(l, pairs, search.Query{Bad: floorDiffers, AnyShape: anyShape, Reference: onnxRun, Test: irRun, Random: true})
	}
	if agree {
		// Pairs computed from the elements as laid out at the declared
		// shapes are not those of other shapes: no proof for every shape.
		if always, why := v.agree(v.an, v.anyShape, l, pairs, deep); always && !v.an.DeclaredLayout(l) {
			where, facts := "", []Fact{{"reason", why}}
			if v.shapeDerived(pairs) {
				// Shape arithmetic is taken not to wrap: every dim is at
				// most absint.MaxDim, and no constant that multiplies one
				// leaves int64 (those that would are followed with their
				// wrap). The proof says so.
				where = " whatever the input shapes"
				facts = append(facts, Fact{"assumes", assumedDims})
			}
			if runs := v.an.Narrowings(pairExprs(pairs)...); len(runs) > 0 {
				// The proof holds at the inputs the model runs on, which
				// its layers narrow: it says which.
				facts = append(facts, Fact{"runs_only_where", runs})
				where += " the model runs on (" + strings.Join(runs[:min(len(runs), 2)], "; ") + more(len(runs), 2) + ")"
				if !strings.HasPrefix(where, " whatever") {
					where = " at every input" + where
				}
			}
			facts[0].Value = why + where
			v.r.add(Note, FloorTruncAgree, l, evidence(facts...),
				"m_pythondiv=true floors where ONNX truncates, but here they agree: %s%s (A %s, B %s)", why, where, a, b)
			return
		}
		e := evidence(Fact{"reason", reason})
		msg := fmt.Sprintf("m_pythondiv=true floors where ONNX truncates; at the declared input shapes they agree (%s: A %s, B %s), but not for every input shape, which a reshape may give", reason, a, b)
		if w, ok := find(true); ok {
			e = v.witness(e, w, "ONNX", v.subject())
			msg += "; with other input shapes: " + e.Get("counter_example").(string)
		} else {
			msg += v.stoppedBy(pairs)
		}
		v.r.add(Warning, FloorTruncReshape, l, e, "%s", msg)
		return
	}
	if w, ok := find(false); ok {
		e := v.witness(evidence(), w, "ONNX", v.subject())
		msg := fmt.Sprintf("floors where ONNX truncates, and the model admits inputs where they differ: %s", e.Get("counter_example"))
		if strings.HasPrefix(strings.ToLower(v.opts.Producer), "pytorch") {
			// torch.onnx (1.13 and earlier) exports Python's a // b on
			// integers, which floors, as a plain Div, which truncates.
			e = e.With(Fact{"exported_by", v.opts.Producer})
			msg += "; the model comes from PyTorch, whose a // b floors: if this Div is a //, the export already disagrees with PyTorch and OpenVINO's floor is what PyTorch computes (fix the export); if it is torch.div(rounding_mode=\"trunc\"), ONNX's truncation is meant (irdiv fix)"
		}
		v.r.add(Error, FloorTrunc, l, e, "%s", msg)
		v.r.Findings[len(v.r.Findings)-1].CounterExample = v.counterExample(w)
		return
	}
	if !deep && v.deepProofs < maxDeepProofs && !v.search.Exhausted() && smallOperands(v.an.B, pairs) {
		// Nothing found: a proof that costs more may still be had.
		v.deepProofs++
		if agree, reason := v.agree(v.an, v.declared, l, pairs, true); agree {
			v.floorTruncation(l, pairs, true, true, reason, a, b, evidence)
			return
		}
	}
	e, masked := evidence(), ""
	if w := v.search.LastMasked(); w != nil {
		// Not a counter-example (no output differs), but what a user
		// deciding whether the Div matters wants to see.
		e = e.With(Fact{"masked_at", inputsEvidence(w.Inputs)}, Fact{"masked_example", fmt.Sprintf("%d / %d", w.A, w.B)})
		masked = fmt.Sprintf("; at some inputs the quotients differ (%d / %d) but every output of the model is the same both ways", w.A, w.B)
	} else if v.otherShapes() {
		// Nothing found at the declared shapes, where the model may not
		// even run (a Reshape of y: [1] to [16, -1]; seed 1360), nor
		// differ (Clip(len(y), 7) / -2 of y: [4]; seed 940): other shapes,
		// which a reshape may give, may show what those do not. Its
		// random inputs left out and 4 candidates confirmed, not 16: the
		// whole search cost the differential's validation a third more
		// time, this a tenth (57 and 49 of its 108 undecided hazards).
		if w, ok := v.search.Search(l, pairs, search.Query{Bad: floorDiffers, AnyShape: true, Reference: onnxRun, Test: irRun, MaxRuns: 4}); ok {
			e = v.witness(evidence(Fact{"reason", "neither proven nor refuted at the declared input shapes"}), w, "ONNX", v.subject())
			v.r.add(Warning, FloorTruncReshape, l, e,
				"m_pythondiv=true floors where ONNX truncates; irdiv can neither prove that they agree at the declared input shapes nor find inputs of those shapes where they differ (A %s, B %s), but with other input shapes, which a reshape may give, they differ: %s", a, b, e.Get("counter_example"))
			return
		}
	}
	v.r.add(Warning, FloorTruncPossible, l, e,
		"floors where ONNX truncates, and irdiv can neither prove that they agree nor find inputs where they differ (A %s, B %s)%s%s", a, b, masked, v.stoppedBy(pairs))
}

// otherShapes tells whether some input dim may take other values than
// the declared shapes allow: only then does a search of any input shape
// try what one of the declared shapes has not.
func (v *validator) otherShapes() bool {
	for _, in := range v.an.Inputs {
		for _, d := range in.Dims {
			if v.an.Declared.Range(d) != v.an.Any.Range(d) {
				return true
			}
		}
	}
	return false
}

// pytorch: OpenVINO's PyTorch frontend floors on purpose (Python's //),
// and its CPU plugin truncates anyway (#38248): where the operands can
// have opposite signs, that is a warning with a counter-example.
func (v *validator) pytorch(l *ir.Layer, pairs []absint.Pair, agree bool, evidence func(...Fact) Evidence) {
	if agree {
		return
	}
	floorRun := search.RunOptions{Floor: flooring, MaxTensorBytes: v.opts.MaxTensorBytes}
	cpuRun := search.RunOptions{Floor: truncating, MaxTensorBytes: v.opts.MaxTensorBytes}
	w, ok := v.search.Search(l, pairs, search.Query{Bad: floorDiffers, Reference: floorRun, Test: cpuRun})
	if !ok {
		return
	}
	e := v.witness(evidence(), w, "PyTorch (and "+v.subject()+")", "OpenVINO's CPU plugin")
	v.r.add(Warning, CPUPythonDivIgnore, l, e,
		"floors as PyTorch's // does, but OpenVINO's CPU plugin ignores m_pythondiv and truncates (#38248), and the model admits inputs where they differ: %s", e.Get("counter_example"))
	v.r.Findings[len(v.r.Findings)-1].CounterExample = v.counterExample(w)
}

// stoppedBy names the ops whose values the analysis did not follow.
func (v *validator) stoppedBy(pairs []absint.Pair) string {
	var names []string
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			for _, s := range v.an.B.Syms(e) {
				if o := v.an.OriginOf(s); o.Kind == absint.Derived && o.Layer != nil {
					name := o.Layer.String() + " (" + o.Layer.Type + ")"
					if o.Deep {
						name = fmt.Sprintf("%s (%s, past %d nested ops)", o.Layer, o.Layer.Type, v.an.Options().MaxExprDepth)
					}
					if !slices.Contains(names, name) {
						names = append(names, name)
					}
				}
			}
			names = append(names, v.an.B.Origins(e)...)
		}
	}
	names = slices.Compact(names)
	if len(names) == 0 {
		return ""
	}
	return "; the values come through " + strings.Join(names[:min(len(names), 3)], ", ") + more(len(names), 3) + ", which irdiv does not follow"
}

// witness returns a finding's evidence with a counter-example.
func (v *validator) witness(e Evidence, w *search.Witness, meant, got string) Evidence {
	q1, q2 := divInt(w.A, w.B, false), divInt(w.A, w.B, true)
	if meant != "ONNX" {
		q1, q2 = q2, q1
	}
	ex := fmt.Sprintf("%d / %d: %s gives %d, %s gives %d", w.A, w.B, meant, q1, got, q2)
	var wraps []Fact
	if n := w.Wrap; n != nil {
		// The operands are that large because shape arithmetic wrapped
		// at a large dim: said, as the inputs alone do not show it.
		where := "shape arithmetic wraps"
		if n.Layer != nil {
			where = fmt.Sprintf("layer %q (%s) wraps around int64", n.Layer.Name, n.Layer.Type)
		}
		ex += fmt.Sprintf("; at %s = %d, %s", n.Dim, n.Value, where)
		wraps = []Fact{{"wraps_at", map[string]any{"dim": n.Dim, "value": n.Value}}}
		if n.Layer != nil {
			wraps = append(wraps, Fact{"wrapping_layer", n.Layer.Name})
		}
	}
	facts := []Fact{
		{"counter_example", ex},
		{"a_value", w.A}, {"b_value", w.B},
		{"truncated", divInt(w.A, w.B, false)}, {"floored", divInt(w.A, w.B, true)},
		{"index", w.Index},
		{"inputs", inputsEvidence(w.Inputs)},
	}
	facts = append(facts, wraps...)
	switch {
	case len(w.Outputs) > 0:
		var names []string
		for _, r := range w.Outputs {
			names = append(names, r.Name)
		}
		facts = append(facts, Fact{"outputs_differ", names}, Fact{"confirmed", "outputs"})
	case w.Fails != nil:
		facts = append(facts, Fact{"confirmed", "fails"}, Fact{"fails", w.Fails.Error()})
	default:
		facts = append(facts, Fact{"confirmed", "divide"})
		if w.Through != nil {
			facts = append(facts, Fact{"through", w.Through.Name})
		}
	}
	return e.With(facts...)
}

// inputsEvidence shows a counter-example's inputs by name: type, shape and
// values.
func inputsEvidence(inputs map[*ir.Layer]*ir.Tensor) map[string]any {
	out := make(map[string]any, len(inputs))
	for l, t := range inputs {
		out[l.Name] = map[string]any{"type": t.Type.String(), "shape": t.Shape, "values": preview(t)}
	}
	return out
}

// counterExample keeps a witness's inputs by Parameter name.
func (v *validator) counterExample(w *search.Witness) *CounterExample {
	c := &CounterExample{Inputs: make(map[string]*ir.Tensor, len(w.Inputs))}
	for l, t := range w.Inputs {
		c.Inputs[l.Name] = t
	}
	return c
}

// preview shows a tensor's values shortly: all of a small one, or the
// first few and "...".
func preview(t *ir.Tensor) string {
	n := t.Len()
	shown := min(n, 8)
	parts := make([]string, shown)
	same := n > 0
	for i := range n {
		if i < shown {
			parts[i] = t.Format(i)
		}
		if same && t.Format(i) != t.Format(0) {
			same = false
		}
	}
	switch {
	case same && n > 1:
		return "all " + t.Format(0)
	case n > shown:
		return "[" + strings.Join(parts, ",") + ",...]"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// faults reports zero divisors and MIN / -1: an error where certain (a
// constant), a warning with a counter-example where the model's inputs
// can make them. It reports whether a fault is certain.
func (v *validator) faults(l *ir.Layer, t ir.ElementType, pairs []absint.Pair, evidence func(...Fact) Evidence) bool {
	for _, p := range pairs {
		if c, ok := p.B.IsConst(); ok && c == 0 {
			v.r.add(Error, ZeroDivisor, l, evidence(Fact{"index", max(p.Index, 0)}),
				"the divisor is 0 at flat output index %d: integer division by zero", max(p.Index, 0))
			return true
		}
	}
	v.reachableZero(l, ZeroDivisor, "/", pairs, evidence())
	if !t.IsSigned() {
		return false
	}
	minimum := absint.TypeRange(t).Lo.V
	possible := false
	for _, p := range pairs {
		ca, okA := p.A.IsConst()
		cb, okB := p.B.IsConst()
		if okA && okB && ca == minimum && cb == -1 {
			v.r.add(Error, Overflow, l, evidence(Fact{"index", max(p.Index, 0)}, Fact{"example", fmt.Sprintf("%d / -1", minimum)}),
				"the dividend is %d and the divisor -1 at flat output index %d: integer division overflow (%d / -1 has no %s result)", minimum, max(p.Index, 0), minimum, t)
			return true
		}
		possible = possible || v.declared.Range(p.A).Contains(minimum) && v.declared.Range(p.B).Contains(-1)
	}
	if !possible {
		return false
	}
	overflow := func(x, y int64) bool { return x == minimum && y == -1 }
	w, ok := v.search.Search(l, pairs, search.Query{Bad: overflow, AtDivide: true, Reference: search.RunOptions{MaxTensorBytes: v.opts.MaxTensorBytes}})
	if !ok {
		return false
	}
	e := evidence(Fact{"example", fmt.Sprintf("%d / -1", minimum)}, Fact{"index", w.Index})
	e = e.With(Fact{"inputs", inputsEvidence(w.Inputs)})
	v.r.add(Warning, Overflow, l, e,
		"the model admits inputs where the dividend is %d and the divisor -1: integer division overflow (%d / -1 has no %s result)", minimum, minimum, t)
	v.r.Findings[len(v.r.Findings)-1].CounterExample = v.counterExample(w)
	return false
}

// remainder examines a Mod or FloorMod: of integers, a divisor that is a
// constant 0 divides by zero as a Divide's does, and the model cannot run
// past it; one that inputs can make 0, and MIN % -1, are searched. (Before this check a Mod by 0 had no finding, and the range
// of its remainder, empty, showed as "in [1, -1]" in the findings of the
// Divides after it.)
func (v *validator) remainder(l *ir.Layer, bc shapeinfer.Broadcast) {
	if !v.infos[l][0].Type.IsInteger() {
		return
	}
	pairs := v.an.Pairs(l, bc)
	operands := Evidence{{"a", v.operandText(l, 0, pairs)}, {"b", v.operandText(l, 1, pairs)}}
	for _, p := range pairs {
		if c, ok := p.B.IsConst(); ok && c == 0 {
			v.r.add(Error, ModZeroDivisor, l, Evidence{{"index", max(p.Index, 0)}}.With(operands...),
				"the divisor is 0 at flat output index %d: integer division by zero (%s is the remainder of a division)", max(p.Index, 0), l.Type)
			return
		}
	}
	v.reachableZero(l, ModZeroDivisor, "%", pairs, operands)
	v.remainderOverflow(l, pairs, operands)
	v.cpuRemainder(l, pairs, operands)
}

// cpuRemainder notes an i32 or i64 FloorMod or Mod that OpenVINO's CPU
// plugin, whose emitters for them are float32 only, can compute wrongly:
// operands that may pass 2^24. As for a Divide (cpu), exact_form says
// whether `irdiv fix` writes a - F*B (or a - T*B) with the exact form's
// quotient (ops.AddExactRemainder) in its place; a fixed model has a
// Divide there, which cpu examines.
func (v *validator) cpuRemainder(l *ir.Layer, pairs []absint.Pair, e Evidence) {
	t := v.infos[l][0].Type
	if (t != ir.I32 && t != ir.I64) || len(pairs) == 0 {
		return
	}
	_, floor := v.an.Ops[l].(*ops.FloorMod)
	ra, rb := operandRanges(v.declared, pairs)
	if within(ra, 1<<24) && within(rb, 1<<24) {
		return
	}
	narrowed := t == ir.I64 && !(i32Range(ra) && i32Range(rb))
	formable := within(rb, ops.ExactDivideMaxDivisor)
	// The form divides A by B: MIN / -1 of i32 overflows there (the
	// reference's Divide fails) where the remainder, 0, does not.
	overflows := t == ir.I32 && ra.Contains(math.MinInt32) && rb.Contains(-1)
	code, msg := CPUI32Float32, fmt.Sprintf("OpenVINO's CPU plugin computes i32 %s in float32, exact only below 2^24 (#35830)", l.Type)
	if t == ir.I64 {
		code, msg = CPUI64Narrowed, fmt.Sprintf("OpenVINO's CPU plugin narrows i64 to i32 and computes %s in float32, exact only below 2^24 (#37766, #35830)", l.Type)
	}
	e = e.With(Fact{"exact_form", formable && !narrowed && !overflows})
	ex := ""
	if x, y, ok := cpuRemainderExample(t, ra, rb, floor); ok {
		ex = fmt.Sprintf("%d %% %d: exact %d, CPU plugin %d", x, y, remInt(x, y, floor), ops.CPUPluginRemainder(t, x, y, floor))
	}
	e, msg = withCPUExample(e, msg, ex, ra, rb)
	switch {
	case narrowed:
		msg += narrowedNoForm
	case !formable:
		msg += divisorNoForm("A - q*B with a Newton step's quotient, whose second Divide has operands up to 3|B| + 1024", rb)
	case overflows:
		msg += fmt.Sprintf("; no exact form: irdiv's divides A by B, and A can be %d where B can be -1, a quotient beyond i32", int64(math.MinInt32))
	default:
		msg += v.fixWrites("a form the CPU plugin computes exactly (A - q*B with a Newton step's quotient, |B| <= 2^22 here)")
	}
	v.r.add(Note, code, l, e, "%s", msg)
}

// operandRanges are the ranges of a binary op's operands over its pairs.
func operandRanges(p *sym.Prover, pairs []absint.Pair) (ra, rb sym.Range) {
	for i, x := range pairs {
		a, b := p.Range(x.A), p.Range(x.B)
		if i == 0 {
			ra, rb = a, b
		} else {
			ra, rb = union(ra, a), union(rb, b)
		}
	}
	return ra, rb
}

// within reports whether r lies in [-limit, limit].
func within(r sym.Range, limit int64) bool { return r.Hi.AtMost(limit) && r.Lo.AtLeast(-limit) }

// i32Range reports whether r holds i32 values only.
func i32Range(r sym.Range) bool { return r.Hi.AtMost(math.MaxInt32) && r.Lo.AtLeast(math.MinInt32) }

// remInt is the exact remainder of floor or truncated division.
func remInt(a, b int64, floor bool) int64 { return a - divInt(a, b, floor)*b }

// cpuRemainderExample finds operands in the ranges where the CPU
// plugin's FloorMod or Mod differs from the exact remainder.
func cpuRemainderExample(t ir.ElementType, a, b sym.Range, floor bool) (int64, int64, bool) {
	as := []int64{0x40000001, 1<<24 + 1, -0x40000001, -1<<24 - 1, a.Hi.V, a.Lo.V}
	bs := []int64{5, 11, 3, 7, -3, 2, b.Lo.V, b.Hi.V}
	for _, x := range as {
		for _, y := range bs {
			if !a.Contains(x) || !b.Contains(y) || y == 0 || x == math.MinInt64 && y == -1 || t == ir.I32 && x == math.MinInt32 && y == -1 {
				continue
			}
			if t == ir.I64 && (x != int64(int32(x)) || y != int64(int32(y))) {
				continue // beyond i32, the note says so
			}
			if ops.CPUPluginRemainder(t, x, y, floor) != remInt(x, y, floor) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// remainderOverflow reports MIN % -1 of an i32 or i64 Mod or FloorMod:
// an error where both operands are constants, a warning with a
// counter-example where the model's inputs can make them so. The
// remainder, 0, exists, but runtimes that compute it with C's % (x86's
// idiv, which computes the quotient too) trap: ONNX Runtime 1.30 dies of
// SIGFPE on Mod with fmod 0. i8 and i16 are promoted to int before %, and
// do not trap. irdiv's evaluation computes 0 (Go defines MIN % -1), so
// the search's runs of the model stay in this process safely.
func (v *validator) remainderOverflow(l *ir.Layer, pairs []absint.Pair, e Evidence) {
	t := v.infos[l][0].Type
	if t != ir.I32 && t != ir.I64 {
		return
	}
	minimum := absint.TypeRange(t).Lo.V
	example := fmt.Sprintf("%d %% -1", minimum)
	_, floor := v.an.Ops[l].(*ops.FloorMod)
	what := fmt.Sprintf("%s, whose quotient overflows %s (%s: %s)", example, t, l.Type, remainderOverflowText(floor))
	possible := false
	for _, p := range pairs {
		ca, okA := p.A.IsConst()
		cb, okB := p.B.IsConst()
		if okA && okB && ca == minimum && cb == -1 {
			v.r.add(Error, ModOverflow, l, e.With(Fact{"index", max(p.Index, 0)}, Fact{"example", example}),
				"the dividend is %d and the divisor -1 at flat output index %d: %s", minimum, max(p.Index, 0), what)
			return
		}
		possible = possible || v.declared.Range(p.A).Contains(minimum) && v.declared.Range(p.B).Contains(-1)
	}
	if !possible {
		return
	}
	overflow := func(x, y int64) bool { return x == minimum && y == -1 }
	ref := search.RunOptions{MaxTensorBytes: v.opts.MaxTensorBytes, ONNX: v.origin == fromONNX}
	w, ok := v.search.Search(l, pairs, search.Query{Bad: overflow, AtDivide: true, Reference: ref})
	if !ok {
		return
	}
	e = e.With(Fact{"example", example}, Fact{"index", w.Index}, Fact{"inputs", inputsEvidence(w.Inputs)})
	v.r.add(Warning, ModOverflow, l, e,
		"the model admits inputs where the dividend is %d and the divisor -1 at flat output index %d: %s", minimum, w.Index, what)
	v.r.Findings[len(v.r.Findings)-1].CounterExample = v.counterExample(w)
}

// remainderOverflowText says what runtimes compute for MIN % -1 of an
// i32 or i64 FloorMod (ONNX's Mod with fmod 0) or Mod (fmod 1).
func remainderOverflowText(floor bool) string {
	if floor {
		return "0 in irdiv and in OpenVINO's reference, which computes it in double; ONNX Runtime 1.30's Mod (fmod 0) dies of SIGFPE there, the whole process and not the run"
	}
	return "0 in irdiv and in ONNX Runtime 1.30's Mod (fmod 1); OpenVINO's reference computes C++'s x % y, undefined there (x86's idiv traps: SIGFPE)"
}

// reachableZero looks for inputs of the model under which l, an integer
// Divide, Mod or FloorMod, divides by zero: the model runs up to l, and
// an element l computes (not one of an empty output, which divides
// nothing) has a divisor of 0. Found, it is a warning of code with the
// counter-example; where the divisor's range holds 0 but no input is
// found, nothing is said. A counter-example may make an input empty (a
// dim of it read with its elements): the other operand's elements are
// divided by zero for real, ONNX Runtime fails there ("Integer division
// by zero"), OpenVINO's reference throws, its CPU plugin gives what the
// hardware gives; the message names the empty inputs, for a user who
// never feeds them to judge.
func (v *validator) reachableZero(l *ir.Layer, code Code, op string, pairs []absint.Pair, e Evidence) {
	// A divisor computed from dims alone is 0 only where an input is
	// empty; a large model has many (swin_t's every window Divide), and
	// searching them all made validate of torchvision's exports four
	// times slower: only divisors that read elements are searched.
	if !slices.ContainsFunc(pairs, func(p absint.Pair) bool { return v.declared.Range(p.B).Contains(0) && v.readsElements(p.B) }) {
		return
	}
	zero := func(_, y int64) bool { return y == 0 }
	ref := search.RunOptions{MaxTensorBytes: v.opts.MaxTensorBytes, ONNX: v.origin == fromONNX}
	w, ok := v.search.Search(l, pairs, search.Query{Bad: zero, AtDivide: true, Reference: ref})
	if !ok {
		return
	}
	example := fmt.Sprintf("%d %s 0", w.A, op)
	e = e.With(Fact{"example", example}, Fact{"index", w.Index}, Fact{"inputs", inputsEvidence(w.Inputs)})
	var empty []string
	for in, t := range w.Inputs {
		if t.Len() == 0 {
			empty = append(empty, in.Name)
		}
	}
	slices.Sort(empty)
	what := ""
	if op == "%" {
		what = fmt.Sprintf(" (%s is the remainder of a division)", l.Type)
	}
	where := ""
	if len(empty) > 0 {
		e = e.With(Fact{"empty_inputs", empty})
		where = fmt.Sprintf(", with %s empty (a dim of 0 read as the divisor of elements that exist)", strings.Join(empty, ", "))
	}
	v.r.add(Warning, code, l, e,
		"the model admits inputs where the divisor is 0 at flat output index %d%s: integer division by zero (%s)%s", w.Index, where, example, what)
	v.r.Findings[len(v.r.Findings)-1].CounterExample = v.counterExample(w)
}

// cpu notes what OpenVINO's CPU plugin computes differently: it ignores
// m_pythondiv (truncates), divides i32 in float32 and narrows i64 to i32.
func (v *validator) cpu(l *ir.Layer, t ir.ElementType, d *ops.Divide, pairs []absint.Pair, agree bool, evidence func(...Fact) Evidence) {
	if t.IsSigned() && d.PythonDiv && !agree && v.origin != fromPyTorch {
		v.r.add(Note, CPUPythonDivIgnore, l, evidence(Fact{"example", "-3 / 2: " + v.subject() + " gives -2, the CPU plugin gives -1"}),
			"OpenVINO's CPU plugin ignores m_pythondiv and truncates, so its results differ from the floor of %s where the operands have opposite signs (-3 / 2 gives -1 there, -2 here) (#38248)", v.subject())
	}
	if t != ir.I32 && t != ir.I64 {
		return
	}
	ra, rb := operandRanges(v.declared, pairs)
	// The CPU plugin's float32 division is exact below 2^24 (an i64 is
	// divided as an i32 too); beyond the i32 range an i64 is lost.
	if within(ra, 1<<24) && within(rb, 1<<24) {
		return
	}
	narrowed := t == ir.I64 && !(i32Range(ra) && i32Range(rb))
	formable := within(rb, ops.ExactDivideMaxDivisor)
	if v.exactForms == nil {
		v.exactForms = exactDivides(v.m)
	}
	form, inForm := v.exactForms[l]
	q := form.Divide
	if inForm && q != l {
		// One of the form's own Divides: its operands are small wherever
		// the Divide the form corrects has a divisor the form takes.
		formable = v.formable(q)
		if formable {
			return
		}
	} else if inForm && formable && !narrowed {
		return // corrected
	}
	x, y, ok := cpuExample(t, ra, rb)
	msg := "OpenVINO's CPU plugin divides i32 in float32, exact only below 2^24 (#35830)"
	code := CPUI32Float32
	if t == ir.I64 {
		msg = "OpenVINO's CPU plugin narrows i64 to i32 and divides in float32, exact only below 2^24 (#37766, #35830)"
		code = CPUI64Narrowed
	}
	e := evidence(Fact{"exact_form", formable && !narrowed})
	ex := ""
	if ok {
		ex = fmt.Sprintf("%d / %d: exact %d, CPU plugin %d", x, y, divInt(x, y, false), cpuDivide(t, x, y))
	}
	e, msg = withCPUExample(e, msg, ex, ra, rb)
	switch {
	case narrowed:
		msg += narrowedNoForm
	case !formable:
		msg += divisorNoForm("a Newton step whose second Divide has operands up to 3|B| + 1024", rb)
	default:
		msg += v.fixWrites("a form the CPU plugin computes exactly (|B| <= 2^22 here)")
	}
	v.r.add(Note, code, l, e, "%s", msg)
}

// withCPUExample adds to a CPU plugin note the operands that show the
// plugin wrong (ex, where one was found), else the ranges they reach.
func withCPUExample(e Evidence, msg, ex string, ra, rb sym.Range) (Evidence, string) {
	if ex != "" {
		return e.With(Fact{"example", ex}), msg + "; the operands here can be that large: " + ex
	}
	return e, msg + fmt.Sprintf("; the operands here can be that large (A %s, B %s)", rangeText(ra), rangeText(rb))
}

// narrowedNoForm ends a CPU plugin note on i64 operands beyond i32.
const narrowedNoForm = "; no form of ops helps: the plugin holds every i64 as i32 (its low 32 bits) before any op runs, and the operands here can be beyond the i32 range"

// divisorNoForm ends a CPU plugin note whose divisor may pass what the
// exact form (described by form) takes.
func divisorNoForm(form string, rb sym.Range) string {
	return fmt.Sprintf("; no exact form: irdiv's (%s) needs |B| <= 2^22 to keep every float32 division below 2^24, and B can be %s here", form, rangeText(rb))
}

// exactDivides finds the exact forms (ops.ExactDivides) of m and of the
// bodies of its If, Loop and TensorIterator layers, at any depth, where
// irdiv fix writes them too: each form lies in the model or body of the
// Divide it corrects.
func exactDivides(m *ir.Model) map[*ir.Layer]ops.ExactForm {
	found := map[*ir.Layer]ops.ExactForm{}
	stack := []*ir.Model{m}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		maps.Copy(found, ops.ExactDivides(b))
		for _, l := range b.Layers {
			for _, x := range l.Extra {
				if x.Body != nil {
					stack = append(stack, x.Body)
				}
			}
		}
	}
	return found
}

// formable reports whether the Divide q, which an exact form corrects,
// has a divisor the form takes: |B| <= ops.ExactDivideMaxDivisor, and
// for i64 operands within the i32 range, which the CPU plugin holds.
func (v *validator) formable(q *ir.Layer) bool {
	d, ok := v.an.Ops[q].(*ops.Divide) // the body's layers too
	if !ok {
		return false
	}
	pairs := v.an.Pairs(q, d.Broadcast)
	if len(pairs) == 0 {
		return false
	}
	for _, p := range pairs {
		ra, rb := v.declared.Range(p.A), v.declared.Range(p.B)
		if !rb.Hi.AtMost(ops.ExactDivideMaxDivisor) || !rb.Lo.AtLeast(-ops.ExactDivideMaxDivisor) ||
			!ra.Hi.AtMost(math.MaxInt32) || !ra.Lo.AtLeast(math.MinInt32) {
			return false
		}
	}
	return true
}

// divInt is exact integer division, floor or truncation.
func divInt(a, b int64, floor bool) int64 {
	q := a / b
	if floor && a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// cpuDivide is the CPU plugin's integer division, as its x64 JIT computes
// it: i64 narrowed to i32, both converted to float32, divided, truncated.
func cpuDivide(t ir.ElementType, a, b int64) int64 { return ops.CPUPluginDivide(t, a, b) }

// cpuExample finds operands in the ranges where the CPU plugin's result
// differs from the exact truncated quotient.
func cpuExample(t ir.ElementType, a, b sym.Range) (int64, int64, bool) {
	// The examples of divide-spec.md C.1 first, then the ends of the ranges.
	as := []int64{0x40000001, 1<<24 + 1, -0x40000001, a.Hi.V, a.Lo.V}
	if t == ir.I64 {
		as = []int64{1 << 31, 1<<31 - 1, 1 << 62, 0x40000001, 1<<24 + 1, -0x40000001, a.Hi.V, a.Lo.V}
	}
	bs := []int64{5, 11, 3, 7, -3, 2, b.Lo.V, b.Hi.V}
	for _, x := range as {
		for _, y := range bs {
			if !a.Contains(x) || !b.Contains(y) || y == 0 || x == math.MinInt64 && y == -1 {
				continue
			}
			if cpuDivide(t, x, y) != divInt(x, y, false) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// Bounds of an expression's text: a Divide's sub-graph is printed to
// maxExprDepth steps, at most maxExprArgs inputs of each step and
// maxExprNodes steps in all, the rest as "…" (counted where a step has
// more inputs). Five levels of 100-input Concats are 10^10 steps.
const (
	maxExprDepth = 6
	maxExprArgs  = 8
	maxExprNodes = 64
)

// expr prints the sub-graph that computes o as one line, with the value
// of each step where it is a known constant: Divide(Squeeze(ShapeOf("x")
// = [1,3]) = 3, Const = 2) = 1.
func (v *validator) expr(o ir.Output, depth int) string {
	var s strings.Builder
	nodes := maxExprNodes
	v.writeExpr(&s, o, depth, &nodes)
	return s.String()
}

func (v *validator) writeExpr(s *strings.Builder, o ir.Output, depth int, nodes *int) {
	l := o.Layer
	if l == nil {
		s.WriteString("?")
		return
	}
	if *nodes <= 0 {
		s.WriteString("…")
		return
	}
	*nodes--
	shown := ""
	if val := v.an.Values[o]; val != nil && val.Int {
		if text := v.constText(val); text != "" {
			shown = " " + text
		}
	}
	switch typ := l.Type; {
	case strings.EqualFold(typ, "Const"), strings.EqualFold(typ, "Constant"):
		s.WriteString("Const")
	case strings.EqualFold(typ, "Parameter"):
		s.WriteString("Parameter(" + strconv.Quote(l.Name) + ")")
	case strings.EqualFold(typ, "ShapeOf"):
		name := "?"
		if src := v.sourceOf(l, 0); src.Layer != nil {
			name = src.Layer.Name
		}
		s.WriteString("ShapeOf(" + strconv.Quote(name) + ")")
	default:
		s.WriteString(l.Type)
		if depth >= maxExprDepth {
			s.WriteString("(...)")
			break
		}
		s.WriteByte('(')
		for i := range l.Inputs {
			if i > 0 {
				s.WriteString(", ")
			}
			if i == maxExprArgs || *nodes <= 0 {
				fmt.Fprintf(s, "… %d more", len(l.Inputs)-i)
				break
			}
			v.writeExpr(s, v.sourceOf(l, i), depth+1, nodes)
		}
		s.WriteByte(')')
	}
	s.WriteString(shown)
}

// constText shows a value whose elements are constants at the declared
// shapes: "= 3", "= [1,3,270,480]"; "" otherwise.
func (v *validator) constText(val *absint.Value) string {
	if text, ok := v.constTexts[val]; ok {
		return text
	}
	text := v.computeConstText(val)
	v.constTexts[val] = text
	return text
}

func (v *validator) computeConstText(val *absint.Value) string {
	es := val.Elems
	if es == nil {
		if n, ok := val.NumElems(); !ok || n != 1 {
			return ""
		}
		es = []sym.Expr{v.an.All(val)}
	}
	if len(es) > 8 {
		return ""
	}
	parts := make([]string, len(es))
	for i, e := range es {
		r := v.declared.Range(e)
		if r.Lo != r.Hi || !r.Lo.IsFinite() {
			return ""
		}
		parts[i] = strconv.FormatInt(r.Lo.V, 10)
	}
	if val.Rank == 0 || val.Elems == nil {
		return "= " + parts[0]
	}
	return "= [" + strings.Join(parts, ",") + "]"
}

// fixWrites ends a CPU plugin note whose exact form irdiv fix writes:
// into the IR itself, or for an ONNX model into the IR that irdiv convert
// makes of it (irdiv fix of a .onnx writes ONNX ops, which OpenVINO's
// import then gives the plugin as they are).
func (v *validator) fixWrites(form string) string {
	if v.opts.Imported {
		return "; `irdiv fix` of the IR `irdiv convert` makes of this model writes " + form
	}
	return "; `irdiv fix` writes " + form
}

// subject names the model whose Divides floor, as the user knows it: the
// IR, or for an ONNX model, what OpenVINO's import of it computes.
func (v *validator) subject() string {
	if v.opts.Imported {
		return "OpenVINO's import"
	}
	return "this IR"
}

// remainderForm reports whether l divides a - a % b by b, with % the
// remainder of truncation (OpenVINO's Mod, ONNX's Mod with fmod=1), a and
// b the same outputs throughout and numpy broadcasting everywhere: the
// form irdiv fix writes. Such a division is exact on every element,
// whatever the shapes: numpy broadcasting pairs the same elements of a
// and b in the Mod, the Subtract and the Divide (each output has the
// broadcast shape of a and b, and a and b map into it the same way each
// time), and a - a % b never overflows (a % b has the sign of a and is no
// larger). The values analysis, which copies the elements of operands
// that may broadcast, cannot see that.
func (v *validator) remainderForm(l *ir.Layer) bool {
	numpy := func(layer *ir.Layer) bool {
		bc, ok := layer.DataAttr("auto_broadcast")
		return !ok || strings.EqualFold(bc, "numpy")
	}
	src := v.sources[l]
	if len(src) != 2 || !numpy(l) {
		return false
	}
	sub, b := src[0], src[1]
	if sub.Layer == nil || !strings.EqualFold(sub.Layer.Type, "Subtract") || !numpy(sub.Layer) {
		return false
	}
	subSrc := v.sources[sub.Layer]
	if len(subSrc) != 2 || subSrc[1].Layer == nil {
		return false
	}
	a, mod := subSrc[0], subSrc[1]
	if !strings.EqualFold(mod.Layer.Type, "Mod") || !numpy(mod.Layer) {
		return false
	}
	modSrc := v.sources[mod.Layer]
	return len(modSrc) == 2 && modSrc[0] == a && modSrc[1] == b
}

// readsElements reports whether e depends on the elements of an input,
// or of a body's Parameter (a Loop's current iteration or carried value,
// a part a TensorIterator slices), not on dims alone. (Values irdiv does
// not follow are left out too: large models hold many, each a search.)
func (v *validator) readsElements(e sym.Expr) bool {
	return slices.ContainsFunc(v.an.B.Syms(e), func(s sym.Sym) bool {
		o := v.an.OriginOf(s)
		if o.Kind == absint.InputElem {
			return true
		}
		_, inBody := v.an.Holders[o.Layer]
		return o.Kind == absint.Derived && o.Layer != nil && o.Layer.Type == "Parameter" && inBody
	})
}
