package validate

import (
	"fmt"
	"math"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// compareSlack bounds how far apart two i32 values that float32 rounds
// to the same value can be: within half a spacing of one float32 each,
// a spacing of at most 256 (that of [2^31, 2^32), above which no i32
// rounds).
const compareSlack = 256

// cpuCompare notes an i32 comparison (Equal, NotEqual, Less, LessEqual,
// Greater, GreaterEqual) that OpenVINO's CPU plugin can get wrong: its
// emitters for comparisons are float32 only, so i32 operands are rounded
// to float32 as they are loaded, and two that differ but round alike
// compare as equal. That needs both operands at 2^24 or beyond in
// magnitude (below it every integer is a float32, and a value beyond
// rounds to no value below) and their difference nonzero and at most
// compareSlack: the note is given where the ranges allow that.
// exact_form says whether `irdiv fix` writes Subtract(x, y) op 0
// (ops.AddExactCompare), exact where x - y is an i32 on every element.
func (v *validator) cpuCompare(l *ir.Layer, bc shapeinfer.Broadcast) {
	x, y := v.an.In(l, 0), v.an.In(l, 1)
	if x == nil || y == nil || !x.Int || !y.Int || x.Type != ir.I32 || y.Type != ir.I32 {
		return
	}
	pairs := v.an.Pairs(l, bc)
	if len(pairs) == 0 {
		return
	}
	exact := func(r sym.Range) bool { return within(r, 1<<24-1) }
	risky, wraps := false, false
	var ra, rb, rd sym.Range
	for i, p := range pairs {
		a, b := v.declared.Range(p.A), v.declared.Range(p.B)
		d := v.declared.Range(v.an.B.Sub(p.A, p.B))
		if i == 0 {
			ra, rb, rd = a, b, d
		} else {
			ra, rb, rd = union(ra, a), union(rb, b), union(rd, d)
		}
		wraps = wraps || !i32Range(d)
		close := d.Lo.AtMost(-1) && d.Hi.AtLeast(-compareSlack) || d.Lo.AtMost(compareSlack) && d.Hi.AtLeast(1)
		risky = risky || !exact(a) && !exact(b) && close
	}
	if !risky {
		return
	}
	e := Evidence{{"a", rangeText(ra)}, {"b", rangeText(rb)}, {"difference", rangeText(rd)}, {"exact_form", !wraps}}
	msg := fmt.Sprintf("OpenVINO's CPU plugin computes i32 %s in float32 (its operands rounded to float32 as they are loaded), exact only below 2^24: two operands that differ by less than their rounding compare as equal", l.Type)
	if x, y, ok := cpuCompareExample(l.Type, ra, rb); ok {
		ex := fmt.Sprintf("%d %s %d: exact %v, CPU plugin %v", x, compareSymbol(l.Type), y, compareInt(l.Type, x, y), compareInt(l.Type, int64(float32(int32(x))), int64(float32(int32(y)))))
		e = e.With(Fact{"example", ex})
		msg += "; the operands here can be that large and that close: " + ex
	} else {
		msg += fmt.Sprintf("; the operands here can be that large and that close (A %s, B %s, A - B %s)", rangeText(ra), rangeText(rb), rangeText(rd))
	}
	if wraps {
		msg += fmt.Sprintf("; no exact form: irdiv's form compares A - B with 0, and A - B can be %s here, beyond i32, where the Subtract wraps", rangeText(rd))
	} else {
		msg += v.fixWrites("Subtract(A, B) compared with 0, which the plugin computes exactly (a nonzero integer keeps its sign in float32; A - B is an i32 here)")
	}
	v.r.add(Note, CPUI32Float32, l, e, "%s", msg)
}

// compareSymbol writes a comparison's operator.
func compareSymbol(typ string) string {
	switch strings.ToLower(typ) {
	case "equal":
		return "=="
	case "notequal":
		return "!="
	case "less":
		return "<"
	case "lessequal":
		return "<="
	case "greater":
		return ">"
	}
	return ">="
}

// compareInt is the comparison of typ on integers.
func compareInt(typ string, x, y int64) bool {
	switch strings.ToLower(typ) {
	case "equal":
		return x == y
	case "notequal":
		return x != y
	case "less":
		return x < y
	case "lessequal":
		return x <= y
	case "greater":
		return x > y
	}
	return x >= y
}

// cpuCompareExample finds operands in the ranges that the CPU plugin's
// comparison gets wrong: two that round to the same float32.
func cpuCompareExample(typ string, a, b sym.Range) (int64, int64, bool) {
	var candidates [][2]int64
	for _, base := range []int64{1 << 24, -1<<24 - 1, math.MaxInt32 - 1, math.MinInt32 + 1, a.Lo.V, a.Hi.V - 1} {
		candidates = append(candidates, [2]int64{base, base + 1}, [2]int64{base + 1, base})
	}
	for _, c := range candidates {
		x, y := c[0], c[1]
		if !a.Contains(x) || !b.Contains(y) || x != int64(int32(x)) || y != int64(int32(y)) {
			continue
		}
		if compareInt(typ, x, y) != compareInt(typ, int64(float32(int32(x))), int64(float32(int32(y)))) {
			return x, y, true
		}
	}
	return 0, 0, false
}
