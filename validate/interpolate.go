package validate

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// interpolates examines every Interpolate of the model, inside the bodies
// of If, Loop and TensorIterator layers too (on the layer that holds
// them, as a Divide's findings are): antialias=true in mode linear_onnx or
// cubic, which OpenVINO's reference ignores (InterpolateEval reads it in
// mode linear only). OpenVINO's ONNX frontend writes a Resize with
// antialias=1 so (onnx.Import), and ONNX's Resize filters where it
// downscales: OpenVINO then computes another result than ONNX.
func (v *validator) interpolates() {
	for _, l := range v.order {
		v.antialias(l, nil, "", "")
		v.eachBodyLayer(l, func(inner *ir.Layer, path, where string) { v.antialias(l, inner, path, where) })
	}
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
