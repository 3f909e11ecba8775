package validate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// An Interpolate by scales whose scales are not constants: OpenVINO's
// shape inference (ov::util::dim::scale, which its CPU plugin runs too
// once the scales are known) computes each length as
// static_cast<int64>(float(n) * (scale + 1.0e-6f)), every step in float32,
// and keeps the length where the scale is exactly 1; ONNX Runtime as
// static_cast<int64>(scale * n) in float32 (onnx.ResizeLength). Where a
// scale is known only when the model runs, resizeLength cannot compare
// the two lengths at the declared shapes; what irdiv knows of the scales
// (runtimeScale) and of the lengths (their ranges) decides instead
// (scaleVerdict).

// maxExaminedLength bounds the lengths examined: float32 holds the
// lengths beyond 2^24 inexactly, ONNX Runtime's own product rounds there.
const maxExaminedLength = 1 << 24

// longLength is the length from which a difference counts as one of long
// axes only (a note rather than a warning): every scale that is not 1
// makes OpenVINO's length one more than ONNX's from some length on, as
// n x 1e-6 grows (from 983040 for scale 2, 62495 for 1/16), where no
// image or feature map axis reaches.
const longLength = 1 << 16

// openvinoLength is the length OpenVINO's Interpolate gives an axis of
// length n by scale (ops' scaleDim, dim::scale): a scale of exactly 1
// keeps it, any other is increased by 1e-6 in float32 and multiplies n
// in float32, truncated.
func openvinoLength(n int64, scale float32) int64 {
	if scale == 1 {
		return n
	}
	s := float32(scale + 1e-6)
	return int64(float32(float32(n) * s))
}

// sameRule reports whether OpenVINO's length is ONNX's for every length
// at scale s: s is 1, or s + 1e-6 rounds back to s in float32 (every s
// from 32 on, whose half ulp exceeds 1e-6), so that both compute the same
// product.
func sameRule(s float32) bool {
	return s == 1 || float32(s+1e-6) == s
}

// firstLonger is the first length in [lo, hi] (at most
// maxExaminedLength) at which OpenVINO's length by scale s is not ONNX's,
// if any. A scale of 0 or less is none: ONNX Runtime refuses it ("Scale
// value should be greater than 0"), so the model does not run there.
func firstLonger(s float32, lo, hi int64) (int64, bool) {
	lo, hi = max(lo, 0), min(hi, maxExaminedLength)
	if !(s > 0) || sameRule(s) || lo > hi {
		return 0, false
	}
	if lo <= 1 {
		n := firstLongerFromZero(s)
		return n, n >= 0 && n <= hi
	}
	for n := lo; n <= hi; n++ {
		if onnx.ResizeLength(n, s) != openvinoLength(n, s) {
			return n, true
		}
	}
	return 0, false
}

// longerFrom caches firstLongerFromZero: the lengths of an integer scale
// differ first near a million, found by trying each length.
var longerFrom sync.Map // float32 -> int64

// firstLongerFromZero is the first length at which OpenVINO's length by s
// is not ONNX's, -1 where none up to maxExaminedLength is.
func firstLongerFromZero(s float32) int64 {
	if n, ok := longerFrom.Load(s); ok {
		return n.(int64)
	}
	first := int64(-1)
	for n := int64(0); n <= maxExaminedLength; n++ {
		if onnx.ResizeLength(n, s) != openvinoLength(n, s) {
			first = n
			break
		}
	}
	longerFrom.Store(s, first)
	return first
}

// scaleExample finds a length in [lo, hi] and a float32 scale in [slo,
// shi] at which OpenVINO's length is one more than ONNX's: for each
// length n from the smallest, the largest scale below t/n whose ONNX
// length is below t, for each t the range allows. A scale of few digits
// (2.12) is preferred, as the one of the first length that has one. The
// lengths tried are the first 256 of the range, below longLength.
func scaleExample(slo, shi float64, lo, hi int64) (n int64, s float32, ok bool) {
	slo = max(slo, math.SmallestNonzeroFloat32)
	if !(shi >= slo) || slo >= 32 {
		return 0, 0, false
	}
	lo = max(lo, 1)
	hi = min(hi, lo+255, longLength-1)
	short := func(s float32) bool { return len(strconv.FormatFloat(float64(s), 'g', -1, 32)) <= 4 }
	var anyN int64
	var anyS float32
	for n := lo; n <= hi; n++ {
		first := int64(math.Ceil(float64(n) * slo))
		last := min(int64(math.Floor(float64(n)*math.Min(shi, 64)))+1, first+64)
		for t := max(first, 1); t <= last; t++ {
			c := float32(float64(t) / float64(n))
			for k := 0; k < 4 && onnx.ResizeLength(n, c) >= t; k++ {
				c = math.Nextafter32(c, 0)
			}
			if onnx.ResizeLength(n, c) >= t || openvinoLength(n, c) < t || float64(c) < slo || float64(c) > shi {
				continue
			}
			if short(c) {
				return n, c, true
			}
			if anyN == 0 {
				anyN, anyS = n, c
			}
		}
	}
	return anyN, anyS, anyN != 0
}

// scaleKind says what is known of a scale computed at run time.
type scaleKind uint8

const (
	scaleUnknown scaleKind = iota
	scaleExact             // the value
	scaleInts              // an integer in [lo, hi]
	scaleRange             // a float in [lo, hi]
)

// scaleKnown is what irdiv knows of one scale that is not a constant.
type scaleKnown struct {
	kind   scaleKind
	value  float32
	lo, hi float64
}

// runtimeScale is what the analysis knows of element k of the 1-D float
// tensor o: a constant's element; through a Concat of 1-D parts, the
// part's; a Convert of an integer, that integer's range, exact where it
// is the quotient of a multiple of a dim by the dim (divisible); a
// Divide of such integers converted to float, their exact quotient; else
// the range of the tensor's elements, exact where it is one value.
func (v *validator) runtimeScale(o ir.Output, k int, depth int) scaleKnown {
	l := o.Layer
	if l == nil {
		return scaleKnown{}
	}
	if infos := v.an.Infos[l]; o.Index < len(infos) && infos[o.Index].Value != nil && k < infos[o.Index].Value.Len() {
		return scaleKnown{kind: scaleExact, value: float32(infos[o.Index].Value.Float64At(k))}
	}
	val := v.an.Values[o]
	if val == nil {
		return scaleKnown{}
	}
	if val.Tensor != nil && k < val.Tensor.Len() {
		return scaleKnown{kind: scaleExact, value: float32(val.Tensor.Float64At(k))}
	}
	if depth < 16 {
		if part, j, ok := v.concatPart(o, k); ok {
			return v.runtimeScale(part, j, depth+1)
		}
		switch v.an.Ops[l].(type) {
		case *ops.Convert:
			x := v.an.In(l, 0)
			if x.Int && k < len(x.Elems) {
				if src := v.an.Sources[l]; len(src) > 0 {
					if c, ok := v.intQuotient(src[0], k, depth+1); ok {
						return scaleKnown{kind: scaleExact, value: float32(c)}
					}
				}
				r := v.declared.Range(x.Elems[k])
				if r.Lo.IsFinite() && r.Hi.IsFinite() {
					if r.Lo == r.Hi {
						return scaleKnown{kind: scaleExact, value: float32(r.Lo.V)}
					}
					return scaleKnown{kind: scaleInts, lo: float64(r.Lo.V), hi: float64(r.Hi.V)}
				}
			}
		case *ops.Divide:
			if c, ok := v.floatQuotient(l, k); ok {
				return scaleKnown{kind: scaleExact, value: float32(c)}
			}
		}
	}
	switch f := val.F; {
	case f == nil || f.NaN || math.IsInf(f.Lo, 0) || math.IsInf(f.Hi, 0):
		return scaleKnown{}
	case f.Lo == f.Hi:
		return scaleKnown{kind: scaleExact, value: float32(f.Lo)}
	default:
		return scaleKnown{kind: scaleRange, lo: f.Lo, hi: f.Hi}
	}
}

// concatPart finds element k of o, the 1-D output of a Concat, in the
// part that holds it: that part and its element.
func (v *validator) concatPart(o ir.Output, k int) (ir.Output, int, bool) {
	op, ok := v.an.Ops[o.Layer].(*ops.Concat)
	if val := v.an.Values[o]; !ok || val == nil || val.Rank != 1 || op.Axis != 0 && op.Axis != -1 {
		return ir.Output{}, 0, false
	}
	for i, src := range v.an.Sources[o.Layer] {
		part := v.an.In(o.Layer, i)
		if len(part.Static) != 1 {
			break
		}
		if k < int(part.Static[0]) {
			return src, k, true
		}
		k -= int(part.Static[0])
	}
	return ir.Output{}, 0, false
}

// intQuotient reports whether element k of o, an integer (through
// Concats), is a Divide of c x B by B: the quotient c wherever B is not
// 0, where ONNX Runtime fails the model ("Integer division by zero").
func (v *validator) intQuotient(o ir.Output, k, depth int) (int64, bool) {
	for ; depth < 16; depth++ {
		part, j, ok := v.concatPart(o, k)
		if !ok {
			break
		}
		o, k = part, j
	}
	if _, ok := v.an.Ops[o.Layer].(*ops.Divide); !ok || o.Index != 0 {
		return 0, false
	}
	a, b, ok := v.operands(o.Layer, k)
	if !ok {
		return 0, false
	}
	return v.multiple(a, b)
}

// floatQuotient reports whether element k of the float Divide l divides
// c x B by B, both integers converted to float: exactly c wherever B is
// not 0, as long as float32 holds c x B exactly (below 2^24, or c a power
// of two) and so the quotient of two exact operands.
func (v *validator) floatQuotient(l *ir.Layer, k int) (int64, bool) {
	var ints [2]ir.Output
	for i, src := range v.an.Sources[l] {
		if i > 1 {
			return 0, false
		}
		if _, ok := v.an.Ops[src.Layer].(*ops.Convert); !ok || len(v.an.Sources[src.Layer]) == 0 {
			return 0, false
		}
		ints[i] = v.an.Sources[src.Layer][0]
	}
	elem := func(o ir.Output) (sym.Expr, bool) {
		x := v.an.Values[o]
		switch {
		case x == nil || !x.Int:
			return sym.Expr{}, false
		case len(x.Elems) == 1:
			return x.Elems[0], true
		case k < len(x.Elems):
			return x.Elems[k], true
		}
		return sym.Expr{}, false
	}
	a, ok1 := elem(ints[0])
	b, ok2 := elem(ints[1])
	if !ok1 || !ok2 {
		return 0, false
	}
	c, ok := v.multiple(a, b)
	if !ok {
		return 0, false
	}
	if hi := v.declared.Range(a).Hi; c&(c-1) != 0 && !(hi.IsFinite() && hi.V < 1<<24) {
		return 0, false
	}
	return c, true
}

// operands are the integer operands of element k of the element-wise
// layer l (a scalar or one-element operand broadcast).
func (v *validator) operands(l *ir.Layer, k int) (a, b sym.Expr, ok bool) {
	x, y := v.an.In(l, 0), v.an.In(l, 1)
	elem := func(t []sym.Expr) (sym.Expr, bool) {
		switch {
		case len(t) == 1:
			return t[0], true
		case k < len(t):
			return t[k], true
		}
		return sym.Expr{}, false
	}
	if !x.Int || !y.Int {
		return a, b, false
	}
	a, ok1 := elem(x.Elems)
	b, ok2 := elem(y.Elems)
	return a, b, ok1 && ok2
}

// multiple reports whether a is c x b for a constant c >= 1, b not a
// constant: c is read off one evaluation and then proven symbolically.
func (v *validator) multiple(a, b sym.Expr) (int64, bool) {
	if _, ok := b.IsConst(); ok {
		return 0, false
	}
	at := func(s sym.Sym) int64 { return 7 + 2*int64(s)%11 }
	x, ok1 := v.an.B.Eval(a, at)
	y, ok2 := v.an.B.Eval(b, at)
	if !ok1 || !ok2 || y == 0 || x%y != 0 || x/y < 1 {
		return 0, false
	}
	c := x / y
	if d, ok := v.an.B.Sub(a, v.an.B.Scale(b, c)).IsConst(); !ok || d != 0 {
		return 0, false
	}
	return c, true
}

// axisScale is one axis of an Interpolate by scales computed at run time
// where OpenVINO's length may be longer than ONNX's: what irdiv knows of
// the scale, and the example (a length n and scale s) where one is known.
type axisScale struct {
	axis    int64
	known   scaleKnown
	n       int64
	s       float32
	example bool
}

// long reports whether the lengths differ only from longLength on, for a
// scale irdiv knows the value of or the integers of.
func (a axisScale) long() bool {
	return (a.known.kind == scaleExact || a.known.kind == scaleInts) && a.n >= longLength
}

func (a axisScale) String() string { return fmt.Sprintf("axis %d: %s", a.axis, a.detail()) }

// detail is what String says after the axis.
func (a axisScale) detail() string {
	ex := ""
	if a.example {
		ex = fmt.Sprintf("%d x %v is %d in ONNX, %d in OpenVINO", a.n, a.s, onnx.ResizeLength(a.n, a.s), openvinoLength(a.n, a.s))
	}
	switch a.known.kind {
	case scaleExact:
		return fmt.Sprintf("scale %v, first at length %d: %s", a.known.value, a.n, ex)
	case scaleInts:
		return fmt.Sprintf("scale an integer in [%d, %d], first at length %d by %v: %s", int64(a.known.lo), int64(a.known.hi), a.n, a.s, ex)
	case scaleRange:
		if !a.example {
			return fmt.Sprintf("scale in [%v, %v]", float32(a.known.lo), float32(a.known.hi))
		}
		return fmt.Sprintf("scale in [%v, %v], for instance %s", float32(a.known.lo), float32(a.known.hi), ex)
	}
	if !a.example {
		return "scale not known before the model runs"
	}
	return "scale not known before the model runs, for instance " + ex
}

// grouped says the axes of the same detail once ("axes 2 and 3: scale
// 2, ...").
func grouped(found []axisScale) []string {
	var details []string
	axes := map[string][]string{}
	for _, f := range found {
		d := f.detail()
		if axes[d] == nil {
			details = append(details, d)
		}
		axes[d] = append(axes[d], strconv.FormatInt(f.axis, 10))
	}
	out := make([]string, len(details))
	for i, d := range details {
		out[i] = axesText(axes[d]) + ": " + d
	}
	return out
}

// axesText is "axis 2" or "axes 0, 1 and 3".
func axesText(axes []string) string {
	if len(axes) == 1 {
		return "axis " + axes[0]
	}
	return "axes " + strings.Join(axes[:len(axes)-1], ", ") + " and " + axes[len(axes)-1]
}

// scaleVerdict decides one axis of length in [lo, hi] whose scale is
// known as k: nil where OpenVINO's length is ONNX's for every length and
// scale that can be.
func scaleVerdict(axis int64, k scaleKnown, lo, hi int64) *axisScale {
	a := &axisScale{axis: axis, known: k}
	switch k.kind {
	case scaleExact:
		n, ok := firstLonger(k.value, lo, hi)
		if !ok {
			return nil
		}
		a.n, a.s, a.example = n, k.value, true
	case scaleInts:
		// Integers from 32 on keep ONNX's rule (sameRule), 1 too, and
		// ONNX Runtime refuses 0 and less.
		for c := max(k.lo, 2); c <= min(k.hi, 31); c++ {
			if n, ok := firstLonger(float32(c), lo, hi); ok && (!a.example || n < a.n) {
				a.n, a.s, a.example = n, float32(c), true
			}
		}
		if !a.example {
			return nil
		}
	case scaleRange:
		if k.hi <= 0 || k.lo >= 32 {
			return nil
		}
		a.n, a.s, a.example = scaleExample(k.lo, k.hi, lo, hi)
	default:
		a.n, a.s, a.example = scaleExample(1, 4, lo, hi)
	}
	return a
}

// runtimeScales reports an Interpolate by scales (layer, which is l or
// inside a body of l) from ONNX's Resize whose scales are not constants,
// on the axes (of a rank-dimensional input) where OpenVINO's length may
// be longer than ONNX's: a warning where irdiv does not know the scale,
// or knows one at which the lengths differ on an axis shorter than
// longLength; a note where they differ on longer axes only; nothing where
// every scale and length that can be agree.
func (v *validator) runtimeScales(l, inner, layer *ir.Layer, path, where string, op *ops.Interpolate, scalesPort int, axes []int64, rank int) {
	src := v.an.Sources[layer]
	if scalesPort >= len(src) {
		return
	}
	x := v.an.In(layer, 0)
	var found []axisScale
	for k, a := range axes {
		if a < 0 {
			a += int64(rank)
		}
		if a < 0 || a >= int64(rank) || anyPad(op, int(a)) {
			continue
		}
		lo, hi := int64(0), int64(maxExaminedLength)
		if x.Rank == rank {
			r := v.declared.Range(x.Dims[a])
			if r.Lo.IsFinite() {
				lo = max(lo, r.Lo.V)
			}
			if r.Hi.IsFinite() {
				hi = min(hi, r.Hi.V)
			}
		}
		if f := scaleVerdict(a, v.runtimeScale(src[scalesPort], k, 0), lo, hi); f != nil {
			found = append(found, *f)
		}
	}
	if len(found) == 0 {
		return
	}
	var texts []string
	var known, ranged []axisScale
	var unknownAxes []string
	var example *axisScale
	sev, below := Note, int64(maxExaminedLength)
	for i, f := range found {
		texts = append(texts, f.String())
		if !f.long() {
			sev = Warning
		}
		switch f.known.kind {
		case scaleUnknown:
			unknownAxes = append(unknownAxes, strconv.FormatInt(f.axis, 10))
			if f.example && (example == nil || betterExample(f, *example)) {
				example = &found[i]
			}
		case scaleRange:
			ranged = append(ranged, f)
		default:
			known = append(known, f)
			below = min(below, f.n)
		}
	}
	e := Evidence{{"axes", texts}, {"scales", "run-time"}}
	if path != "" {
		e = e.With(Fact{"divide", path})
	}
	msg := "Interpolate by scales from ONNX's Resize, whose scales are computed when the model runs: OpenVINO computes each output length as floor(length x (scale + 1e-6)) in float32, ONNX as floor(length x scale)"
	if inner != nil {
		msg = fmt.Sprintf("the Interpolate %s inside %s: %s", inner, where, msg)
	}
	if sev == Note {
		msg += fmt.Sprintf("; at the scales irdiv finds here they agree on every length below %d, and differ only on axes that long (%s), where OpenVINO's output is one element longer than ONNX's", below, strings.Join(grouped(known), "; "))
		v.r.add(sev, ONNXResizeLength, l, e, "%s", msg)
		v.r.Findings[len(v.r.Findings)-1].Inner = inner
		return
	}
	var clauses []string
	if len(unknownAxes) > 0 {
		which := "the scale of " + axesText(unknownAxes)
		if len(unknownAxes) > 1 {
			which = "the scales of " + axesText(unknownAxes)
		}
		c := fmt.Sprintf("irdiv does not know %s before the model runs, so it cannot exclude that OpenVINO's output is one element longer than ONNX's there", which)
		if example != nil {
			c += fmt.Sprintf(" (for instance, a length of %d by a scale of %v is %d in ONNX and %d in OpenVINO)", example.n, example.s, onnx.ResizeLength(example.n, example.s), openvinoLength(example.n, example.s))
		}
		clauses = append(clauses, c)
	}
	if len(ranged) > 0 {
		clauses = append(clauses, fmt.Sprintf("irdiv knows only a range of some scales, at which OpenVINO's output may be one element longer than ONNX's (%s)", strings.Join(grouped(ranged), "; ")))
	}
	if len(known) > 0 {
		clauses = append(clauses, fmt.Sprintf("at the scales irdiv finds they differ at some input lengths, where OpenVINO's output is one element longer than ONNX's (%s)", strings.Join(grouped(known), "; ")))
	}
	msg += ", and " + strings.Join(clauses, "; ") + ": everything after it is then computed on other shapes"
	v.r.add(sev, ONNXResizeLength, l, e, "%s", msg)
	v.r.Findings[len(v.r.Findings)-1].Inner = inner
}

// betterExample prefers an example of a length above 1, then of a
// shorter scale (2.12 over 1.9999999).
func betterExample(a, b axisScale) bool {
	if (a.n > 1) != (b.n > 1) {
		return a.n > 1
	}
	return len(strconv.FormatFloat(float64(a.s), 'g', -1, 32)) < len(strconv.FormatFloat(float64(b.s), 'g', -1, 32))
}

// ResizeLengths returns the onnx/resize-length findings of m, a model
// from ONNX (irdiv convert's IR), without the rest of Model's analysis:
// the Interpolates by scales that are not constants whose output may be
// longer in OpenVINO than ONNX's Resize gives, which irdiv convert warns
// of where it maps them. Those by constant scales it compares itself,
// and refuses where they differ. A model with no Interpolate by scales
// that are not constants is not analysed at all.
func ResizeLengths(m *ir.Model) []Finding {
	if !hasRuntimeScales(m) || m.Check() != nil {
		return nil
	}
	v := &validator{m: m, r: &Report{}, origin: fromONNX, ops: make(map[*ir.Layer]ops.Op, len(m.Layers)), infos: make(map[*ir.Layer][]ops.ValueInfo, len(m.Layers)), constTexts: make(map[*absint.Value]string)}
	inf := v.infer()
	v.order, v.sources = inf.Order, inf.Sources
	v.an = absint.Analyze(m, inf, absint.Options{ONNX: true})
	v.declared = v.an.Prover(false)
	for _, l := range v.order {
		v.resizeLength(l, nil, "", "")
		v.eachBodyLayer(l, func(inner *ir.Layer, path, where string) {
			v.resizeLength(l, inner, path, where)
		})
	}
	var out []Finding
	for _, f := range v.r.Findings {
		if f.Code == ONNXResizeLength {
			out = append(out, f)
		}
	}
	return out
}

// hasRuntimeScales reports whether m, bodies included, holds an
// Interpolate by scales whose scales input is not a Const layer.
func hasRuntimeScales(m *ir.Model) bool {
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Interpolate") {
			mode, _ := l.DataAttr("shape_calculation_mode")
			port := 1
			if l.Version == "opset4" {
				port = 2
			}
			if src, ok := m.Input(l, port); strings.EqualFold(mode, "scales") && (!ok || src.Layer.Type != "Const") {
				return true
			}
		}
		for _, e := range l.Extra {
			if e.Body != nil && hasRuntimeScales(e.Body) {
				return true
			}
		}
	}
	return false
}
