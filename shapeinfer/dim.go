// Package shapeinfer implements OpenVINO's partial shapes and the element-wise
// shape rules of Divide-1.
//
// A Dim is a closed interval [Min, Max] of non-negative int64 values, where
// Max == Unbounded means "no upper bound". A Shape is either of dynamic rank or
// a list of Dims. Both print and parse in OpenVINO's notation: "3", "?",
// "2..224", "..10", "6..", "[?,3,2..224]" and "[...]".
//
// The broadcast rules (none, numpy, pdpd) follow
// src/core/shape_inference/include/eltwise_shape_inference.hpp and
// src/core/src/partial_shape.cpp; every failure reports OpenVINO's sentence
// "Argument shapes are inconsistent." wrapped around ErrShape.
package shapeinfer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Unbounded is the Max of a Dim without an upper bound.
const Unbounded = math.MaxInt64

// Dim is a dimension: the closed interval [Min, Max].
type Dim struct {
	Min, Max int64
}

// Static returns the dimension of exactly n elements.
func Static(n int64) Dim { return Dim{n, n} }

// Dynamic returns the fully dynamic dimension [0, ∞), printed "?".
func Dynamic() Dim { return Dim{0, Unbounded} }

// Interval returns [min, max] with OpenVINO's conventions: a negative min
// becomes 0 and a negative max becomes unbounded.
func Interval(min, max int64) Dim {
	if min < 0 {
		min = 0
	}
	if max < 0 {
		max = Unbounded
	}
	return Dim{min, max}
}

// IsStatic reports whether the dimension has a single value.
func (d Dim) IsStatic() bool { return d.Min == d.Max }

// IsDynamic reports whether the dimension is the full range [0, ∞).
func (d Dim) IsDynamic() bool { return d.Min == 0 && d.Max == Unbounded }

// Contains reports whether n lies in the interval.
func (d Dim) Contains(n int64) bool { return d.Min <= n && n <= d.Max }

// String prints the dimension as OpenVINO does: "3", "?", "1..10", "6..", "..10".
func (d Dim) String() string {
	switch {
	case d.IsStatic():
		return strconv.FormatInt(d.Min, 10)
	case d.Min > 0 && d.Max == Unbounded:
		return strconv.FormatInt(d.Min, 10) + ".."
	case d.Min > 0:
		return strconv.FormatInt(d.Min, 10) + ".." + strconv.FormatInt(d.Max, 10)
	case d.Max != Unbounded:
		return ".." + strconv.FormatInt(d.Max, 10)
	default:
		return "?"
	}
}

// ParseDim parses one dimension: a number, "?" or "-1", or an interval
// "a..b", "..b", "a..". Surrounding white space is ignored.
func ParseDim(s string) (Dim, error) {
	s = strings.TrimSpace(s)
	if s == "?" || s == "-1" {
		return Dynamic(), nil
	}
	lo, hi, isInterval := strings.Cut(s, "..")
	if !isInterval {
		n, ok := parseBound(s)
		if !ok {
			return Dim{}, fmt.Errorf("shapeinfer: Cannot parse dimension: %q", s)
		}
		return Static(n), nil
	}
	d := Dynamic()
	if lo != "" {
		n, ok := parseBound(lo)
		if !ok {
			return Dim{}, fmt.Errorf("shapeinfer: Cannot parse min bound: %q", lo)
		}
		d.Min = n
	}
	if hi != "" {
		n, ok := parseBound(hi)
		if !ok {
			return Dim{}, fmt.Errorf("shapeinfer: Cannot parse max bound: %q", hi)
		}
		d.Max = n
	}
	if d.Min > d.Max {
		return Dim{}, fmt.Errorf("shapeinfer: Cannot parse dimension: %q (min bound above max bound)", s)
	}
	return d, nil
}

// parseBound accepts only decimal digits, as OpenVINO's dimension parser does.
func parseBound(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// Merge returns the intersection of two dimensions; ok is false when it is empty.
func Merge(d1, d2 Dim) (Dim, bool) {
	d := Dim{max(d1.Min, d2.Min), min(d1.Max, d2.Max)}
	return d, d.Min <= d.Max
}

// BroadcastMerge merges two dimensions under numpy broadcasting with the
// "interval contains 1" rule of current OpenVINO: if both contain 1 the result
// is their hull, if only one does the result is the other, otherwise the two
// must merge.
func BroadcastMerge(d1, d2 Dim) (Dim, bool) {
	one1, one2 := d1.Contains(1), d2.Contains(1)
	switch {
	case one1 && one2:
		return Dim{min(d1.Min, d2.Min), max(d1.Max, d2.Max)}, true
	case one1:
		return d2, true
	case one2:
		return d1, true
	default:
		return Merge(d1, d2)
	}
}
