// Package sym reasons about the integers a model computes from its inputs:
// expressions over symbols (a dimension of a model input, or an element of
// one), built with the arithmetic of the model's ops, and bounds on them
// that relations survive: H - 2*floor(H/2) is at least 0 for every H,
// where intervals alone give [-H, H].
//
// An expression is a linear form over atoms, c + k1*a1 + k2*a2 + ...; an
// atom is a symbol or a non-linear operation on expressions (a floor or
// truncating division, a product, a minimum, a value wrapped into an
// integer type...). A Builder makes atoms once each, so that the same
// computation reached twice is the same atom and cancels. Bounds are
// computed under an Env, which gives each symbol its range: the same
// expressions hold for the declared input shapes and for any shape.
//
// Expressions are mathematical integers: the ops that wrap in their
// element type say so with Wrap, which keeps its argument exactly where
// the argument provably fits the type and is the type's whole range
// elsewhere.
package sym

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Sym is a symbol: a value a model's user chooses.
type Sym int32

// SymInfo describes a symbol.
type SymInfo struct {
	// Name is how messages show it: "x.shape[2]", "x[0]", "x[*]".
	Name string
	// Element marks the value of input elements, where the same symbol
	// may stand for several elements of one tensor; Copy makes an
	// independent copy of such a symbol for elements moved elsewhere.
	Element bool
	// Of is the symbol this one copies (itself for an original).
	Of Sym
}

// Range is a closed range of a symbol or type.
type Range struct{ Lo, Hi Bound }

// R is the range [lo, hi].
func R(lo, hi int64) Range { return Range{Finite(lo), Finite(hi)} }

// Contains reports whether v lies in r.
func (r Range) Contains(v int64) bool { return r.Lo.AtMost(v) && r.Hi.AtLeast(v) }

// Within reports whether r lies inside s.
func (r Range) Within(s Range) bool { return !r.Lo.Less(s.Lo) && !s.Hi.Less(r.Hi) }

func (r Range) String() string {
	if r.Lo == r.Hi {
		return r.Lo.String()
	}
	return "[" + r.Lo.String() + ", " + r.Hi.String() + "]"
}

type kind uint8

const (
	kSym kind = iota
	kFloorDiv
	kTruncDiv
	kDiv     // floor or truncating division by an expression (Flag: floor)
	kMod     // remainder by an expression (Flag: floor)
	kMul     // product of two non-constant expressions
	kMin     // minimum of the arguments
	kMax     // maximum of the arguments
	kWrap    // Args[0] wrapped into the integer range R
	kSelect  // one of the arguments
	kWhere   // Args[1] where Args[0] is not 0, else Args[2]
	kUnknown // any value in R
	kConvert // a float converted to an integer: R, and undefined outside it
	numKinds
)

var kindNames = [numKinds]string{"sym", "floor", "trunc", "div", "mod", "mul", "min", "max", "wrap", "select", "where", "unknown", "convert"}

// Atom is a symbol or a non-linear operation; a Builder makes each once.
// A deep model makes millions of atoms, so the fields few kinds use live
// behind pointers.
type Atom struct {
	args []Expr
	k    int64 // the divisor of floor and trunc; the symbol of a sym
	// sameHash links the atoms of one hash in their Builder.
	sameHash *Atom
	// deps are the symbols and origins the atom depends on,
	// worked out once and shared with an argument's where they are the
	// same (an expression of a deep model shares most of its atoms).
	deps *deps
	// limits are the range and origin of wrap, unknown and convert.
	limits *limits
	id     int32
	kind   kind
	flag   bool // floor (true) or truncation, for div and mod; an element symbol, for sym
	// depth is the longest path of atoms from this one down to a symbol
	// or an unknown (0 for those), saturating at MaxDepth.
	depth uint16
}

// MaxDepth is the deepest an atom's depth is counted (Depth). The
// analysis (absint) makes a value deeper than its own bound, below this
// one, a fresh symbol of its range, so that no walk of an expression
// goes deeper (a 300,000-layer Abs chain is an expression 300,000 atoms
// deep otherwise).
const MaxDepth = 1 << 15

// Depth is the depth of e's deepest atom: 0 for a constant or a linear
// form over symbols, saturating at MaxDepth.
func (b *Builder) Depth(e Expr) int {
	d := 0
	for _, t := range e.terms {
		d = max(d, int(t.a.depth))
	}
	return d
}

type deps struct {
	syms    []Sym
	origins []string
	// elements is set when a symbol of an element (SymInfo.Element) is
	// among syms: what Copy replaces.
	elements bool
}

type limits struct {
	r Range
	// origin names what made an unknown atom: the op that stopped the
	// analysis.
	origin string
}

// k and flag each serve two kinds; these name what they mean.

// symbol is the symbol of a sym atom.
func (a *Atom) symbol() Sym { return Sym(a.k) }

// divisor is the constant divisor of a floor or trunc atom.
func (a *Atom) divisor() int64 { return a.k }

// floors tells whether a div or mod atom floors (or truncates).
func (a *Atom) floors() bool { return a.flag }

// element tells whether a sym atom is an element symbol (SymInfo.Element).
func (a *Atom) element() bool { return a.flag }

// r is the range of a wrap, unknown or convert atom.
func (a *Atom) r() Range {
	if a.limits == nil {
		return Range{}
	}
	return a.limits.r
}

func (a *Atom) origin() string {
	if a.limits == nil {
		return ""
	}
	return a.limits.origin
}

// maxConsts and maxConstAtoms bound the constants Consts finds for a
// search, and the atoms it looks at for them.
const (
	maxConsts     = 64
	maxConstAtoms = 256
)

// walk fills an atom's symbols and origins from its arguments'. It
// first fills those of the atoms below a that lack them, deepest first,
// with a stack of its own: asking each argument in turn would recurse as
// deep as the chain of atoms, which is as deep as the model (a
// 300,000-layer Abs chain took 64 MB of goroutine stack here), and a
// deeper one overflows it.
func (a *Atom) walk() *deps {
	if a.deps != nil {
		return a.deps
	}
	type frame struct {
		a         *Atom
		arg, term int // the next argument term to look at
	}
	stack := []frame{{a: a}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		var next *Atom
		for next == nil && f.arg < len(f.a.args) {
			e := f.a.args[f.arg]
			if f.term == len(e.terms) {
				f.arg, f.term = f.arg+1, 0
				continue
			}
			if c := e.terms[f.term].a; c.deps == nil {
				next = c
			}
			f.term++
		}
		if next != nil {
			// An atom's arguments are older than it: an atom on the
			// stack is never met again below it.
			stack = append(stack, frame{a: next})
			continue
		}
		done := f.a
		stack = stack[:len(stack)-1]
		done.deps = done.depsFromArgs()
	}
	return a.deps
}

// depsFromArgs merges the deps of a's arguments, which walk has filled.
func (a *Atom) depsFromArgs() *deps {
	var d deps
	if a.kind == kSym {
		d.syms, d.elements = []Sym{a.symbol()}, a.element()
	}
	if o := a.origin(); (a.kind == kUnknown || a.kind == kConvert) && o != "" {
		d.origins = append(d.origins, o)
	}
	var first *deps
	for _, arg := range a.args {
		for _, t := range arg.terms {
			td := t.a.deps
			if first == nil {
				first = td
			}
			d.syms = union(d.syms, td.syms)
			d.elements = d.elements || td.elements
			for _, o := range td.origins {
				if !slices.Contains(d.origins, o) && len(d.origins) < maxOrigins {
					d.origins = append(d.origins, o)
				}
			}
		}
	}
	if first != nil && sameSlice(d.syms, first.syms) && sameSlice(d.origins, first.origins) && d.elements == first.elements {
		return first
	}
	return &d
}

// maxOrigins bounds the origins an atom remembers.
const maxOrigins = 64

// sameSlice reports whether a and b are the same slice, not only equal.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// union is the sorted union of the sorted a and b. Atoms share these
// slices: a or b is returned itself, clipped so that appending to it
// copies, where it holds the other.
func union(a, b []Sym) []Sym {
	switch {
	case len(b) >= len(a) && holds(b, a):
		return slices.Clip(b)
	case holds(a, b):
		return slices.Clip(a)
	}
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Clip(slices.Compact(out))
}

// holds reports whether the sorted a holds every element of the sorted b.
func holds(a, b []Sym) bool {
	i := 0
	for _, x := range b {
		for i < len(a) && a[i] < x {
			i++
		}
		if i == len(a) || a[i] != x {
			return false
		}
	}
	return true
}

// Expr is c + sum(k_i * a_i): a constant and terms in increasing atom id.
// An Expr is immutable.
type Expr struct {
	c     int64
	terms []term
}

type term struct {
	k int64
	a *Atom
}

// Builder makes atoms and symbols. It is not safe for concurrent use.
type Builder struct {
	made   int // atoms made, the next one's id
	byHash map[uint64]*Atom
	seed   maphash.Seed
	syms   []SymInfo
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{byHash: make(map[uint64]*Atom), seed: maphash.MakeSeed()} }

// NewSym makes a symbol.
func (b *Builder) NewSym(name string, element bool) Sym {
	s := Sym(len(b.syms))
	b.syms = append(b.syms, SymInfo{Name: name, Element: element, Of: s})
	return s
}

// Info describes a symbol.
func (b *Builder) Info(s Sym) SymInfo { return b.syms[s] }

// NumSyms is the number of symbols made.
func (b *Builder) NumSyms() int { return len(b.syms) }

// atom returns the atom equal to a that b made before, or makes a copy
// of a: most atoms a deep model asks for exist already.
func (b *Builder) atom(a Atom) *Atom {
	h := a.hash(b.seed)
	for old := b.byHash[h]; old != nil; old = old.sameHash {
		if old.equal(&a) {
			return old
		}
	}
	made := new(Atom)
	*made = a
	for _, e := range a.args {
		for _, t := range e.terms {
			made.depth = max(made.depth, min(t.a.depth+1, MaxDepth))
		}
	}
	made.id = int32(b.made)
	b.made++
	made.sameHash = b.byHash[h]
	b.byHash[h] = made
	return made
}

// hash mixes what identifies an atom: its kind, parameters and arguments,
// whose atoms are already unique and so hash by id.
func (a *Atom) hash(seed maphash.Seed) uint64 {
	h := mix(uint64(a.kind), uint64(a.k))
	if a.flag {
		h = mix(h, 1)
	}
	if l := a.limits; l != nil {
		h = mix(h, uint64(l.r.Lo.V)^uint64(l.r.Lo.Inf)<<56)
		h = mix(h, uint64(l.r.Hi.V)^uint64(l.r.Hi.Inf)<<56)
		h = mix(h, maphash.String(seed, l.origin))
	}
	for _, e := range a.args {
		h = mix(h, uint64(e.c))
		for _, t := range e.terms {
			h = mix(mix(h, uint64(t.k)), uint64(t.a.id))
		}
		h = mix(h, uint64(len(e.terms)))
	}
	return h
}

func mix(h, v uint64) uint64 {
	h ^= v
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// equal reports whether a and o are the same computation; unknowns and
// conversions are the same only when made from the same origin.
func (a *Atom) equal(o *Atom) bool {
	if a.kind != o.kind || a.k != o.k || a.flag != o.flag || a.r() != o.r() || a.origin() != o.origin() || len(a.args) != len(o.args) {
		return false
	}
	for i, e := range a.args {
		f := o.args[i]
		if e.c != f.c || !slices.Equal(e.terms, f.terms) {
			return false
		}
	}
	return true
}

func (e Expr) key() string {
	buf := make([]byte, 0, 8+12*len(e.terms))
	buf = strconv.AppendInt(buf, e.c, 10)
	for _, t := range e.terms {
		buf = append(buf, '+')
		buf = strconv.AppendInt(buf, t.k, 10)
		buf = append(buf, '*', '#')
		buf = strconv.AppendInt(buf, int64(t.a.id), 10)
	}
	return string(buf)
}

// compareExprs orders expressions by their constant, then their terms'
// atoms and coefficients: the order in which commutative atoms keep their
// arguments, so that max(a, b) and max(b, a) are one atom.
func compareExprs(x, y Expr) int {
	if c := cmp.Compare(x.c, y.c); c != 0 {
		return c
	}
	for i := range min(len(x.terms), len(y.terms)) {
		s, t := x.terms[i], y.terms[i]
		if c := cmp.Compare(s.a.id, t.a.id); c != 0 {
			return c
		}
		if c := cmp.Compare(s.k, t.k); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(x.terms), len(y.terms))
}

// shortKey identifies a linear form of at most two terms without building
// a string; longer forms use key.
type shortKey struct {
	c, k0, k1 int64
	a0, a1    *Atom
	long      string
}

func (e Expr) shortKey() shortKey {
	switch len(e.terms) {
	case 0:
		return shortKey{c: e.c}
	case 1:
		return shortKey{c: e.c, k0: e.terms[0].k, a0: e.terms[0].a}
	case 2:
		return shortKey{c: e.c, k0: e.terms[0].k, a0: e.terms[0].a, k1: e.terms[1].k, a1: e.terms[1].a}
	}
	return shortKey{long: e.key()}
}

// Const is the expression v.
func Const(v int64) Expr { return Expr{c: v} }

// Var is the expression of a symbol.
func (b *Builder) Var(s Sym) Expr {
	return b.of(b.atom(Atom{kind: kSym, k: int64(s), flag: b.syms[s].Element}))
}

func (b *Builder) of(a *Atom) Expr { return Expr{terms: []term{{1, a}}} }

// Unknown is a value about which only its range is known; origin names
// the op that made it. Unknowns of the same origin and range are the
// same value, so pass a distinct origin for distinct values.
func (b *Builder) Unknown(r Range, origin string) Expr {
	return b.of(b.atom(Atom{kind: kUnknown, limits: &limits{r, origin}}))
}

// Converted is an integer converted from a float that this package does
// not follow: a value in r, where the conversion is defined.
func (b *Builder) Converted(r Range, origin string) Expr {
	return b.of(b.atom(Atom{kind: kConvert, limits: &limits{r, origin}}))
}

// IsConst reports whether e is a constant, and which.
func (e Expr) IsConst() (int64, bool) { return e.c, len(e.terms) == 0 }

// Equal reports whether two expressions of one Builder are the same.
func (e Expr) Equal(f Expr) bool {
	return e.c == f.c && slices.Equal(e.terms, f.terms)
}

// combine returns x*e + y*f, or where a coefficient leaves int64, an
// unknown atom.
func (b *Builder) combine(x int64, e Expr, y int64, f Expr) Expr {
	out, ok := b.combineExact(x, e, y, f)
	if !ok {
		return b.Unknown(Range{NegInf, PosInf}, fmt.Sprintf("%s (#%d)", coefficientBeyond, b.made))
	}
	return out
}

// LeftInt64 reports whether e is what combine makes where a coefficient
// leaves int64: an unknown of any value.
func (b *Builder) LeftInt64(e Expr) bool {
	if len(e.terms) != 1 || e.c != 0 || e.terms[0].k != 1 {
		return false
	}
	a := e.terms[0].a
	return a.kind == kUnknown && strings.HasPrefix(a.limits.origin, coefficientBeyond)
}

// coefficientBeyond names the unknowns combine makes.
const coefficientBeyond = "a coefficient beyond int64"

// combineExact returns x*e + y*f; ok is false where a coefficient leaves
// int64.
func (b *Builder) combineExact(x int64, e Expr, y int64, f Expr) (Expr, bool) {
	c1, ok1 := mul64(x, e.c)
	c2, ok2 := mul64(y, f.c)
	c, ok3 := add64(c1, c2)
	if !ok1 || !ok2 || !ok3 {
		return Expr{}, false
	}
	out := Expr{c: c, terms: make([]term, 0, len(e.terms)+len(f.terms))}
	i, j := 0, 0
	for i < len(e.terms) || j < len(f.terms) {
		var t term
		var ok bool
		switch {
		case j == len(f.terms) || i < len(e.terms) && e.terms[i].a.id < f.terms[j].a.id:
			t.a = e.terms[i].a
			t.k, ok = mul64(x, e.terms[i].k)
			i++
		case i == len(e.terms) || f.terms[j].a.id < e.terms[i].a.id:
			t.a = f.terms[j].a
			t.k, ok = mul64(y, f.terms[j].k)
			j++
		default:
			t.a = e.terms[i].a
			k1, o1 := mul64(x, e.terms[i].k)
			k2, o2 := mul64(y, f.terms[j].k)
			var o3 bool
			t.k, o3 = add64(k1, k2)
			ok = o1 && o2 && o3
			i++
			j++
		}
		if !ok {
			return Expr{}, false
		}
		if t.k != 0 {
			out.terms = append(out.terms, t)
		}
	}
	return out, true
}

// Add is e + f.
func (b *Builder) Add(e, f Expr) Expr { return b.combine(1, e, 1, f) }

// Sub is e - f.
func (b *Builder) Sub(e, f Expr) Expr { return b.combine(1, e, -1, f) }

// Neg is -e.
func (b *Builder) Neg(e Expr) Expr { return b.combine(-1, e, 0, Expr{}) }

// Scale is k*e.
func (b *Builder) Scale(e Expr, k int64) Expr { return b.combine(k, e, 0, Expr{}) }

// Mul is e*f.
func (b *Builder) Mul(e, f Expr) Expr {
	if k, ok := f.IsConst(); ok {
		return b.Scale(e, k)
	}
	if k, ok := e.IsConst(); ok {
		return b.Scale(f, k)
	}
	if compareExprs(f, e) < 0 {
		e, f = f, e
	}
	return b.of(b.atom(Atom{kind: kMul, args: []Expr{e, f}}))
}

// MultipleOf reports whether e is a multiple of k whatever its symbols:
// every coefficient and the constant are.
func (e Expr) MultipleOf(k int64) bool {
	return k != 0 && e.c%k == 0 && e.divisibleBy(k)
}

// divisibleBy reports whether every coefficient of e (the constant aside)
// is a multiple of k.
func (e Expr) divisibleBy(k int64) bool {
	for _, t := range e.terms {
		if t.k%k != 0 {
			return false
		}
	}
	return true
}

// MultipleOfPow2 reports whether e is a multiple of 2^j whatever its
// symbols, seeing through wraps: a value wrapped into a range of 2^m
// values (an integer type) moves by multiples of 2^m, and keeps every
// factor 2^j of j <= m. W * 3 * 2^61 wrapped into int64 is a multiple of
// 2^61 for every W, which its range, all of int64, does not show (seed
// 186 of the differential). Products count the factors of either side.
func (b *Builder) MultipleOfPow2(e Expr, j int) bool {
	if j <= 0 {
		return true
	}
	if e.c != 0 && bits.TrailingZeros64(uint64(e.c)) < j {
		return false
	}
	for _, t := range e.terms {
		if need := j - bits.TrailingZeros64(uint64(t.k)); need > 0 && !b.atomMultipleOfPow2(t.a, need) {
			return false
		}
	}
	return true
}

func (b *Builder) atomMultipleOfPow2(a *Atom, j int) bool {
	switch a.kind {
	case kWrap:
		r := a.r()
		if !r.Lo.IsFinite() || !r.Hi.IsFinite() {
			return false
		}
		m := 64 // a width of 2^64 is 0 in uint64
		if width := uint64(r.Hi.V) - uint64(r.Lo.V) + 1; width != 0 {
			if width&(width-1) != 0 {
				return false
			}
			m = bits.TrailingZeros64(width)
		}
		return j <= m && b.MultipleOfPow2(a.args[0], j)
	case kMul:
		return b.MultipleOfPow2(a.args[0], j) || b.MultipleOfPow2(a.args[1], j)
	case kFloorDiv, kTruncDiv:
		// A multiple of 2^(d+j) over ±2^d divides exactly: a multiple
		// of 2^j.
		m := uint64(a.divisor())
		if a.divisor() < 0 {
			m = -m
		}
		d := bits.TrailingZeros64(m)
		return m&(m-1) == 0 && d+j <= 64 && b.MultipleOfPow2(a.args[0], d+j)
	case kMin, kMax:
		// One of its arguments: a multiple where every one is.
		for _, arg := range a.args {
			if !b.MultipleOfPow2(arg, j) {
				return false
			}
		}
		return len(a.args) > 0
	}
	return false
}

// FloorDivK is floor(e / k) for a constant k != 0.
func (b *Builder) FloorDivK(e Expr, k int64) Expr {
	if k < 0 {
		if k == math.MinInt64 {
			return b.Div(e, Const(k), true)
		}
		e, k = b.Neg(e), -k
	}
	if c, ok := e.IsConst(); ok {
		return Const(floorDiv(c, k))
	}
	if k == 1 {
		return e
	}
	if e.divisibleBy(k) {
		// floor((k*q + c)/k) = q + floor(c/k).
		q := Expr{terms: make([]term, len(e.terms))}
		for i, t := range e.terms {
			q.terms[i] = term{t.k / k, t.a}
		}
		return b.Add(q, Const(floorDiv(e.c, k)))
	}
	if len(e.terms) == 1 && e.terms[0].k == 1 && e.terms[0].a.kind == kFloorDiv && e.c == 0 {
		// floor(floor(f/j)/k) = floor(f/(j*k)).
		inner := e.terms[0].a
		if jk, ok := mul64(inner.divisor(), k); ok {
			return b.FloorDivK(inner.args[0], jk)
		}
	}
	// Move whole multiples of k out of the constant: floor((f + c)/k) =
	// floor((f + c mod k)/k) + floor(c/k), so that equal remainders share
	// an atom.
	q := floorDiv(e.c, k)
	rest := Expr{c: e.c - q*k, terms: e.terms}
	a := b.atom(Atom{kind: kFloorDiv, k: k, args: []Expr{rest}})
	return b.Add(b.of(a), Const(q))
}

// TruncDivK is e / k rounded toward zero, for a constant k != 0.
func (b *Builder) TruncDivK(e Expr, k int64) Expr {
	if k < 0 {
		if k == math.MinInt64 {
			return b.Div(e, Const(k), false)
		}
		return b.Neg(b.TruncDivK(e, -k))
	}
	if c, ok := e.IsConst(); ok {
		return Const(c / k)
	}
	if k == 1 {
		return e
	}
	if e.divisibleBy(k) && e.c%k == 0 {
		q := Expr{c: e.c / k, terms: make([]term, len(e.terms))}
		for i, t := range e.terms {
			q.terms[i] = term{t.k / k, t.a}
		}
		return q
	}
	return b.of(b.atom(Atom{kind: kTruncDiv, k: k, args: []Expr{e}}))
}

// Div is e / f, floored or truncated.
func (b *Builder) Div(e, f Expr, floor bool) Expr {
	if k, ok := f.IsConst(); ok && k != 0 && k != math.MinInt64 {
		if floor {
			return b.FloorDivK(e, k)
		}
		return b.TruncDivK(e, k)
	}
	if e.Equal(f) {
		// e / e is 1 wherever it is defined (a division by 0 is not: a
		// Divide's range leaves a zero divisor out too).
		return Const(1)
	}
	return b.of(b.atom(Atom{kind: kDiv, flag: floor, args: []Expr{e, f}}))
}

// Mod is the remainder of e / f: of the floor division (the sign of f,
// FloorMod) or of truncation (the sign of e, C's %).
func (b *Builder) Mod(e, f Expr, floor bool) Expr {
	if k, ok := f.IsConst(); ok && k != 0 && k != math.MinInt64 {
		return b.Sub(e, b.Scale(b.Div(e, f, floor), k))
	}
	if e.Equal(f) {
		return Const(0) // as e / e is 1
	}
	return b.of(b.atom(Atom{kind: kMod, flag: floor, args: []Expr{e, f}}))
}

// Min is the smallest of the expressions.
func (b *Builder) Min(es ...Expr) Expr { return b.extreme(kMin, es) }

// Max is the largest of the expressions.
func (b *Builder) Max(es ...Expr) Expr { return b.extreme(kMax, es) }

func (b *Builder) extreme(k kind, es []Expr) Expr {
	var args []Expr
	var c int64
	haveConst := false
	for _, e := range es {
		if v, ok := e.IsConst(); ok {
			if !haveConst || k == kMin && v < c || k == kMax && v > c {
				c = v
			}
			haveConst = true
			continue
		}
		if !slices.ContainsFunc(args, e.Equal) {
			args = append(args, e)
		}
	}
	if haveConst && len(args) == 1 {
		// A constant the other argument never passes changes nothing
		// (Clip(Clip(x, -8, 8), -8, 8) is Clip(x, -8, 8)); one it always
		// passes is the result.
		r := staticRange(args[0], maxStaticDepth)
		switch {
		case k == kMin && r.Hi.AtMost(c), k == kMax && r.Lo.AtLeast(c):
			return args[0]
		case k == kMin && r.Lo.AtLeast(c), k == kMax && r.Hi.AtMost(c):
			return Const(c)
		}
	}
	if haveConst {
		args = append(args, Const(c))
	}
	if len(args) == 1 {
		return args[0]
	}
	slices.SortFunc(args, compareExprs)
	return b.of(b.atom(Atom{kind: k, args: args}))
}

// maxStaticDepth bounds how deep staticRange looks, so that a chain of
// Min and Max as deep as the model costs no more to build than to walk.
const maxStaticDepth = 4

// staticRange bounds e whatever its symbols' values, from its form alone:
// a Max holding a constant is at least that constant, a Min at most, a
// value wrapped or converted into a type is within it.
func staticRange(e Expr, depth int) Range {
	r := R(e.c, e.c)
	for _, t := range e.terms {
		ar := staticAtomRange(t.a, depth)
		lo, hi := mulK(ar.Lo, t.k), mulK(ar.Hi, t.k)
		if t.k < 0 {
			lo, hi = hi, lo
		}
		r = Range{add(r.Lo, lo, -1), add(r.Hi, hi, 1)}
	}
	return r
}

func staticAtomRange(a *Atom, depth int) Range {
	all := Range{NegInf, PosInf}
	switch a.kind {
	case kWrap, kConvert, kUnknown:
		if a.limits == nil {
			return all
		}
		return a.r()
	case kMin, kMax:
		if depth == 0 {
			return all
		}
		return extremeRange(a, func(e Expr) Range { return staticRange(e, depth-1) })
	}
	return all
}

// extremeRange bounds a minimum or maximum atom by its arguments' ranges.
func extremeRange(a *Atom, rangeOf func(Expr) Range) Range {
	var r Range
	for i, arg := range a.args {
		ar := rangeOf(arg)
		switch {
		case i == 0:
			r = ar
		case a.kind == kMin:
			r = Range{minBound(r.Lo, ar.Lo), minBound(r.Hi, ar.Hi)}
		default:
			r = Range{maxBound(r.Lo, ar.Lo), maxBound(r.Hi, ar.Hi)}
		}
	}
	return r
}

// Abs is |e| in the integers (Wrap it to the element type: |MIN| does not
// fit).
func (b *Builder) Abs(e Expr) Expr { return b.Max(e, b.Neg(e)) }

// AbsArg tells whether e is |x| (Abs: Max(x, -x)), and gives x.
func (b *Builder) AbsArg(e Expr) (Expr, bool) {
	if len(e.terms) != 1 || e.c != 0 || e.terms[0].k != 1 {
		return Expr{}, false
	}
	a := e.terms[0].a
	if a.kind != kMax || len(a.args) != 2 || !b.Add(a.args[0], a.args[1]).Equal(Const(0)) {
		return Expr{}, false
	}
	return a.args[0], true
}

// Select is one of the expressions, which one depending on a condition
// this package does not follow.
func (b *Builder) Select(es ...Expr) Expr {
	var args []Expr
	for _, e := range es {
		if !slices.ContainsFunc(args, e.Equal) {
			args = append(args, e)
		}
	}
	if len(args) == 1 {
		return args[0]
	}
	slices.SortFunc(args, compareExprs)
	return b.of(b.atom(Atom{kind: kSelect, args: args}))
}

// Where is x where c is not 0, else y: the choice of Select, made by a
// condition this package keeps. Select(x, y) is the same atom wherever x
// and y are, so two of them picked by different conditions would be
// equal; Where(c1, x, y) and Where(c2, x, y) are not (Where(x < 0, x, y)
// - Where(y < 0, x, y) is -3 at x = -3, y = 0).
func (b *Builder) Where(c, x, y Expr) Expr {
	if k, ok := c.IsConst(); ok {
		if k != 0 {
			return x
		}
		return y
	}
	if x.Equal(y) {
		return x
	}
	return b.of(b.atom(Atom{kind: kWhere, args: []Expr{c, x, y}}))
}

// Wrap is e as an integer of range r (an element type's) holds it: e
// itself where it fits, wrapped around (two's complement) otherwise.
func (b *Builder) Wrap(e Expr, r Range) Expr {
	if c, ok := e.IsConst(); ok {
		if w, ok := wrapInto(c, r); ok {
			return Const(w)
		}
	}
	if len(e.terms) == 1 && e.c == 0 && e.terms[0].k == 1 {
		// Wrapping a value already wrapped into a range within r, or a
		// symbol or unknown whose range is within r, changes nothing.
		a := e.terms[0].a
		if (a.kind == kWrap || a.kind == kUnknown || a.kind == kConvert) && a.r().Within(r) {
			return e
		}
	}
	return b.of(b.atom(Atom{kind: kWrap, limits: &limits{r: r}, args: []Expr{e}}))
}

// Unwrap returns the argument and range of an expression that is one
// wrap, Wrap(arg, r).
func (b *Builder) Unwrap(e Expr) (Expr, Range, bool) {
	if len(e.terms) != 1 || e.c != 0 || e.terms[0].k != 1 || e.terms[0].a.kind != kWrap {
		return Expr{}, Range{}, false
	}
	a := e.terms[0].a
	return a.args[0], a.r(), true
}

// HasElements reports whether e depends on an element symbol
// (SymInfo.Element): whether Copy changes it.
func (b *Builder) HasElements(e Expr) bool {
	for _, t := range e.terms {
		if t.a.walk().elements {
			return true
		}
	}
	return false
}

// Inner lists the atoms below the top of es (arguments of their atoms,
// and theirs), shallowest first, that depend on some symbol and are not
// one: the values an expression is made of, which a proof may treat as
// symbols of their own (x for Min(x, 8) / Max(x, 1)). An argument that
// is a sum of two or more atoms is listed too, without its constant
// (W - H for trunc((W - H) / 3) / (W - H), which holds no atom for it).
// At most maxConstAtoms are looked at.
func (b *Builder) Inner(es ...Expr) []Expr {
	seen := make(map[*Atom]bool)
	var queue []*Atom
	for _, e := range es {
		for _, t := range e.terms {
			queue = append(queue, t.a)
		}
	}
	var out []Expr
	listed := make(map[*Atom]bool)
	for len(queue) > 0 && len(seen) < maxConstAtoms {
		a := queue[0]
		queue = queue[1:]
		if seen[a] {
			continue
		}
		seen[a] = true
		for _, arg := range a.args {
			if sum := (Expr{terms: arg.terms}); len(sum.terms) > 1 && !slices.ContainsFunc(out, sum.Equal) {
				out = append(out, sum)
			}
			for _, t := range arg.terms {
				if c := t.a; !listed[c] && c.kind != kSym && len(c.walk().syms) > 0 {
					listed[c] = true
					out = append(out, b.of(c))
				}
				queue = append(queue, t.a)
			}
		}
	}
	return out
}

// Top lists the atoms at the top of es (their terms' atoms) that depend
// on some symbol and are not one, each once: max(a, b) of max(a, b) - 1,
// which Inner, listing what lies below, leaves out.
func (b *Builder) Top(es ...Expr) []Expr {
	var out []Expr
	listed := make(map[*Atom]bool)
	for _, e := range es {
		for _, t := range e.terms {
			if c := t.a; !listed[c] && c.kind != kSym && len(c.walk().syms) > 0 {
				listed[c] = true
				out = append(out, b.of(c))
			}
		}
	}
	return out
}

// Syms lists the symbols e depends on, in increasing order.
func (b *Builder) Syms(e Expr) []Sym {
	var out []Sym
	for _, t := range e.terms {
		out = union(out, t.a.walk().syms)
	}
	return out
}

// Consts lists constants written in e (coefficients, divisors and
// constants of its sub-expressions), to seed searches near them: the
// nearest maxConsts, from the atoms within maxConstAtoms of e, sorted. A
// deep model's atoms hold constants none of the others has (floor(x/3^k)),
// so they are looked for, not remembered.
func (b *Builder) Consts(e Expr) []int64 {
	out := []int64{e.c}
	seen := make(map[*Atom]bool)
	var queue []*Atom
	for _, t := range e.terms {
		out = append(out, t.k)
		queue = append(queue, t.a)
	}
	for len(queue) > 0 && len(seen) < maxConstAtoms && len(out) < maxConsts {
		a := queue[0]
		queue = queue[1:]
		if seen[a] {
			continue
		}
		seen[a] = true
		if a.kind == kFloorDiv || a.kind == kTruncDiv {
			out = append(out, a.divisor())
		}
		for _, arg := range a.args {
			out = append(out, arg.c)
			for _, t := range arg.terms {
				out = append(out, t.k)
				queue = append(queue, t.a)
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out[:min(len(out), maxConsts)]
}

// Copy replaces every element symbol in e by a fresh copy: the value of
// other elements of the same inputs, which the elements of e do not
// share. Dims stay: every element sees the same shape.
func (b *Builder) Copy(e Expr) Expr {
	fresh := make(map[Sym]Expr)
	return b.substitute(e, func(s Sym) (Expr, bool) {
		if !b.syms[s].Element {
			return Expr{}, false
		}
		if f, ok := fresh[s]; ok {
			return f, true
		}
		info := b.syms[s]
		c := b.NewSym(info.Name, true)
		b.syms[c].Of = info.Of
		fresh[s] = b.Var(c)
		return fresh[s], true
	}, make(map[*Atom]Expr))
}

// substitute rebuilds e with some element symbols replaced. The atoms
// without one stay as they are: a deep model's expressions are long chains
// of them, and rebuilding each would cost the whole chain every time.
func (b *Builder) substitute(e Expr, repl func(Sym) (Expr, bool), memo map[*Atom]Expr) Expr {
	out := Const(e.c)
	for _, t := range e.terms {
		out = b.Add(out, b.Scale(b.substituteAtom(t.a, repl, memo), t.k))
	}
	return out
}

func (b *Builder) substituteAtom(a *Atom, repl func(Sym) (Expr, bool), memo map[*Atom]Expr) Expr {
	if !a.walk().elements {
		return b.of(a)
	}
	if r, ok := memo[a]; ok {
		return r
	}
	var r Expr
	args := make([]Expr, len(a.args))
	for i, arg := range a.args {
		args[i] = b.substitute(arg, repl, memo)
	}
	if a.kind == kSym {
		var ok bool
		if r, ok = repl(a.symbol()); !ok {
			r = b.of(a)
		}
	} else {
		r = b.rebuild(a, args)
	}
	memo[a] = r
	return r
}

// OneAtom splits e = k*A + c, an expression of one atom A, into A (as an
// expression), k and c.
func (b *Builder) OneAtom(e Expr) (Expr, int64, int64, bool) {
	if len(e.terms) != 1 {
		return Expr{}, 0, 0, false
	}
	return b.of(e.terms[0].a), e.terms[0].k, e.c, true
}

// Replace rebuilds e with the value x stands for replaced by with
// wherever it occurs: what e is where x equals with. x is one atom of
// coefficient 1, or a sum of atoms, without a constant (anything else
// changes nothing); a sum is replaced in every sum that holds a multiple
// of it: W - H + 1 is w + 1 where w stands for W - H. (The rest keeps
// its atoms: an expression is what it was wherever x equals with.)
func (b *Builder) Replace(e, x, with Expr) Expr {
	if len(x.terms) == 0 || x.c != 0 || len(x.terms) == 1 && x.terms[0].k != 1 {
		return e
	}
	var target *Atom
	var depth uint16
	if len(x.terms) == 1 {
		target = x.terms[0].a
	}
	for _, t := range x.terms {
		depth = max(depth, t.a.depth)
	}
	memo := make(map[*Atom]Expr)
	var expr func(e Expr) Expr
	var atom func(a *Atom) Expr
	expr = func(e Expr) Expr {
		out := Const(e.c)
		for _, t := range e.terms {
			out = b.Add(out, b.Scale(atom(t.a), t.k))
		}
		if target == nil {
			if m, ok := multipleOfSum(out, x); ok {
				out = b.Add(b.Sub(out, b.Scale(x, m)), b.Scale(with, m))
			}
		}
		return out
	}
	atom = func(a *Atom) Expr {
		switch {
		case a == target:
			return with
		case a.depth <= depth || len(a.args) == 0:
			return b.of(a) // too shallow to hold it
		}
		if r, ok := memo[a]; ok {
			return r
		}
		args := make([]Expr, len(a.args))
		for i, arg := range a.args {
			args[i] = expr(arg)
		}
		r := b.rebuild(a, args)
		memo[a] = r
		return r
	}
	return expr(e)
}

// Ratio finds k such that e might be k*f: the ratio of their first
// terms' coefficients (or constants, where f has no term), where it is
// an integer. The caller checks that Scale(f, k) is e.
func (b *Builder) Ratio(e, f Expr) (int64, bool) {
	x, y := e.c, f.c
	if len(f.terms) > 0 {
		if len(e.terms) == 0 || e.terms[0].a != f.terms[0].a {
			return 0, false
		}
		x, y = e.terms[0].k, f.terms[0].k
	}
	if y == 0 || x%y != 0 || x == math.MinInt64 && y == -1 {
		return 0, false
	}
	return x / y, true
}

// multipleOfSum finds m != 0 such that e holds m*x: every atom of x, with
// m times its coefficient.
func multipleOfSum(e, x Expr) (int64, bool) {
	coef := func(a *Atom) int64 {
		for _, t := range e.terms {
			if t.a == a {
				return t.k
			}
		}
		return 0
	}
	first := x.terms[0]
	k := coef(first.a)
	if k == 0 || k%first.k != 0 || k == math.MinInt64 && first.k == -1 {
		return 0, false
	}
	m := k / first.k
	for _, t := range x.terms[1:] {
		if want, ok := mul64(m, t.k); !ok || coef(t.a) != want {
			return 0, false
		}
	}
	return m, true
}

// rebuild makes an atom of a's kind and parameters over other arguments.
func (b *Builder) rebuild(a *Atom, args []Expr) Expr {
	var r Expr
	switch a.kind {
	case kFloorDiv:
		r = b.FloorDivK(args[0], a.divisor())
	case kTruncDiv:
		r = b.TruncDivK(args[0], a.divisor())
	case kDiv:
		r = b.Div(args[0], args[1], a.floors())
	case kMod:
		r = b.Mod(args[0], args[1], a.floors())
	case kMul:
		r = b.Mul(args[0], args[1])
	case kMin:
		r = b.Min(args...)
	case kMax:
		r = b.Max(args...)
	case kWrap:
		r = b.Wrap(args[0], a.r())
	case kSelect:
		r = b.Select(args...)
	case kWhere:
		r = b.Where(args[0], args[1], args[2])
	default:
		r = b.of(a)
	}
	return r
}
