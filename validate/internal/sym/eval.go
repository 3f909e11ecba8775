package sym

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Eval computes e for the given values of its symbols; ok is false where
// e has no value this package can compute for them (a division by zero,
// a value beyond int64, an unknown). Each call makes an Evaluator; one
// that evaluates many expressions keeps its own.
func (b *Builder) Eval(e Expr, val func(Sym) int64) (int64, bool) {
	return b.NewEvaluator().Eval(e, val, nil)
}

// An Evaluator computes expressions of one Builder for values of their
// symbols, remembering the atoms' values within one evaluation. It is a
// value of its own, so that evaluations can nest or run side by side
// (each with its Evaluator); one Evaluator is not safe for concurrent
// use. The Builder must not make atoms while an evaluation runs.
type Evaluator struct {
	b *Builder
	// budget counts down the atoms the current evaluation may still
	// compute (nil: no limit); memo holds the atoms' values in it.
	budget *int
	memo   evalMemo
	// stack is evalBelow's, kept for the next evaluation (nil while one
	// uses it: an evaluation nested through evalMod makes its own).
	stack []evalFrame
	// modDepth and modCalls count evalMod's nesting and calls in the
	// current evaluation: it recurses into products, without a memo.
	modDepth, modCalls int
}

// Bounds of evalMod within one evaluation: past them e has no value
// (the search tries other inputs), rather than a recursion as deep as a
// chain of products or a walk of every path down a DAG of them.
const (
	maxModDepth = 256
	maxModCalls = 1 << 16
)

// evalFrame is an atom of evalBelow's stack.
type evalFrame struct {
	a         *Atom
	arg, term int  // the next argument term to look at
	failed    bool // an argument has no value: neither has the atom
}

// NewEvaluator returns an Evaluator of b's expressions.
func (b *Builder) NewEvaluator() *Evaluator { return &Evaluator{b: b} }

// Eval computes e for the given values of its symbols, computing at most
// *budget atoms and counting them down (nil: no limit); ok is false where
// e has no value (see Builder.Eval) or the budget runs out.
func (ev *Evaluator) Eval(e Expr, val func(Sym) int64, budget *int) (int64, bool) {
	ev.budget = budget
	defer func() { ev.budget = nil }()
	ev.memo.next()
	ev.modCalls = 0
	return ev.eval(e, val)
}

// evalMemo remembers the values of atoms during one evaluation. Each
// evaluation stamps the slots it fills with its own number, so that the
// next one starts empty without clearing them.
type evalMemo struct {
	stamp uint32
	slots byAtom[evalSlot]
}

type evalSlot struct {
	stamp uint32
	ok    bool
	v     int64
}

// next starts an evaluation.
func (m *evalMemo) next() {
	m.stamp++
	if m.stamp == 0 { // wrapped: slots of 2^32 evaluations ago would look filled
		for _, p := range m.slots.pages {
			clear(p)
		}
		m.stamp = 1
	}
}

// byAtom holds a value per atom, by atom id, in pages made as atoms are
// reached: cheaper than a map for the hundreds of thousands of atoms a
// deep model makes, which a search evaluates millions of times. Pages
// never move, so a slot's address stays valid.
type byAtom[T any] struct{ pages [][]T }

const atomPage = 64

func (m *byAtom[T]) slot(id int32) *T {
	p := int(id) / atomPage
	if p >= len(m.pages) {
		m.pages = append(m.pages, make([][]T, p+1-len(m.pages))...)
	}
	if m.pages[p] == nil {
		m.pages[p] = make([]T, atomPage)
	}
	return &m.pages[p][int(id)%atomPage]
}

func (ev *Evaluator) eval(e Expr, val func(Sym) int64) (int64, bool) {
	s := e.c
	for _, t := range e.terms {
		v, ok := ev.evalAtom(t.a, val)
		if !ok {
			return 0, false
		}
		p, ok1 := mul64(t.k, v)
		var ok2 bool
		s, ok2 = add64(s, p)
		if !ok1 || !ok2 {
			return 0, false
		}
	}
	return s, true
}

func (ev *Evaluator) evalAtom(a *Atom, val func(Sym) int64) (int64, bool) {
	r := ev.memo.slots.slot(a.id)
	if r.stamp == ev.memo.stamp {
		return r.v, r.ok
	}
	if len(a.args) > 0 {
		ev.evalBelow(a, val)
	}
	if ev.budget != nil {
		if *ev.budget <= 0 {
			return 0, false
		}
		*ev.budget--
	}
	v, ok := ev.computeAtom(a, val)
	*r = evalSlot{ev.memo.stamp, ok, v}
	return v, ok
}

// evalBelow evaluates the compound atoms under root, deepest first, with
// a stack of its own, so that computeAtom finds its arguments' values
// remembered instead of recursing down a chain as deep as the model (a
// 300,000-layer Abs chain took 256 MB of goroutine stack). It spends the
// budget as the recursion did, argument by argument, and stops at an
// atom's first argument without a value, as computeAtom does.
func (ev *Evaluator) evalBelow(root *Atom, val func(Sym) int64) {
	stack := append(ev.stack[:0], evalFrame{a: root})
	ev.stack = nil
	defer func() { ev.stack = stack[:0] }()
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		var next *Atom
		for next == nil && !f.failed && f.arg < len(f.a.args) {
			e := f.a.args[f.arg]
			if f.term == len(e.terms) {
				f.arg, f.term = f.arg+1, 0
				continue
			}
			c := e.terms[f.term].a
			f.term++
			if len(c.args) == 0 {
				continue // a symbol or an unknown: computeAtom evaluates it at once
			}
			if r := ev.memo.slots.slot(c.id); r.stamp != ev.memo.stamp {
				next = c
			} else if !r.ok {
				f.failed = true
			}
		}
		if next != nil {
			stack = append(stack, evalFrame{a: next})
			continue
		}
		done := *f
		stack = stack[:len(stack)-1]
		if done.a == root {
			break
		}
		var v int64
		ok := false
		switch {
		case done.failed:
		case ev.budget != nil && *ev.budget <= 0:
		default:
			if ev.budget != nil {
				*ev.budget--
			}
			v, ok = ev.computeAtom(done.a, val)
		}
		*ev.memo.slots.slot(done.a.id) = evalSlot{ev.memo.stamp, ok, v}
		if !ok {
			stack[len(stack)-1].failed = true
		}
	}
}

func (ev *Evaluator) computeAtom(a *Atom, val func(Sym) int64) (int64, bool) {
	if a.kind == kSym {
		return val(a.symbol()), true
	}
	if a.kind == kUnknown || a.kind == kConvert {
		return 0, false
	}
	if a.kind == kWrap {
		// Two's complement arithmetic is exact modulo 2^64, and so
		// modulo any type's width: a sum or product whose exact value
		// leaves int64 still wraps to what the model computes (5 *
		// 3*2^61 wraps to -2^61 in i64).
		v, ok := ev.eval(a.args[0], val)
		if !ok {
			v, ok = ev.evalMod(a.args[0], val)
		}
		if !ok {
			// A minimum or maximum of values beyond int64 is not one
			// modulo 2^64: |MIN| is max(-MIN, MIN), 2^63 exactly, which
			// wraps to MIN (evalMod would need -MIN in int64).
			var x *big.Int
			if x, ok = ev.evalExact(a.args[0], val); ok {
				v = int64(new(big.Int).And(x, mod64Mask).Uint64())
			}
		}
		if !ok {
			return 0, false
		}
		return wrapInto(v, a.r())
	}
	var small [4]int64 // most atoms have one or two arguments
	args := small[:0]
	for _, arg := range a.args {
		v, ok := ev.eval(arg, val)
		if !ok {
			return 0, false
		}
		args = append(args, v)
	}
	switch a.kind {
	case kFloorDiv:
		return floorDiv(args[0], a.divisor()), true
	case kTruncDiv:
		return args[0] / a.divisor(), true
	case kDiv, kMod:
		x, y := args[0], args[1]
		if y == 0 || x == math.MinInt64 && y == -1 {
			return 0, false
		}
		q := x / y
		if a.floors() && x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		if a.kind == kDiv {
			return q, true
		}
		return x - q*y, true
	case kMul:
		return mul64(args[0], args[1])
	case kMin, kMax:
		m := args[0]
		for _, v := range args[1:] {
			if a.kind == kMin && v < m || a.kind == kMax && v > m {
				m = v
			}
		}
		return m, true
	case kWhere:
		if args[0] != 0 {
			return args[1], true
		}
		return args[2], true
	case kSelect:
		// Which argument is chosen is not followed: only agreeing ones
		// have a value.
		for _, v := range args[1:] {
			if v != args[0] {
				return 0, false
			}
		}
		return args[0], true
	}
	return 0, false
}

// evalMod evaluates e modulo 2^64: its sums and its products (of
// constants, and of atoms that are products themselves) wrap, as they do
// in the model's integer type; any other atom must have an exact value.
func (ev *Evaluator) evalMod(e Expr, val func(Sym) int64) (int64, bool) {
	if ev.modDepth >= maxModDepth || ev.modCalls >= maxModCalls {
		return 0, false
	}
	ev.modDepth++
	ev.modCalls++
	defer func() { ev.modDepth-- }()
	s := uint64(e.c)
	for _, t := range e.terms {
		v, ok := ev.evalAtom(t.a, val)
		if !ok && t.a.kind == kMul {
			x, ok1 := ev.evalMod(t.a.args[0], val)
			y, ok2 := ev.evalMod(t.a.args[1], val)
			v, ok = int64(uint64(x)*uint64(y)), ok1 && ok2
		}
		if !ok {
			return 0, false
		}
		s += uint64(t.k) * uint64(v)
	}
	return int64(s), true
}

// mod64Mask keeps the low 64 bits of a two's complement big.Int.
var mod64Mask = new(big.Int).SetUint64(math.MaxUint64)

// evalExact evaluates e exactly, beyond int64 where its sums, products,
// minima, maxima and choices leave it; any other atom must have a value
// in int64. It is what a wrap of e needs where evalMod cannot (a maximum
// of values that leave int64), bounded as evalMod is.
func (ev *Evaluator) evalExact(e Expr, val func(Sym) int64) (*big.Int, bool) {
	if ev.modDepth >= maxModDepth || ev.modCalls >= maxModCalls {
		return nil, false
	}
	ev.modDepth++
	ev.modCalls++
	defer func() { ev.modDepth-- }()
	s := big.NewInt(e.c)
	for _, t := range e.terms {
		v, ok := ev.atomExact(t.a, val)
		if !ok {
			return nil, false
		}
		s.Add(s, v.Mul(v, big.NewInt(t.k)))
	}
	return s, true
}

// atomExact is an atom's exact value (evalExact).
func (ev *Evaluator) atomExact(a *Atom, val func(Sym) int64) (*big.Int, bool) {
	if v, ok := ev.evalAtom(a, val); ok {
		return big.NewInt(v), true
	}
	switch a.kind {
	case kMul, kMin, kMax, kWhere:
	default:
		return nil, false
	}
	args := make([]*big.Int, len(a.args))
	for i, arg := range a.args {
		v, ok := ev.evalExact(arg, val)
		if !ok {
			return nil, false
		}
		args[i] = v
	}
	switch a.kind {
	case kMul:
		return args[0].Mul(args[0], args[1]), true
	case kWhere:
		if args[0].Sign() != 0 {
			return args[1], true
		}
		return args[2], true
	}
	m := args[0]
	for _, v := range args[1:] {
		if c := v.Cmp(m); a.kind == kMin && c < 0 || a.kind == kMax && c > 0 {
			m = v
		}
	}
	return m, true
}

// wrapInto wraps v into a finite range of 2^n values, as two's complement
// arithmetic does.
func wrapInto(v int64, r Range) (int64, bool) {
	if r.Contains(v) {
		return v, true
	}
	if !r.Lo.IsFinite() || !r.Hi.IsFinite() {
		return 0, false
	}
	width := uint64(r.Hi.V) - uint64(r.Lo.V) + 1
	if width == 0 || width&(width-1) != 0 {
		return 0, false
	}
	off := (uint64(v) - uint64(r.Lo.V)) & (width - 1)
	w := int64(uint64(r.Lo.V) + off)
	return w, r.Contains(w)
}

// Bounds of String: at most maxStringTerms terms of each sum and
// maxStringAtoms atoms in all, the rest written "…" (counted where a sum
// has more terms). An expression is a DAG: a sum of 4,000 elements, or a
// chain whose atoms each use the one below twice, would otherwise print
// without end.
const (
	maxStringTerms = 8
	maxStringAtoms = 64
)

// String prints e with the names of its symbols: "x.shape[2] -
// 2*floor(x.shape[2]/2)".
func (b *Builder) String(e Expr) string {
	var s strings.Builder
	atoms := maxStringAtoms
	b.writeExpr(&s, e, &atoms)
	return s.String()
}

func (b *Builder) writeExpr(s *strings.Builder, e Expr, atoms *int) {
	for i, t := range e.terms {
		if i == maxStringTerms || *atoms <= 0 {
			if i > 0 {
				s.WriteString(" + ")
			}
			fmt.Fprintf(s, "… %d more terms", len(e.terms)-i)
			break
		}
		k := t.k
		switch {
		case i == 0 && k < 0:
			s.WriteString("-")
			k = -k
		case i > 0 && k < 0:
			s.WriteString(" - ")
			k = -k
		case i > 0:
			s.WriteString(" + ")
		}
		if k != 1 {
			s.WriteString(strconv.FormatInt(k, 10) + "*")
		}
		b.writeAtom(s, t.a, atoms)
	}
	switch {
	case len(e.terms) == 0:
		s.WriteString(strconv.FormatInt(e.c, 10))
	case e.c > 0:
		s.WriteString(" + " + strconv.FormatInt(e.c, 10))
	case e.c < 0:
		s.WriteString(" - " + strconv.FormatUint(absU(e.c), 10))
	}
}

func (b *Builder) writeAtom(s *strings.Builder, a *Atom, atoms *int) {
	if *atoms <= 0 {
		s.WriteString("…")
		return
	}
	*atoms--
	arg := func(i int) { b.writeExpr(s, a.args[i], atoms) }
	switch a.kind {
	case kSym:
		s.WriteString(b.syms[a.symbol()].Name)
	case kFloorDiv, kTruncDiv:
		s.WriteString(map[bool]string{true: "floor((", false: "trunc(("}[a.kind == kFloorDiv])
		arg(0)
		s.WriteString(")/" + strconv.FormatInt(a.divisor(), 10) + ")")
	case kDiv:
		s.WriteString(map[bool]string{true: "floor", false: "trunc"}[a.floors()] + "((")
		arg(0)
		s.WriteString(")/(")
		arg(1)
		s.WriteString("))")
	case kMod:
		s.WriteString(map[bool]string{true: "floormod", false: "mod"}[a.floors()] + "(")
		arg(0)
		s.WriteString(", ")
		arg(1)
		s.WriteString(")")
	case kMul:
		s.WriteString("(")
		arg(0)
		s.WriteString(")*(")
		arg(1)
		s.WriteString(")")
	case kMin, kMax, kSelect, kWhere:
		s.WriteString(kindNames[a.kind] + "(")
		for i := range a.args {
			if i > 0 {
				s.WriteString(", ")
			}
			arg(i)
		}
		s.WriteString(")")
	case kWrap:
		s.WriteString("wrap(")
		arg(0)
		s.WriteString(")")
	case kConvert:
		s.WriteString("convert" + a.r().String())
	default:
		if a.origin() != "" {
			s.WriteString("unknown(" + a.origin() + ")")
		} else {
			s.WriteString("unknown" + a.r().String())
		}
	}
}

// Origins lists the origins of the unknown and converted atoms e
// depends on: the ops that stopped the analysis.
func (b *Builder) Origins(e Expr) []string {
	var out []string
	for _, t := range e.terms {
		for _, o := range t.a.walk().origins {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}
