package validate

import (
	"fmt"
	"math"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// divide examines one Divide: its attributes, and for integers the values
// that reach it.
func (v *validator) divide(l *ir.Layer, d *ops.Divide) {
	for _, w := range d.Warnings {
		v.r.add(Warning, "divide/attribute", l, nil, "%s", w)
	}
	info := v.fold.infos[l][0]
	if !info.Type.IsInteger() {
		return
	}
	a := v.fold.values[v.sourceOf(l, 0)]
	b := v.fold.values[v.sourceOf(l, 1)]
	out := v.fold.values[ir.Output{Layer: l}]
	expr := v.expr(ir.Output{Layer: l}, 0)
	evidence := func(extra map[string]any) map[string]any {
		e := map[string]any{"expression": expr, "a": a.String(), "b": b.String()}
		for k, x := range extra {
			e[k] = x
		}
		return e
	}
	pairs := operandPairs(a, b, d.Broadcast, out.shape)
	v.faults(l, info.Type, a, b, pairs, evidence)
	signed := info.Type.IsSigned()
	agree, reason := true, ""
	if signed && d.PythonDiv {
		agree, reason = floorIsTruncation(pairs)
	}
	if signed && d.PythonDiv && v.onnx {
		v.floorTruncation(l, d, a, b, pairs, agree, reason, evidence)
	}
	v.cpu(l, info.Type, d, a, b, agree, evidence)
}

// pair is the ranges of the two operands of some output elements; exact
// says that both are single values.
type pair struct {
	a, b  interval
	index int // a flat output index they give, -1 for all
}

// operandPairs lists the operand ranges element by element where the
// shapes are known and an operand is tracked element by element, else
// one pair of the ranges of all elements.
func operandPairs(a, b value, bc shapeinfer.Broadcast, outShape []int64) []pair {
	all := []pair{{a.all, b.all, -1}}
	if a.elems == nil && b.elems == nil {
		return all
	}
	if a.shape == nil || b.shape == nil || outShape == nil || numElems(outShape) > maxElems {
		// Where the output's layout is unknown but one operand alone is
		// tracked element by element, each of its elements still meets
		// only the other's range.
		switch {
		case a.elems != nil && b.elems == nil:
			return eachElem(a.elems, func(e interval) pair { return pair{e, b.all, -1} })
		case b.elems != nil && a.elems == nil:
			return eachElem(b.elems, func(e interval) pair { return pair{a.all, e, -1} })
		}
		return all
	}
	aOff, bOff := len(outShape)-len(a.shape), len(outShape)-len(b.shape)
	if bc.Mode == shapeinfer.PDPD {
		aOff, bOff = 0, shapeinfer.PDPDAxis(len(a.shape), len(b.shape), bc.Axis)
	}
	if aOff < 0 || bOff < 0 {
		return all
	}
	var pairs []pair
	coord := make([]int64, len(outShape))
	for flat := range numElems(outShape) {
		rem := flat
		for i := len(outShape) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % outShape[i]
			rem /= int(outShape[i])
		}
		pairs = append(pairs, pair{a.elem(shapeinfer.BroadcastIndex(coord, a.shape, aOff)), b.elem(shapeinfer.BroadcastIndex(coord, b.shape, bOff)), flat})
	}
	return pairs
}

func eachElem(elems []interval, pairOf func(interval) pair) []pair {
	pairs := make([]pair, len(elems))
	for i, e := range elems {
		pairs[i] = pairOf(e)
	}
	return pairs
}

// faults reports a zero divisor that is certain (an error) and MIN / -1
// that is possible (a warning).
func (v *validator) faults(l *ir.Layer, t ir.ElementType, a, b value, pairs []pair, evidence func(map[string]any) map[string]any) {
	for _, p := range pairs {
		if p.b == point(0) && p.index >= 0 {
			v.r.add(Error, "divide/zero-divisor", l, evidence(map[string]any{"index": p.index}),
				"the divisor is 0 at flat output index %d: integer division by zero", p.index)
			break
		}
	}
	if !t.IsSigned() {
		return
	}
	// Only values known to be reachable count: a range that merely
	// over-approximates holds MIN and -1 without meaning it.
	if !reachableTogether(a, b) {
		return
	}
	minimum := typeRange(t).lo
	for _, p := range pairs {
		if p.a.contains(minimum) && p.b.contains(-1) {
			v.r.add(Warning, "divide/overflow", l, evidence(map[string]any{"example": fmt.Sprintf("%d / -1", minimum)}),
				"the dividend can be %d where the divisor can be -1: integer division overflow (%d / -1 has no %s result)", minimum, minimum, t)
			return
		}
	}
}

// floorIsTruncation tells whether floor and truncation agree on every
// pair, and why: the operands never have opposite signs, or every
// division is exact.
func floorIsTruncation(pairs []pair) (bool, string) {
	nonNegative, exactDivision := true, true
	for _, p := range pairs {
		sameSign := p.a.lo >= 0 && p.b.lo >= 0 || p.a.hi <= 0 && p.b.hi <= 0 || p.a == point(0)
		exact := p.a.isPoint() && p.b.isPoint() && p.b.lo != 0 && p.a.lo%p.b.lo == 0 || p.b == point(1) || p.b == point(-1)
		if !sameSign && !exact {
			return false, ""
		}
		nonNegative = nonNegative && sameSign
		exactDivision = exactDivision && exact
	}
	switch {
	case nonNegative:
		return true, "the operands never have opposite signs"
	case exactDivision:
		return true, "every division is exact"
	}
	return true, "on every element the operands have the same sign or divide exactly"
}

// counterExample finds a / b, a in p.a and b in p.b, whose floor and
// truncation differ: opposite signs and a remainder.
func counterExample(p pair) (int64, int64, bool) {
	var bs, as []int64
	for _, c := range []int64{2, -2, 3, -3, p.b.lo, p.b.hi, p.b.lo + 1, p.b.hi - 1} {
		if c != 0 && p.b.contains(c) {
			bs = append(bs, c)
		}
	}
	for _, y := range bs {
		as = as[:0]
		for _, c := range []int64{-abs(y) - 1, abs(y) + 1, -1, 1, p.a.lo, p.a.hi, p.a.lo + 1, p.a.hi - 1} {
			if p.a.contains(c) {
				as = append(as, c)
			}
		}
		for _, x := range as {
			if (x < 0) != (y < 0) && x != 0 && x%y != 0 && !(x == math.MinInt64 && y == -1) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// floorTruncation classifies a flooring Divide of a model from ONNX:
// a note when floor and truncation provably agree, an error when values
// the model admits make them differ, a warning when ranges that
// over-approximate allow it.
func (v *validator) floorTruncation(l *ir.Layer, d *ops.Divide, a, b value, pairs []pair, agree bool, reason string, evidence func(map[string]any) map[string]any) {
	if agree {
		// Where the operands come from shapes, OpenVINO's reshape may give
		// the model other ones: the proof must hold for any input shape.
		ga, gb := v.general.values[v.sourceOf(l, 0)], v.general.values[v.sourceOf(l, 1)]
		generalPairs := operandPairs(ga, gb, d.Broadcast, v.general.values[ir.Output{Layer: l}].shape)
		if always, why := floorIsTruncation(generalPairs); always {
			where := ""
			if a.shapeOf || b.shapeOf {
				where = " whatever the input shapes"
			}
			v.r.add(Note, "divide/floor-trunc-agree", l, evidence(map[string]any{"reason": why + where}),
				"m_pythondiv=true floors where ONNX truncates, but here they agree: %s%s (A %s, B %s)", why, where, a, b)
			return
		}
		e := evidence(map[string]any{"reason": reason, "a_any_shape": ga.String(), "b_any_shape": gb.String()})
		msg := fmt.Sprintf("m_pythondiv=true floors where ONNX truncates; at the declared input shapes they agree (%s: A %s, B %s), but irdiv cannot prove it for other input shapes, which a reshape may give (A %s, B %s)", reason, a, b, ga, gb)
		for _, p := range generalPairs {
			if x, y, ok := counterExample(p); ok {
				e["counter_example"] = fmt.Sprintf("%d / %d: ONNX gives %d, this IR gives %d", x, y, divInt(x, y, false), divInt(x, y, true))
				msg += "; if such values reach it: " + e["counter_example"].(string)
				break
			}
		}
		v.r.add(Warning, "divide/floor-trunc-reshape", l, e, "%s", msg)
		return
	}
	for _, p := range pairs {
		x, y, ok := counterExample(p)
		if !ok {
			continue
		}
		ex := fmt.Sprintf("%d / %d: ONNX gives %d, this IR gives %d", x, y, divInt(x, y, false), divInt(x, y, true))
		e := evidence(map[string]any{"counter_example": ex, "a_value": x, "b_value": y, "truncated": divInt(x, y, false), "floored": divInt(x, y, true)})
		if p.index >= 0 {
			e["index"] = p.index
		}
		switch {
		case p.a.isPoint() && p.b.isPoint():
			v.r.add(Error, "divide/floor-trunc", l, e,
				"floors where ONNX truncates, and the values that reach it differ: %s", ex)
		case reachableTogether(a, b):
			v.r.add(Error, "divide/floor-trunc", l, e,
				"floors where ONNX truncates, and the model admits inputs where they differ: %s", ex)
		default:
			v.r.add(Warning, "divide/floor-trunc-possible", l, e,
				"floors where ONNX truncates; irdiv cannot prove that the operands never have opposite signs (A %s, B %s), and if such values reach it: %s", a, b, ex)
		}
		return
	}
	v.r.add(Warning, "divide/floor-trunc-possible", l, evidence(nil),
		"floors where ONNX truncates, and irdiv cannot prove that they agree (A %s, B %s)", a, b)
}

// cpu notes what OpenVINO's CPU plugin computes differently: it ignores
// m_pythondiv (truncates), divides i32 in float32 and narrows i64 to i32.
func (v *validator) cpu(l *ir.Layer, t ir.ElementType, d *ops.Divide, a, b value, agree bool, evidence func(map[string]any) map[string]any) {
	if t.IsSigned() && d.PythonDiv && !agree {
		v.r.add(Note, "cpu/pythondiv-ignored", l, evidence(map[string]any{"example": "-3 / 2: this IR gives -2, the CPU plugin gives -1"}),
			"OpenVINO's CPU plugin ignores m_pythondiv and truncates, so its results differ from this IR's floor where the operands have opposite signs (-3 / 2 gives -1 there, -2 here) (#38248)")
	}
	if t != ir.I32 && t != ir.I64 {
		return
	}
	limit := int64(1 << 24)
	if t == ir.I64 {
		limit = 1<<31 - 1
	}
	if !(a.all.hi > limit || a.all.lo < -limit || b.all.hi > limit || b.all.lo < -limit) {
		return
	}
	x, y, ok := cpuExample(t, a.all, b.all)
	msg := "OpenVINO's CPU plugin divides i32 in float32, exact only below 2^24 (#35830)"
	code := "cpu/i32-float32"
	if t == ir.I64 {
		msg = "OpenVINO's CPU plugin narrows i64 to i32 and divides in float32 (#37766)"
		code = "cpu/i64-narrowed"
	}
	e := evidence(nil)
	if ok {
		ex := fmt.Sprintf("%d / %d: exact %d, CPU plugin %d", x, y, divInt(x, y, false), cpuDivide(t, x, y))
		e["example"] = ex
		msg += "; the operands here can be that large: " + ex
	} else {
		msg += fmt.Sprintf("; the operands here can be that large (A %s, B %s)", a, b)
	}
	v.r.add(Note, code, l, e, "%s", msg)
}

// cpuDivide is the CPU plugin's integer division, as its x64 JIT computes
// it: i64 narrowed to i32, both converted to float32, divided, truncated.
func cpuDivide(t ir.ElementType, a, b int64) int64 {
	if t == ir.I64 {
		a, b = int64(int32(a)), int64(int32(b))
	}
	if b == 0 {
		return 0
	}
	q := float32(a) / float32(b)
	return int64(int32(math.Trunc(float64(q))))
}

// cpuExample finds operands in the ranges where the CPU plugin's result
// differs from the exact truncated quotient.
func cpuExample(t ir.ElementType, a, b interval) (int64, int64, bool) {
	// The examples of divide-spec.md C.1 first, then the ends of the ranges.
	as := []int64{0x40000001, 1<<24 + 1, -0x40000001, a.hi, a.lo}
	if t == ir.I64 {
		as = []int64{1 << 31, 1<<31 - 1, 1 << 62, a.hi, a.lo}
	}
	bs := []int64{5, 11, 3, 7, -3, 2, b.lo, b.hi}
	for _, x := range as {
		for _, y := range bs {
			if !a.contains(x) || !b.contains(y) || y == 0 || x == math.MinInt64 && y == -1 {
				continue
			}
			if cpuDivide(t, x, y) != divInt(x, y, false) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// expr prints the sub-graph that computes o as one line, with the folded
// value or range of each step: Divide(Squeeze(ShapeOf("x") = [1,3]) = 3,
// Const = 2) = 1.
func (v *validator) expr(o ir.Output, depth int) string {
	l := o.Layer
	if l == nil {
		return "?"
	}
	val := v.fold.values[o]
	shown := ""
	if val.typ.IsInteger() && (val.isConst() || val.all != typeRange(val.typ)) {
		shown = " " + val.String()
	}
	switch strings.ToLower(l.Type) {
	case "const", "constant":
		return "Const" + shown
	case "parameter":
		return fmt.Sprintf("Parameter(%q)%s", l.Name, shown)
	case "shapeof":
		src := v.sourceOf(l, 0)
		name := "?"
		if src.Layer != nil {
			name = src.Layer.Name
		}
		return fmt.Sprintf("ShapeOf(%q)%s", name, shown)
	}
	if depth >= 6 {
		return l.Type + "(...)" + shown
	}
	var args []string
	for i := range l.Inputs {
		args = append(args, v.expr(v.sourceOf(l, i), depth+1))
	}
	return fmt.Sprintf("%s(%s)%s", l.Type, strings.Join(args, ", "), shown)
}
