package sym

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Eval computes e for the given values of its symbols; ok is false where
// e has no value this package can compute for them (a division by zero,
// a value beyond int64, an unknown).
func (b *Builder) Eval(e Expr, val func(Sym) int64) (int64, bool) {
	return b.EvalLimited(e, val, nil)
}

// EvalLimited is Eval that computes at most *budget atoms, counting them
// down; it fails when the budget runs out (nil: no limit).
func (b *Builder) EvalLimited(e Expr, val func(Sym) int64, budget *int) (int64, bool) {
	b.budget = budget
	defer func() { b.budget = nil }()
	b.values.next()
	return b.eval(e, val)
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

const atomPage = 512

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

func (b *Builder) eval(e Expr, val func(Sym) int64) (int64, bool) {
	s := e.c
	for _, t := range e.terms {
		v, ok := b.evalAtom(t.a, val)
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

func (b *Builder) evalAtom(a *Atom, val func(Sym) int64) (int64, bool) {
	r := b.values.slots.slot(a.id)
	if r.stamp == b.values.stamp {
		return r.v, r.ok
	}
	if b.budget != nil {
		if *b.budget <= 0 {
			return 0, false
		}
		*b.budget--
	}
	v, ok := b.computeAtom(a, val)
	*r = evalSlot{b.values.stamp, ok, v}
	return v, ok
}

func (b *Builder) computeAtom(a *Atom, val func(Sym) int64) (int64, bool) {
	if a.kind == kSym {
		return val(a.symbol()), true
	}
	if a.kind == kUnknown || a.kind == kConvert {
		return 0, false
	}
	var small [4]int64 // most atoms have one or two arguments
	args := small[:0]
	for _, arg := range a.args {
		v, ok := b.eval(arg, val)
		if !ok {
			return 0, false
		}
		args = append(args, v)
	}
	switch a.kind {
	case kFloorDiv:
		return floorDiv(args[0], a.k), true
	case kTruncDiv:
		return args[0] / a.k, true
	case kDiv, kMod:
		x, y := args[0], args[1]
		if y == 0 || x == math.MinInt64 && y == -1 {
			return 0, false
		}
		q := x / y
		if a.flag && x%y != 0 && (x < 0) != (y < 0) {
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
	case kWrap:
		return wrapInto(args[0], a.r())
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

// String prints e with the names of its symbols: "x.shape[2] -
// 2*floor(x.shape[2]/2)".
func (b *Builder) String(e Expr) string {
	var s strings.Builder
	for i, t := range e.terms {
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
		s.WriteString(b.atomString(t.a))
	}
	switch {
	case len(e.terms) == 0:
		s.WriteString(strconv.FormatInt(e.c, 10))
	case e.c > 0:
		s.WriteString(" + " + strconv.FormatInt(e.c, 10))
	case e.c < 0:
		s.WriteString(" - " + strconv.FormatUint(absU(e.c), 10))
	}
	return s.String()
}

func (b *Builder) atomString(a *Atom) string {
	args := make([]string, len(a.args))
	for i, arg := range a.args {
		args[i] = b.String(arg)
	}
	switch a.kind {
	case kSym:
		return b.syms[a.symbol()].Name
	case kFloorDiv:
		return "floor((" + args[0] + ")/" + strconv.FormatInt(a.k, 10) + ")"
	case kTruncDiv:
		return "trunc((" + args[0] + ")/" + strconv.FormatInt(a.k, 10) + ")"
	case kDiv:
		return map[bool]string{true: "floor", false: "trunc"}[a.flag] + "((" + args[0] + ")/(" + args[1] + "))"
	case kMod:
		return map[bool]string{true: "floormod", false: "mod"}[a.flag] + "(" + args[0] + ", " + args[1] + ")"
	case kMul:
		return "(" + args[0] + ")*(" + args[1] + ")"
	case kMin, kMax, kSelect:
		return kindNames[a.kind] + "(" + strings.Join(args, ", ") + ")"
	case kWrap:
		return "wrap(" + args[0] + ")"
	case kConvert:
		return "convert" + a.r().String()
	}
	if a.origin() != "" {
		return "unknown(" + a.origin() + ")"
	}
	return "unknown" + a.r().String()
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
