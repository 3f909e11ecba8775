package sym

import (
	"math"
	"math/bits"
	"strconv"
)

// Bound is an integer or an infinity: the end of a range. Arithmetic on
// bounds saturates to the infinity of the overflow's direction, so that a
// bound whose true value lies beyond int64 still compares correctly with
// every int64.
type Bound struct {
	V   int64
	Inf int8 // -1: minus infinity, +1: plus infinity, 0: the finite V
}

// Finite is the bound v.
func Finite(v int64) Bound { return Bound{V: v} }

// The infinities.
var (
	NegInf = Bound{Inf: -1}
	PosInf = Bound{Inf: 1}
)

// IsFinite reports whether b is an integer.
func (b Bound) IsFinite() bool { return b.Inf == 0 }

// Less reports whether b < c.
func (b Bound) Less(c Bound) bool {
	if b.Inf != c.Inf {
		return b.Inf < c.Inf
	}
	return b.Inf == 0 && b.V < c.V
}

// AtLeast reports whether b >= v.
func (b Bound) AtLeast(v int64) bool { return !b.Less(Finite(v)) }

// AtMost reports whether b <= v.
func (b Bound) AtMost(v int64) bool { return !Finite(v).Less(b) }

func (b Bound) String() string {
	switch b.Inf {
	case -1:
		return "-inf"
	case 1:
		return "inf"
	}
	return strconv.FormatInt(b.V, 10)
}

func maxBound(a, b Bound) Bound {
	if a.Less(b) {
		return b
	}
	return a
}

func minBound(a, b Bound) Bound {
	if b.Less(a) {
		return b
	}
	return a
}

func neg(b Bound) Bound {
	switch {
	case b.Inf != 0:
		return Bound{Inf: -b.Inf}
	case b.V == math.MinInt64:
		return PosInf // 2^63 lies above every int64
	}
	return Finite(-b.V)
}

// add sums two bounds; an infinity of each sign together gives tie.
// tie also says which end the sum bounds: -1 a lower bound, +1 an upper
// one. A sum beyond int64 saturates to the infinity of its direction,
// but not past the end it bounds: a lower bound whose true value lies
// above every int64 becomes MaxInt64, not +inf, since adding a negative
// term to +inf would keep +inf where the true sum is small again (2^63 -
// (2^63 - 2) is 2); and an upper bound likewise MinInt64. Lowering a
// lower bound, or raising an upper one, keeps it sound.
func add(a, b Bound, tie int8) Bound {
	a, b = toward(a, tie), toward(b, tie)
	switch {
	case a.Inf != 0 && b.Inf != 0 && a.Inf != b.Inf:
		return Bound{Inf: tie}
	case a.Inf != 0:
		return a
	case b.Inf != 0:
		return b
	}
	s := a.V + b.V
	if (a.V >= 0) == (b.V >= 0) && (s >= 0) != (a.V >= 0) {
		if a.V >= 0 {
			return toward(PosInf, tie)
		}
		return toward(NegInf, tie)
	}
	return Finite(s)
}

// toward keeps a bound on its side of int64: +inf as a lower bound can
// only be a saturated sum or product (no value lies above every int64),
// which MaxInt64 bounds soundly; -inf as an upper bound likewise
// MinInt64.
func toward(b Bound, tie int8) Bound {
	switch {
	case tie < 0 && b.Inf > 0:
		return Finite(math.MaxInt64)
	case tie > 0 && b.Inf < 0:
		return Finite(math.MinInt64)
	}
	return b
}

// mulK multiplies a bound by an integer.
func mulK(b Bound, k int64) Bound {
	switch {
	case k == 0:
		return Finite(0)
	case b.Inf != 0:
		if k < 0 {
			return Bound{Inf: -b.Inf}
		}
		return b
	}
	p, ok := mul64(b.V, k)
	if !ok {
		if (b.V < 0) != (k < 0) {
			return NegInf
		}
		return PosInf
	}
	return Finite(p)
}

// mulBounds multiplies two bounds (0 times an infinity is 0).
func mulBounds(a, b Bound) Bound {
	switch {
	case a.Inf == 0:
		return mulK(b, a.V)
	case b.Inf == 0:
		return mulK(a, b.V)
	}
	return Bound{Inf: a.Inf * b.Inf}
}

// mul64 is a*b and whether it fits in int64.
func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(absU(a), absU(b))
	negative := (a < 0) != (b < 0)
	if hi != 0 || lo > math.MaxInt64 && !(negative && lo == 1<<63) {
		return 0, false
	}
	if negative {
		return int64(-lo), true
	}
	return int64(lo), true
}

func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, !((a >= 0) == (b >= 0) && (s >= 0) != (a >= 0))
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-a) // -MinInt64 wraps to 2^63, right as a uint64
	}
	return uint64(a)
}

// floorDiv is floor(a / k) for k > 0.
func floorDiv(a, k int64) int64 {
	q := a / k
	if a%k != 0 && a < 0 {
		q--
	}
	return q
}

// ceilDiv is ceil(a / k) for k > 0.
func ceilDiv(a, k int64) int64 {
	q := a / k
	if a%k != 0 && a > 0 {
		q++
	}
	return q
}

// divBound divides a bound by k > 0, rounding down or up.
func divBound(b Bound, k int64, up bool) Bound {
	if b.Inf != 0 {
		return b
	}
	if up {
		return Finite(ceilDiv(b.V, k))
	}
	return Finite(floorDiv(b.V, k))
}
