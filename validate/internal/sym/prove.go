package sym

import (
	"math"
	"math/big"
	"slices"
)

// Env gives every symbol its range: the declared input shapes, or any.
type Env interface {
	Range(s Sym) Range
}

// Prover bounds expressions of a Builder under an Env. It remembers the
// ranges of atoms it has computed, so make one per Env and use it while
// the Builder makes no new atom that the Env would range differently.
type Prover struct {
	b     *Builder
	env   Env
	memo  byAtom[memoSlot] // the ranges of atoms
	stamp uint32           // the memo's slots set by this env (memoSlot)
	// stack is argRanges', kept for the next call (nil while one uses
	// it: computeRange may ask for another atom's range inside it).
	stack []rangeFrame
	// fits records the wraps whose argument provably fits their range.
	fits map[*Atom]bool
	// lows are the lower bounds of linear forms found so far.
	lows  map[shortKey]Bound
	steps int
	// facts bound some expressions (by their terms, without their
	// constant) beyond what their form shows (AddFact).
	facts map[shortKey]Range
}

// NewProver returns a prover of b's expressions under env.
func NewProver(b *Builder, env Env) *Prover {
	return &Prover{b: b, env: env, fits: make(map[*Atom]bool), lows: make(map[shortKey]Bound), stamp: 1}
}

// Reset makes p a prover under env, as NewProver does, keeping the memory
// it made for the ranges of atoms: a prover per piece of a split range
// (thousands for a model) would make that memory each time.
func (p *Prover) Reset(env Env) {
	p.env, p.stamp = env, p.stamp+1
	clear(p.fits)
	clear(p.lows)
	if p.stamp == 0 { // wrapped: a slot may hold any stamp
		p.memo = byAtom[memoSlot]{}
		p.stamp = 1
	}
}

// AddFact makes p bound e within r too, wherever e appears: r must hold
// at every input p's answers are about (a layer's requirement, at the
// inputs the model runs on). A minimum at least r's lower end has each
// argument so; a maximum at most its upper end likewise.
func (p *Prover) AddFact(e Expr, r Range) {
	if p.facts == nil {
		p.facts = make(map[shortKey]Range)
	}
	p.addFact(e, r, 2)
	p.Reset(p.env) // the atoms' ranges remembered knew nothing of it
}

func (p *Prover) addFact(e Expr, r Range, depth int) {
	if len(e.terms) == 0 || r.Hi.Less(r.Lo) || e.c == math.MinInt64 {
		return // (-c of MinInt64 does not fit)
	}
	terms := Expr{terms: e.terms}
	shifted := Range{add(r.Lo, Finite(-e.c), -1), add(r.Hi, Finite(-e.c), 1)}
	p.narrowFact(terms, shifted)
	p.narrowFact(p.b.Neg(terms), Range{neg(shifted.Hi), neg(shifted.Lo)})
	if depth == 0 || len(e.terms) != 1 || e.terms[0].k != 1 {
		return
	}
	a := e.terms[0].a
	switch {
	case a.kind == kMin && r.Lo.IsFinite():
		for _, arg := range a.args {
			p.addFact(arg, Range{add(r.Lo, Finite(-e.c), -1), PosInf}, depth-1)
		}
	case a.kind == kMax && r.Hi.IsFinite():
		for _, arg := range a.args {
			p.addFact(arg, Range{NegInf, add(r.Hi, Finite(-e.c), 1)}, depth-1)
		}
	}
}

func (p *Prover) narrowFact(e Expr, r Range) {
	k := e.shortKey()
	if old, ok := p.facts[k]; ok {
		r = Range{maxBound(old.Lo, r.Lo), minBound(old.Hi, r.Hi)}
	}
	p.facts[k] = r
}

// withFacts narrows what p found of e (its terms, c its constant) by the
// facts about them.
func (p *Prover) withFacts(e Expr, r Range) Range {
	f, ok := p.facts[Expr{terms: e.terms}.shortKey()]
	if !ok {
		return r
	}
	lo, hi := add(f.Lo, Finite(e.c), -1), add(f.Hi, Finite(e.c), 1)
	return Range{maxBound(r.Lo, lo), minBound(r.Hi, hi)}
}

// stepBudget bounds the linear substitutions of one query: each compound
// atom may be replaced by its range or by a linear bound in terms of its
// arguments, and trying both at every level is exponential.
const stepBudget = 2048

// Range returns bounds of e.
func (p *Prover) Range(e Expr) Range {
	p.steps = stepBudget
	if r, ok := p.single(e); ok {
		return r
	}
	return Range{p.Lower(e), neg(p.Lower(p.b.Neg(e)))}
}

// single bounds c + k*a by a's own range, which no linear bound improves
// on for one term (but for a minimum or maximum, bound by its arguments
// together), without negating e for its upper end.
func (p *Prover) single(e Expr) (Range, bool) {
	if len(e.terms) == 0 {
		// A constant is its own range; bounding it through its negation
		// would lose MinInt64, whose negation wraps (the upper end of
		// max(MinInt64, y), a Clip without a minimum, came out +inf).
		return R(e.c, e.c), true
	}
	if len(e.terms) != 1 || e.terms[0].a.kind == kMin || e.terms[0].a.kind == kMax {
		return Range{}, false
	}
	t := e.terms[0]
	r := p.atomRange(t.a)
	lo, hi := mulK(r.Lo, t.k), mulK(r.Hi, t.k)
	if t.k < 0 {
		lo, hi = hi, lo
	}
	return Range{add(Finite(e.c), lo, -1), add(Finite(e.c), hi, 1)}, true
}

// Lower returns a lower bound of e.
func (p *Prover) Lower(e Expr) Bound {
	p.steps = stepBudget
	return p.lower(e)
}

// Upper returns an upper bound of e.
func (p *Prover) Upper(e Expr) Bound {
	p.steps = stepBudget
	if r, ok := p.single(e); ok {
		return r.Hi
	}
	return neg(p.Lower(p.b.Neg(e)))
}

// lower bounds a linear form: terms over symbols by their ranges; the
// compound atom made last is replaced by its own range, or by a linear
// bound in terms of its arguments (floor(f/k) >= (f-k+1)/k), whichever
// gives more. As an atom's arguments are older than the atom, replacing
// the newest first ends.
func (p *Prover) lower(e Expr) Bound {
	lb := p.lowerByForm(e)
	if p.facts != nil && len(e.terms) > 0 {
		lb = p.withFacts(e, Range{lb, PosInf}).Lo
	}
	return lb
}

// lowerByForm is lower without the facts about e itself.
func (p *Prover) lowerByForm(e Expr) Bound {
	last := -1
	for i, t := range e.terms {
		if t.a.kind != kSym {
			last = i
		}
	}
	if last < 0 {
		lb := Finite(e.c)
		for _, t := range e.terms {
			r := p.env.Range(t.a.symbol())
			if t.k > 0 {
				lb = add(lb, mulK(r.Lo, t.k), -1)
			} else {
				lb = add(lb, mulK(r.Hi, t.k), -1)
			}
		}
		return lb
	}
	t := e.terms[last]
	if len(e.terms) == 1 && t.a.kind != kMin && t.a.kind != kMax {
		// c + k*a: no linear bound of a relates to a constant, so a's own
		// range is the best, and needs no entry in lows.
		r := p.atomRange(t.a)
		end := r.Lo
		if t.k < 0 {
			end = r.Hi
		}
		return add(Finite(e.c), mulK(end, t.k), -1)
	}
	key := e.shortKey()
	if lb, ok := p.lows[key]; ok {
		return lb
	}
	rest := Expr{c: e.c}
	if len(e.terms) > 1 {
		rest.terms = append(append(make([]term, 0, len(e.terms)-1), e.terms[:last]...), e.terms[last+1:]...)
	}
	r := p.atomRange(t.a)
	end := r.Lo
	if t.k < 0 {
		end = r.Hi
	}
	best := add(p.lower(rest), mulK(end, t.k), -1)
	if p.steps <= 0 || !p.related(t.a, rest) {
		// A linear bound helps only where the atom's arguments share a
		// symbol with the rest (H - 2*floor(H/2)) or with each other
		// (max(x, -x)); otherwise its range is as good, and deep chains of
		// atoms stay linear in cost.
		p.lows[key] = best
		return best
	}
	for _, lin := range p.linear(t.a, t.k > 0) {
		p.steps--
		// e = rest + k*a >= rest + k*num/den, so den*e >= den*rest + k*num.
		g, ok := p.b.combineExact(lin.den, rest, t.k, lin.num)
		if !ok {
			continue
		}
		lb := p.lower(g)
		if lb.IsFinite() {
			lb = Finite(ceilDiv(lb.V, lin.den))
		}
		best = maxBound(best, lb)
	}
	p.lows[key] = best
	return best
}

// linearBound says a >= num/den (or <= for an upper bound).
type linearBound struct {
	num Expr
	den int64
}

// linear returns linear bounds of an atom in terms of its arguments: lower
// bounds when lower is set, upper bounds otherwise.
func (p *Prover) linear(a *Atom, lower bool) []linearBound {
	switch a.kind {
	case kFloorDiv:
		// f - k + 1 <= k*floor(f/k) <= f.
		if lower {
			return []linearBound{{p.b.Add(a.args[0], Const(1-a.divisor())), a.divisor()}}
		}
		return []linearBound{{a.args[0], a.divisor()}}
	case kTruncDiv:
		f := a.args[0]
		switch {
		case p.lower(f).AtLeast(0):
			if lower {
				return []linearBound{{p.b.Add(f, Const(1-a.divisor())), a.divisor()}}
			}
			return []linearBound{{f, a.divisor()}}
		case p.upper(f).AtMost(0):
			// trunc = ceil for f <= 0: f <= k*trunc(f/k) <= f + k - 1.
			if lower {
				return []linearBound{{f, a.divisor()}}
			}
			return []linearBound{{p.b.Add(f, Const(a.divisor()-1)), a.divisor()}}
		}
		if lower {
			return []linearBound{{p.b.Add(f, Const(1-a.divisor())), a.divisor()}}
		}
		return []linearBound{{p.b.Add(f, Const(a.divisor()-1)), a.divisor()}}
	case kMax, kMin:
		// max(f, g) is at least f, g and their mean (max(x, -x) >= 0);
		// min(f, g) at most.
		if lower != (a.kind == kMax) {
			return nil
		}
		out := make([]linearBound, len(a.args), len(a.args)+1)
		sum := Const(0)
		for i, arg := range a.args {
			out[i] = linearBound{arg, 1}
			sum = p.b.Add(sum, arg)
		}
		return append(out, linearBound{sum, int64(len(a.args))})
	case kWrap:
		if p.atomRange(a).Within(a.r()) && p.fits[a] {
			// The argument fits: the wrap is the argument itself.
			return []linearBound{{a.args[0], 1}}
		}
	}
	return nil
}

// wrappedSum bounds Wrap(e, r) where e's bounds leave int64, which
// saturate (a dim of 1 plus 2^63 - 1, 3 plus 2^63 - 3, past an Add whose
// type wraps): e's ends computed exactly from its atoms' ranges, in big
// integers, wrap to one range of r where both lie in the same turn of it.
func (p *Prover) wrappedSum(e Expr, r Range) (Range, bool) {
	if !r.Lo.IsFinite() || !r.Hi.IsFinite() {
		return Range{}, false
	}
	lo, hi := big.NewInt(e.c), big.NewInt(e.c)
	for _, t := range e.terms {
		ar := p.atomRange(t.a)
		if !ar.Lo.IsFinite() || !ar.Hi.IsFinite() {
			return Range{}, false
		}
		k := big.NewInt(t.k)
		x, y := new(big.Int).Mul(k, big.NewInt(ar.Lo.V)), new(big.Int).Mul(k, big.NewInt(ar.Hi.V))
		if t.k < 0 {
			x, y = y, x
		}
		lo.Add(lo, x)
		hi.Add(hi, y)
	}
	base := big.NewInt(r.Lo.V)
	width := new(big.Int).Sub(big.NewInt(r.Hi.V), base)
	width.Add(width, big.NewInt(1))
	// The turn of v is floor((v - r.Lo) / width); big.Int's Div floors
	// for a positive divisor.
	turnLo := new(big.Int).Div(new(big.Int).Sub(lo, base), width)
	turnHi := new(big.Int).Div(new(big.Int).Sub(hi, base), width)
	if turnLo.Cmp(turnHi) != 0 {
		return Range{}, false
	}
	shift := new(big.Int).Mul(turnLo, width)
	lo.Sub(lo, shift)
	hi.Sub(hi, shift)
	if !lo.IsInt64() || !hi.IsInt64() {
		return Range{}, false
	}
	return R(lo.Int64(), hi.Int64()), true
}

// upper bounds a sub-expression from above within the current query,
// sharing its budget, as lower does from below.
func (p *Prover) upper(e Expr) Bound {
	if r, ok := p.single(e); ok {
		return r.Hi
	}
	return neg(p.lower(p.b.Neg(e)))
}

// atomRange bounds an atom on its own.
func (p *Prover) atomRange(a *Atom) Range {
	if a == nil {
		return Range{NegInf, PosInf}
	}
	slot := p.memo.slot(a.id)
	if slot.stamp != p.stamp {
		p.argRanges(a)
		slot.r, slot.stamp = p.rangeOf(a), p.stamp // pages never move
	}
	return slot.r
}

// rangeOf computes a's range, within the facts about it.
func (p *Prover) rangeOf(a *Atom) Range {
	r := p.computeRange(a)
	if p.facts != nil {
		r = p.withFacts(Expr{terms: []term{{a: a, k: 1}}}, r)
	}
	return r
}

// argRanges computes the ranges of the atoms under a, deepest first, with
// a stack of its own: computeRange asks for its arguments' ranges, and
// asking for them down a chain as deep as the model (300,000 Abs) would
// recurse as deep and overflow the goroutine's stack. Once the atoms
// below are known, computeRange of each finds its arguments remembered.
func (p *Prover) argRanges(root *Atom) {
	stack := append(p.stack[:0], rangeFrame{a: root})
	p.stack = nil
	defer func() { p.stack = stack[:0] }()
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		var next *Atom
		for next == nil && f.arg < len(f.a.args) {
			e := f.a.args[f.arg]
			if f.term == len(e.terms) {
				f.arg, f.term = f.arg+1, 0
				continue
			}
			if c := e.terms[f.term].a; len(c.args) > 0 && p.memo.slot(c.id).stamp != p.stamp {
				next = c
			}
			f.term++
		}
		if next != nil {
			// An atom's arguments are older than it: the graph has no
			// cycle, and an atom on the stack is never met again below it.
			stack = append(stack, rangeFrame{a: next})
			continue
		}
		a := f.a
		stack = stack[:len(stack)-1]
		if a != root {
			if slot := p.memo.slot(a.id); slot.stamp != p.stamp {
				slot.r, slot.stamp = p.rangeOf(a), p.stamp
			}
		}
	}
}

// rangeFrame is an atom of argRanges' stack.
type rangeFrame struct {
	a         *Atom
	arg, term int // the next argument term to look at
}

// memoSlot is an atom's range, set where stamp is the prover's (Reset
// moves the prover's on, so that every slot is unset at once).
type memoSlot struct {
	r     Range
	stamp uint32
}

func (p *Prover) exprRange(e Expr) Range { return Range{p.lower(e), p.upper(e)} }

func (p *Prover) computeRange(a *Atom) Range {
	all := Range{NegInf, PosInf}
	switch a.kind {
	case kSym:
		return p.env.Range(a.symbol())
	case kUnknown, kConvert:
		return a.r()
	case kFloorDiv:
		f := p.exprRange(a.args[0])
		return Range{divBound(f.Lo, a.divisor(), false), divBound(f.Hi, a.divisor(), false)}
	case kTruncDiv:
		f := p.exprRange(a.args[0])
		return Range{truncBound(f.Lo, a.divisor()), truncBound(f.Hi, a.divisor())}
	case kWrap:
		f := p.exprRange(a.args[0])
		if f.Within(a.r()) {
			p.fits[a] = true
			return f
		}
		// A range narrower than the type wraps to one range unless it
		// straddles the type's ends.
		if f.Lo.IsFinite() && f.Hi.IsFinite() && a.r().Lo.IsFinite() && a.r().Hi.IsFinite() {
			width := uint64(a.r().Hi.V) - uint64(a.r().Lo.V)
			if uint64(f.Hi.V)-uint64(f.Lo.V) <= width {
				lo, ok1 := wrapInto(f.Lo.V, a.r())
				hi, ok2 := wrapInto(f.Hi.V, a.r())
				if ok1 && ok2 && lo <= hi {
					return R(lo, hi)
				}
			}
		}
		if r, ok := p.wrappedSum(a.args[0], a.r()); ok {
			return r
		}
		return a.r()
	case kMin, kMax:
		return extremeRange(a, p.exprRange)
	case kWhere:
		c, x, y := p.exprRange(a.args[0]), p.exprRange(a.args[1]), p.exprRange(a.args[2])
		switch {
		case !c.Contains(0):
			return x
		case c.Lo == c.Hi:
			return y
		}
		return Range{minBound(x.Lo, y.Lo), maxBound(x.Hi, y.Hi)}
	case kSelect:
		var r Range
		for i, arg := range a.args {
			ar := p.exprRange(arg)
			if i == 0 {
				r = ar
			} else {
				r = Range{minBound(r.Lo, ar.Lo), maxBound(r.Hi, ar.Hi)}
			}
		}
		return r
	case kMul:
		x, y := p.exprRange(a.args[0]), p.exprRange(a.args[1])
		return hull(mulBounds(x.Lo, y.Lo), mulBounds(x.Lo, y.Hi), mulBounds(x.Hi, y.Lo), mulBounds(x.Hi, y.Hi))
	case kDiv:
		return divRange(p.exprRange(a.args[0]), p.exprRange(a.args[1]), a.floors())
	case kMod:
		return modRange(p.exprRange(a.args[0]), p.exprRange(a.args[1]), a.floors())
	}
	return all
}

func hull(bs ...Bound) Range {
	r := Range{bs[0], bs[0]}
	for _, b := range bs[1:] {
		r = Range{minBound(r.Lo, b), maxBound(r.Hi, b)}
	}
	return r
}

func truncBound(b Bound, k int64) Bound {
	if b.Inf != 0 {
		return b
	}
	return Finite(b.V / k)
}

// divRange bounds x / y for y in its range without 0: the quotient is
// monotone in x for a fixed sign of y, and extreme where |y| is smallest
// or largest.
func divRange(x, y Range, floor bool) Range {
	var ys []Bound
	for _, c := range []Bound{y.Lo, y.Hi, Finite(-1), Finite(1)} {
		if (c.Inf != 0 || c.V != 0) && !c.Less(y.Lo) && !y.Hi.Less(c) {
			ys = append(ys, c)
		}
	}
	if len(ys) == 0 {
		return Range{NegInf, PosInf}
	}
	var qs []Bound
	for _, xb := range []Bound{x.Lo, x.Hi} {
		for _, yb := range ys {
			qs = append(qs, divBounds(xb, yb, floor))
		}
	}
	return hull(qs...)
}

func divBounds(x, y Bound, floor bool) Bound {
	switch {
	case y.Inf != 0:
		return Finite(0) // |x| / inf; within the hull of the finite ends anyway
	case x.Inf != 0:
		if y.V < 0 {
			return Bound{Inf: -x.Inf}
		}
		return x
	case y.V == -1 && x.V == -1<<63:
		return PosInf
	}
	q := x.V / y.V
	if floor && x.V%y.V != 0 && (x.V < 0) != (y.V < 0) {
		q--
	}
	return Finite(q)
}

func modRange(x, y Range, floor bool) Range {
	// |remainder| < |y|; its sign is y's (floor) or x's (truncation).
	m := maxBound(neg(y.Lo), y.Hi)
	switch {
	case !m.IsFinite():
		m = PosInf
	case m.V <= 0:
		// y is 0 alone: no remainder exists (the division fails), and
		// |y| - 1 would make the empty range [1, -1], which findings
		// printed as the operands' range.
		return Range{NegInf, PosInf}
	default:
		m = Finite(m.V - 1)
	}
	r := Range{neg(m), m}
	switch {
	case floor && y.Lo.AtLeast(1):
		r.Lo = Finite(0)
	case floor && y.Hi.AtMost(-1):
		r.Hi = Finite(0)
	case !floor && x.Lo.AtLeast(0):
		r = Range{Finite(0), minBound(m, x.Hi)}
	case !floor && x.Hi.AtMost(0):
		r = Range{maxBound(neg(m), x.Lo), Finite(0)}
	}
	return r
}

// related reports whether an atom's arguments and an expression share a
// symbol.
func (p *Prover) related(a *Atom, rest Expr) bool {
	if a.kind == kMin || a.kind == kMax {
		return true // its arguments bound it together: max(x, -x) >= 0
	}
	if len(rest.terms) == 0 {
		return false
	}
	syms := a.walk().syms
	for _, s := range p.b.Syms(rest) {
		if _, found := slices.BinarySearch(syms, s); found {
			return true
		}
	}
	return false
}
