package validate

import (
	"fmt"
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// cpuSelect notes an i32 or i64 Select whose values may pass 2^24:
// OpenVINO's CPU plugin has a float32 emitter only for Select
// (jit_select_emitter), so the value it passes on is rounded to float32.
// exact_form says whether `irdiv fix` writes y + Convert(c)*(x - y)
// (ops.AddExactSelect), exact in the wrapping i32 arithmetic the plugin
// computes those ops in: for i32, always; for i64, where the values are
// i32s, which the plugin holds. A fixed model has no Select there.
func (v *validator) cpuSelect(l *ir.Layer) {
	t := v.infos[l][0].Type
	if t != ir.I32 && t != ir.I64 {
		return
	}
	x, y := v.an.In(l, 1), v.an.In(l, 2)
	if x == nil || y == nil || !x.Int || !y.Int {
		return
	}
	r := union(v.declared.Range(v.an.All(x)), v.declared.Range(v.an.All(y)))
	if within(r, 1<<24) {
		return
	}
	narrowed := t == ir.I64 && !i32Range(r)
	code, msg := CPUI32Float32, "OpenVINO's CPU plugin computes i32 Select in float32 (its values rounded to float32 as they pass), exact only below 2^24 (#35830)"
	if t == ir.I64 {
		code, msg = CPUI64Narrowed, "OpenVINO's CPU plugin narrows i64 to i32 and computes Select in float32, exact only below 2^24 (#37766, #35830)"
	}
	e := Evidence{{"values", rangeText(r)}, {"exact_form", !narrowed}}
	if w, ok := cpuSelectExample(r); ok {
		ex := fmt.Sprintf("%d passes as %d", w, cpuSelectValue(w))
		e = e.With(Fact{"example", ex})
		msg += "; the values here can be that large: " + ex
	} else {
		msg += fmt.Sprintf("; the values here can be that large (%s)", rangeText(r))
	}
	if narrowed {
		msg += "; no form of ops helps: the plugin holds every i64 as i32 (its low 32 bits) before any op runs, and the values here can be beyond the i32 range"
	} else {
		msg += v.fixWrites("y + Convert(c)*(x - y), which the plugin computes exactly in i32")
	}
	v.r.add(Note, code, l, e, "%s", msg)
}

// cpuSelectValue is an i32 value as the CPU plugin's Select passes it on.
func cpuSelectValue(w int64) int64 {
	f := math.RoundToEven(float64(float32(int32(w))))
	if f > math.MaxInt32 || f < math.MinInt32 {
		return math.MinInt32
	}
	return int64(f)
}

// cpuSelectExample finds a value in r that the plugin's Select changes.
func cpuSelectExample(r sym.Range) (int64, bool) {
	for _, w := range []int64{1<<24 + 1, -1<<24 - 1, math.MaxInt32, r.Hi.V, r.Lo.V} {
		if r.Contains(w) && w == int64(int32(w)) && cpuSelectValue(w) != w {
			return w, true
		}
	}
	return 0, false
}
