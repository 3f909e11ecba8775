package validate

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
)

// interpolates examines every Interpolate of the model, inside the bodies
// of If, Loop and TensorIterator layers too (on the layer that holds
// them, as a Divide's findings are): antialias=true in mode linear_onnx or
// cubic, which OpenVINO's reference ignores (InterpolateEval reads it in
// mode linear only). OpenVINO's ONNX frontend writes a Resize with
// antialias=1 so (onnx.Import), and ONNX's Resize filters where it
// downscales: OpenVINO then computes another result than ONNX. And, in a
// model from ONNX, an output length by scales that is not ONNX's.
func (v *validator) interpolates() {
	for _, l := range v.order {
		v.antialias(l, nil, "", "")
		v.resizeLength(l, nil, "", "")
		v.eachBodyLayer(l, func(inner *ir.Layer, path, where string) {
			v.antialias(l, inner, path, where)
			v.resizeLength(l, inner, path, where)
		})
	}
}

// resizeLength reports layer l (inner, when set, inside a body of l) of a
// model from ONNX if it is an Interpolate by scales whose output length,
// at the declared shapes, is not the one ONNX's Resize gives
// (onnx.ResizeLength): OpenVINO's shape inference multiplies by scale +
// 1e-6, so a product just below an integer gets one element more. Axes
// whose input or output length is not known are not reported. Scales
// that are not constants, known only when the model runs, are
// runtimeScales' to decide.
func (v *validator) resizeLength(l, inner *ir.Layer, path, where string) {
	layer := l
	if inner != nil {
		layer = inner
	}
	op, ok := v.an.Ops[layer].(*ops.Interpolate)
	if v.origin != fromONNX || !ok || op.ShapeCalculationMode != "scales" {
		return
	}
	scalesPort, axesPort := 1, 2
	if op.Version == 4 {
		scalesPort, axesPort = 2, 3
	}
	srcs, outs := v.an.Sources[layer], v.an.Infos[layer]
	info := func(port int) (ops.ValueInfo, bool) {
		if port >= len(srcs) || srcs[port].Layer == nil || srcs[port].Index >= len(v.an.Infos[srcs[port].Layer]) {
			return ops.ValueInfo{}, false
		}
		return v.an.Infos[srcs[port].Layer][srcs[port].Index], true
	}
	x, ok1 := info(0)
	scales, ok2 := info(scalesPort)
	if !ok1 || !ok2 || len(outs) != 1 || x.Shape.DynamicRank {
		return
	}
	var axes []int64
	if a, ok := info(axesPort); ok && a.Value != nil {
		for k := range a.Value.Len() {
			axes = append(axes, int64(a.Value.Float64At(k)))
		}
	} else if axesPort >= len(srcs) {
		for a := range x.Shape.Dims {
			axes = append(axes, int64(a))
		}
	}
	if scales.Value == nil {
		v.runtimeScales(l, inner, layer, path, where, op, scalesPort, axes, len(x.Shape.Dims))
		return
	}
	if outs[0].Shape.DynamicRank || len(x.Shape.Dims) != len(outs[0].Shape.Dims) || len(axes) != scales.Value.Len() {
		return
	}
	var differ []string
	for k, a := range axes {
		if a < 0 {
			a += int64(len(x.Shape.Dims))
		}
		if a < 0 || a >= int64(len(x.Shape.Dims)) || anyPad(op, int(a)) {
			continue
		}
		in, out, scale := x.Shape.Dims[a], outs[0].Shape.Dims[a], float32(scales.Value.Float64At(k))
		if !in.IsStatic() || !out.IsStatic() {
			continue
		}
		if want := onnx.ResizeLength(in.Min, scale); want != out.Min {
			differ = append(differ, fmt.Sprintf("axis %d: %d x %v is %d in ONNX, %d here", a, in.Min, scale, want, out.Min))
		}
	}
	if len(differ) == 0 {
		return
	}
	e := Evidence{{"axes", differ}}
	if path != "" {
		e = e.With(Fact{"divide", path})
	}
	prefix := ""
	if inner != nil {
		prefix = fmt.Sprintf("the Interpolate %s inside %s: ", inner, where)
	}
	v.r.add(Warning, ONNXResizeLength, l, e, "%sInterpolate by scales from ONNX's Resize: OpenVINO computes each output length as floor(length x (scale + 1e-6)), ONNX as floor(length x scale), and they differ here (%s), so OpenVINO's output has another shape than ONNX's", prefix, strings.Join(differ, "; "))
	v.r.Findings[len(v.r.Findings)-1].Inner = inner
}

// anyPad reports whether op pads axis a, where the length it scales is
// not the input's (OpenVINO's import of a Resize pads nothing).
func anyPad(op *ops.Interpolate, a int) bool {
	return a < len(op.PadsBegin) && op.PadsBegin[a] != 0 || a < len(op.PadsEnd) && op.PadsEnd[a] != 0
}

// eachBodyLayer calls f with every layer inside the bodies of l, at any
// depth, with the path that leads to it from l and the same in words.
func (v *validator) eachBodyLayer(l *ir.Layer, f func(inner *ir.Layer, path, where string)) {
	var walk func(holder *ir.Layer, path, where string)
	walk = func(holder *ir.Layer, path, where string) {
		for _, e := range holder.Extra {
			if e.Body == nil {
				continue
			}
			p, w := bodyTag(e.Node), fmt.Sprintf("the %s of %s %s", bodyTag(e.Node), holder.Type, holder)
			if path != "" {
				p, w = path+" > "+holder.String()+" "+p, w+" in "+where
			}
			for _, inner := range e.Body.Layers {
				f(inner, p+" > "+inner.String(), w)
				walk(inner, p, w)
			}
		}
	}
	walk(l, "", "")
}

// antialias reports layer l (inner, when set, inside a body of l) if it
// is an Interpolate of mode linear_onnx or cubic with antialias=true: a
// warning for a model from ONNX, where the Resize it comes from filters
// when it downscales and OpenVINO does not (a note where no axis
// downscales, where they agree); a note for another IR, where the
// attribute does nothing.
func (v *validator) antialias(l, inner *ir.Layer, path, where string) {
	layer := l
	if inner != nil {
		layer = inner
	}
	if !strings.EqualFold(layer.Type, "Interpolate") {
		return
	}
	op, ok := v.an.Ops[layer].(*ops.Interpolate)
	if !ok {
		built, err := ops.New(layer)
		if op, ok = built.(*ops.Interpolate); err != nil || !ok {
			return
		}
	}
	if !op.Antialias || op.Mode != "linear_onnx" && op.Mode != "cubic" {
		return
	}
	down, known := v.downscales(layer)
	e := Evidence{{"mode", op.Mode}}
	if len(down) > 0 {
		e = e.With(Fact{"downscales", down})
	}
	if path != "" {
		e = e.With(Fact{"divide", path})
	}
	prefix := ""
	if inner != nil {
		prefix = fmt.Sprintf("the Interpolate %s inside %s: ", inner, where)
	}
	ignored := fmt.Sprintf("Interpolate of mode %s with antialias=true: OpenVINO's reference ignores antialias in mode %s (it reads it in mode linear only)", op.Mode, op.Mode)
	sev, msg := Note, ignored+", so the attribute has no effect: the layer resizes without an antialiasing filter (were this IR converted from ONNX's Resize with antialias=1, OpenVINO would differ from ONNX wherever it downscales)"
	if v.origin == fromONNX {
		source := "ONNX's Resize with antialias=1, which OpenVINO's ONNX frontend writes so"
		switch {
		case known && len(down) == 0:
			msg = fmt.Sprintf("%s; this is %s, but no axis is downscaled here, where ONNX's antialiasing filter would act: OpenVINO agrees with ONNX", ignored, source)
		case len(down) > 0:
			sev = Warning
			msg = fmt.Sprintf("%s, and so differs from ONNX: this is %s, and ONNX filters where it downscales, as it does here (%s), where OpenVINO interpolates between neighbouring input elements unfiltered", ignored, source, strings.Join(down, ", "))
		default:
			sev = Warning
			msg = fmt.Sprintf("%s, and so differs from ONNX wherever an axis is downscaled: this is %s, and ONNX filters where it downscales, where OpenVINO interpolates between neighbouring input elements unfiltered", ignored, source)
		}
	}
	v.r.add(sev, ONNXAntialias, l, e, "%s%s", prefix, msg)
	v.r.Findings[len(v.r.Findings)-1].Inner = inner
}

// downscales lists the axes an Interpolate makes smaller at the declared
// shapes ("axis 2: 64 -> 16"); known is false where some axis' input or
// output length is not a fixed number, so that one may be downscaled.
func (v *validator) downscales(l *ir.Layer) (down []string, known bool) {
	outs, srcs := v.an.Infos[l], v.an.Sources[l]
	if len(outs) != 1 || len(srcs) == 0 || srcs[0].Layer == nil || srcs[0].Index >= len(v.an.Infos[srcs[0].Layer]) {
		return nil, false
	}
	in, out := v.an.Infos[srcs[0].Layer][srcs[0].Index].Shape, outs[0].Shape
	if in.DynamicRank || out.DynamicRank || len(in.Dims) != len(out.Dims) {
		return nil, false
	}
	known = true
	for a := range in.Dims {
		x, y := in.Dims[a], out.Dims[a]
		switch {
		case x.IsStatic() && y.IsStatic():
			if y.Min < x.Min {
				down = append(down, fmt.Sprintf("axis %d: %d -> %d", a, x.Min, y.Min))
			}
		default:
			known = false
		}
	}
	return down, known
}
