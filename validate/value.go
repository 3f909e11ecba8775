package validate

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
)

// interval is a closed range of integer values, [lo, hi].
type interval struct{ lo, hi int64 }

func point(v int64) interval { return interval{v, v} }

func (i interval) isPoint() bool         { return i.lo == i.hi }
func (i interval) contains(v int64) bool { return i.lo <= v && v <= i.hi }
func (i interval) union(j interval) interval {
	return interval{min(i.lo, j.lo), max(i.hi, j.hi)}
}

func (i interval) String() string {
	if i.isPoint() {
		return strconv.FormatInt(i.lo, 10)
	}
	lo, hi := strconv.FormatInt(i.lo, 10), strconv.FormatInt(i.hi, 10)
	// The int64 limits, which unbounded dims and i64 ranges reach, in
	// the form people read.
	if i.lo == math.MinInt64 {
		lo = "-2^63"
	}
	if i.hi == math.MaxInt64 {
		hi = "2^63-1"
	}
	return "[" + lo + ", " + hi + "]"
}

// typeRange is every value of an integer type, u64 cut at 2^63-1.
func typeRange(t ir.ElementType) interval {
	switch t {
	case ir.I8:
		return interval{math.MinInt8, math.MaxInt8}
	case ir.I16:
		return interval{math.MinInt16, math.MaxInt16}
	case ir.I32:
		return interval{math.MinInt32, math.MaxInt32}
	case ir.U8:
		return interval{0, math.MaxUint8}
	case ir.U16:
		return interval{0, math.MaxUint16}
	case ir.U32:
		return interval{0, math.MaxUint32}
	case ir.U64:
		return interval{0, math.MaxInt64}
	}
	return interval{math.MinInt64, math.MaxInt64}
}

// fits cuts i to the range of type t; ok is false when a value would not
// fit (an overflow, whose wrapped result is unknown).
func fitTo(i interval, t ir.ElementType) (interval, bool) {
	r := typeRange(t)
	if i.lo < r.lo || i.hi > r.hi {
		return r, false
	}
	return i, true
}

// maxElems bounds the elements the folding tracks one by one; larger
// values keep only the range of all their elements.
const maxElems = 4096

// value is what the folding knows of one output of a layer: its type and,
// when its shape is known and small, the range of each element; otherwise
// only the range of all its elements.
//
// Tight says that every value in each element's range can occur: true
// for constants and for the values of a model input, which a user may set
// to anything, and kept through a constant added, subtracted or divided
// by; false for ranges that over-approximate (the output of an op irdiv
// does not fold, a dimension that ShapeOf reads from a port declared -1,
// a product). Deps are the model inputs the value depends on: two tight
// values are only reachable together when they share none.
type value struct {
	typ   ir.ElementType
	shape []int64 // nil: unknown
	elems []interval
	all   interval
	tight bool
	deps  []*ir.Layer
	// shapeOf says that the value was computed from shapes (ShapeOf),
	// not from the data a user gives.
	shapeOf bool
}

// unknown is a value of type t about which nothing is known.
func unknown(t ir.ElementType, shape []int64) value {
	return value{typ: t, shape: shape, all: typeRange(t)}
}

// exact is the value of a constant tensor of integer type, or unknown when
// it is too large or not an integer type.
func exact(t *ir.Tensor) value {
	if !t.Type.IsInteger() {
		return unknown(t.Type, t.Shape)
	}
	v := value{typ: t.Type, shape: slices.Clone(t.Shape), tight: true}
	n := t.Len()
	for i := range n {
		x, ok := intAt(t, i)
		if !ok {
			return unknown(t.Type, t.Shape)
		}
		if i == 0 {
			v.all = point(x)
		}
		v.all = v.all.union(point(x))
		if n <= maxElems {
			v.elems = append(v.elems, point(x))
		}
	}
	if n == 0 {
		v.all = typeRange(t.Type)
	}
	return v
}

// intAt is element i of an integer tensor; ok is false for a u64 above
// 2^63-1.
func intAt(t *ir.Tensor, i int) (int64, bool) {
	switch t.Type {
	case ir.I8:
		return int64(ir.View[int8](t)[i]), true
	case ir.I16:
		return int64(ir.View[int16](t)[i]), true
	case ir.I32:
		return int64(ir.View[int32](t)[i]), true
	case ir.I64:
		return ir.View[int64](t)[i], true
	case ir.U8:
		return int64(ir.View[uint8](t)[i]), true
	case ir.U16:
		return int64(ir.View[uint16](t)[i]), true
	case ir.U32:
		return int64(ir.View[uint32](t)[i]), true
	case ir.U64:
		v := ir.View[uint64](t)[i]
		return int64(v), v <= math.MaxInt64
	}
	return 0, false
}

// isConst reports whether every element is known exactly.
func (v value) isConst() bool {
	if v.elems == nil {
		return v.shape != nil && numElems(v.shape) == 1 && v.all.isPoint()
	}
	for _, e := range v.elems {
		if !e.isPoint() {
			return false
		}
	}
	return true
}

// ints returns the elements of a constant value.
func (v value) ints() ([]int64, bool) {
	if !v.isConst() {
		return nil, false
	}
	if v.elems == nil {
		return []int64{v.all.lo}, true
	}
	out := make([]int64, len(v.elems))
	for i, e := range v.elems {
		out[i] = e.lo
	}
	return out, true
}

// elem returns the range of element i (the range of all when elements are
// not tracked).
func (v value) elem(i int) interval {
	if v.elems != nil && i < len(v.elems) {
		return v.elems[i]
	}
	return v.all
}

// withElems builds a value from per-element ranges.
func withElems(t ir.ElementType, shape []int64, elems []interval, tight, shapeOf bool) value {
	v := value{typ: t, shape: shape, tight: tight, shapeOf: shapeOf}
	if len(elems) == 0 {
		v.all = typeRange(t)
		if numElems(shape) == 0 {
			v.elems = []interval{}
		}
		return v
	}
	v.all = elems[0]
	for _, e := range elems[1:] {
		v.all = v.all.union(e)
	}
	if len(elems) <= maxElems {
		v.elems = elems
	}
	return v
}

// reachableTogether tells whether any element range of a and any of b
// hold every pair of their values at once: both tight and independent.
func reachableTogether(a, b value) bool {
	if !a.tight || !b.tight {
		return false
	}
	for _, d := range a.deps {
		if slices.Contains(b.deps, d) {
			return false
		}
	}
	return true
}

// unionDeps merges the inputs' dependencies.
func unionDeps(vs ...value) []*ir.Layer {
	var deps []*ir.Layer
	for _, v := range vs {
		for _, d := range v.deps {
			if !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
	}
	return deps
}

func numElems(shape []int64) int {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	return n
}

// String prints a value compactly: "= [1,3,270,480]", "= 67" or
// "in [0, 2147483647]".
func (v value) String() string {
	if ints, ok := v.ints(); ok && len(ints) <= 8 {
		parts := make([]string, len(ints))
		for i, x := range ints {
			parts[i] = strconv.FormatInt(x, 10)
		}
		if len(v.shape) == 0 {
			return "= " + parts[0]
		}
		return "= [" + strings.Join(parts, ",") + "]"
	}
	if v.elems != nil && len(v.elems) <= 4 && v.shape != nil {
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = e.String()
		}
		return "in [" + strings.Join(parts, " ") + "]"
	}
	return "in " + v.all.String()
}

// Interval arithmetic, saturating to report overflow.

func add(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

func mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, true
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, false
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// binary applies an arithmetic op to two ranges; overflow is false only
// when no result overflows int64.
func binary(op string, a, b interval) (interval, bool) {
	switch op {
	case "add":
		lo, o1 := add(a.lo, b.lo)
		hi, o2 := add(a.hi, b.hi)
		return interval{lo, hi}, !o1 && !o2
	case "sub":
		if b.lo == math.MinInt64 || b.hi == math.MinInt64 {
			return interval{}, false
		}
		lo, o1 := add(a.lo, -b.hi)
		hi, o2 := add(a.hi, -b.lo)
		return interval{lo, hi}, !o1 && !o2
	case "mul":
		var r interval
		for i, c := range [][2]int64{{a.lo, b.lo}, {a.lo, b.hi}, {a.hi, b.lo}, {a.hi, b.hi}} {
			p, over := mul(c[0], c[1])
			if over {
				return interval{}, false
			}
			if i == 0 {
				r = point(p)
			}
			r = r.union(point(p))
		}
		return r, true
	}
	return interval{}, false
}

// divide is the range of a / b for b in the range minus zero; ok is false
// when b can only be zero or a quotient overflows.
func divide(a, b interval, floor bool) (interval, bool) {
	var bs []int64
	for _, c := range []int64{b.lo, b.hi, -1, 1} {
		if c != 0 && b.contains(c) {
			bs = append(bs, c)
		}
	}
	if len(bs) == 0 {
		return interval{}, false
	}
	var r interval
	for i, x := range []int64{a.lo, a.hi} {
		for j, y := range bs {
			if x == math.MinInt64 && y == -1 {
				return interval{}, false
			}
			q := divInt(x, y, floor)
			if i == 0 && j == 0 {
				r = point(q)
			}
			r = r.union(point(q))
		}
	}
	return r, true
}

// divInt is exact integer division, floor or truncation.
func divInt(a, b int64, floor bool) int64 {
	q := a / b
	if floor && a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// shapeText prints dims as OpenVINO does: [1,3,270,480].
func shapeText(dims []int64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
