package validate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// folder computes a value for every output of a model: exact for the
// integer sub-graphs it can evaluate (ShapeOf, Gather, StridedSlice,
// Squeeze, Unsqueeze, Concat, Reshape, Convert, Add, Subtract, Multiply,
// Divide, Const, Parameter shapes), ranges where values are not constant,
// the full range of the type where nothing is known. It follows
// OpenVINO's op specifications for the cases real converter output uses
// and gives up (unknown) on the others.
type folder struct {
	infos  map[*ir.Layer][]ops.ValueInfo
	values map[ir.Output]value
	// anyShape folds for every input shape, not the declared ones: each
	// dimension ShapeOf reads is then any size (the rank stays).
	anyShape bool
}

func (f *folder) input(sources []ir.Output, i int) (value, bool) {
	if i >= len(sources) || sources[i].Layer == nil {
		return value{}, false
	}
	v, ok := f.values[sources[i]]
	return v, ok
}

// staticDims returns the dims of a static shape, or nil.
func staticDims(s shapeinfer.Shape) []int64 {
	dims, ok := s.ToStatic()
	if !ok {
		return nil
	}
	return dims
}

// fold computes the values of l's outputs.
func (f *folder) fold(l *ir.Layer, op ops.Op, sources []ir.Output) []value {
	infos := f.infos[l]
	out := make([]value, len(infos))
	for i, info := range infos {
		out[i] = unknown(info.Type, staticDims(info.Shape))
	}
	if len(out) != 1 {
		return out
	}
	in := func(i int) value {
		v, ok := f.input(sources, i)
		if !ok {
			return unknown(ir.Dynamic, nil)
		}
		return v
	}
	info := infos[0]
	if strings.EqualFold(l.Type, "parameter") {
		// A user may give any value of the type, and any dims within the
		// intervals: the range is tight.
		out[0].tight = true
		out[0].deps = []*ir.Layer{l}
		return out
	}
	if !info.Type.IsInteger() && info.Type != ir.Dynamic {
		return out
	}
	switch strings.ToLower(l.Type) {
	case "const", "constant":
		if l.Constant != nil {
			out[0] = exact(l.Constant)
		}
	case "shapeof":
		out[0] = f.shapeOf(l, sources)
	case "gather":
		out[0] = gather(l, in(0), in(1), in(2), out[0])
	case "stridedslice":
		out[0] = stridedSlice(l, in(0), in(1), in(2), in(3), out[0])
	case "squeeze", "unsqueeze", "reshape":
		out[0] = sameElements(in(0), out[0])
	case "concat":
		var vs []value
		for i := range sources {
			vs = append(vs, in(i))
		}
		out[0] = concat(l, vs, out[0])
	case "convert":
		out[0] = convert(in(0), out[0])
	case "add", "subtract", "multiply":
		opName := map[string]string{"add": "add", "subtract": "sub", "multiply": "mul"}[strings.ToLower(l.Type)]
		out[0] = elementwise(in(0), in(1), numpyOrAttr(l), out[0], opName, func(a, b interval) (interval, bool) { return binary(opName, a, b) })
	case "divide":
		if d, ok := op.(*ops.Divide); ok {
			out[0] = elementwise(in(0), in(1), d.Broadcast, out[0], "div", func(a, b interval) (interval, bool) { return divide(a, b, d.PythonDiv) })
		}
	}
	if out[0].isConst() {
		return out
	}
	var ins []value
	for i := range sources {
		ins = append(ins, in(i))
	}
	out[0].deps = unionDeps(ins...)
	return out
}

// numpyOrAttr reads an arithmetic op's auto_broadcast (numpy by default).
func numpyOrAttr(l *ir.Layer) shapeinfer.Broadcast {
	bc := shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		if m, err := shapeinfer.ParseMode(s); err == nil {
			bc.Mode = m
		}
	}
	return bc
}

// shapeOf is the shape of its input: exact where the dims are static, the
// interval of each dim otherwise (tight when the input is a model input,
// whose dims a user chooses within their intervals).
func (f *folder) shapeOf(l *ir.Layer, sources []ir.Output) value {
	t := ir.I64
	if s, ok := l.DataAttr("output_type"); ok && strings.EqualFold(s, "i32") {
		t = ir.I32
	}
	if len(sources) != 1 || sources[0].Layer == nil {
		return unknown(t, nil)
	}
	src := sources[0]
	shape := f.infos[src.Layer][src.Index].Shape
	if shape.DynamicRank {
		return unknown(t, nil)
	}
	limit := typeRange(t).hi
	elems := make([]interval, len(shape.Dims))
	for i, d := range shape.Dims {
		elems[i] = interval{d.Min, min(d.Max, limit)}
		if f.anyShape {
			elems[i] = interval{0, limit}
		}
	}
	if f.anyShape {
		return withElems(t, []int64{int64(len(elems))}, elems, false, true)
	}
	tight := strings.EqualFold(src.Layer.Type, "Parameter") || shape.IsStatic()
	return withElems(t, []int64{int64(len(elems))}, elems, tight, true)
}

// constInts reads a small constant input, such as indices or an axis.
func constInts(v value) ([]int64, bool) {
	if v.shape == nil {
		return nil, false
	}
	return v.ints()
}

// intAttr reads an integer attribute, def when absent.
func intAttr(l *ir.Layer, name string, def int64) int64 {
	if s, ok := l.DataAttr(name); ok {
		if v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return v
		}
	}
	return def
}

// maskAttr reads a StridedSlice mask ("0", "1,0"): bit i for axis i.
func maskAttr(l *ir.Layer, name string) []bool {
	s, _ := l.DataAttr(name)
	var out []bool
	for _, f := range strings.Split(s, ",") {
		v, _ := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		out = append(out, v != 0)
	}
	return out
}

func bit(mask []bool, i int) bool { return i < len(mask) && mask[i] }

// gather takes the elements of data at indices along axis (batch_dims 0;
// a negative index counts from the end).
func gather(l *ir.Layer, data, indices, axisValue value, fallback value) value {
	axes, ok := constInts(axisValue)
	idx, ok2 := constInts(indices)
	if !ok || !ok2 || len(axes) != 1 || data.shape == nil || intAttr(l, "batch_dims", 0) != 0 {
		return fallback
	}
	rank := int64(len(data.shape))
	axis := axes[0]
	if axis < 0 {
		axis += rank
	}
	if axis < 0 || axis >= rank {
		return fallback
	}
	dim := data.shape[axis]
	outer := numElems(data.shape[:axis])
	inner := numElems(data.shape[axis+1:])
	shape := append(append(slices.Clone(data.shape[:axis]), indices.shape...), data.shape[axis+1:]...)
	if numElems(shape) > maxElems {
		return value{typ: data.typ, shape: shape, all: data.all, tight: data.tight, shapeOf: data.shapeOf}
	}
	var elems []interval
	for o := range outer {
		for _, ix := range idx {
			if ix < 0 {
				ix += dim
			}
			if ix < 0 || ix >= dim {
				return fallback
			}
			for in := range inner {
				elems = append(elems, data.elem((o*int(dim)+int(ix))*inner+in))
			}
		}
	}
	return withElems(data.typ, shape, elems, data.tight, data.shapeOf)
}

// stridedSlice slices a 1-D value, the case of shape vectors: begin, end
// and strides constant; begin_mask, end_mask, shrink_axis_mask and
// new_axis_mask on axis 0. Other cases are not folded.
func stridedSlice(l *ir.Layer, data, begin, end, strides value, fallback value) value {
	b, ok1 := constInts(begin)
	e, ok2 := constInts(end)
	s := []int64{1}
	ok3 := true
	if strides.shape != nil || strides.typ != ir.Dynamic {
		s, ok3 = constInts(strides)
	}
	if !ok1 || !ok2 || !ok3 || len(data.shape) != 1 || len(b) < 1 || len(e) < 1 || len(s) < 1 || s[0] == 0 {
		return fallback
	}
	for _, mask := range []string{"ellipsis_mask", "new_axis_mask"} {
		if slices.Contains(maskAttr(l, mask), true) {
			return fallback
		}
	}
	n, step := data.shape[0], s[0]
	norm := func(v int64, isEnd bool) int64 {
		if v < 0 {
			v += n
		}
		lo, hi := int64(0), n
		if step < 0 {
			lo, hi = -1, n-1
		}
		return min(max(v, lo), hi)
	}
	from, to := norm(b[0], false), norm(e[0], true)
	if bit(maskAttr(l, "begin_mask"), 0) {
		from = map[bool]int64{true: 0, false: n - 1}[step > 0]
	}
	if bit(maskAttr(l, "end_mask"), 0) {
		to = map[bool]int64{true: n, false: -1}[step > 0]
	}
	if bit(maskAttr(l, "shrink_axis_mask"), 0) {
		i := b[0]
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return fallback
		}
		return withElems(data.typ, []int64{}, []interval{data.elem(int(i))}, data.tight, data.shapeOf)
	}
	var elems []interval
	for i := from; step > 0 && i < to || step < 0 && i > to; i += step {
		elems = append(elems, data.elem(int(i)))
	}
	return withElems(data.typ, []int64{int64(len(elems))}, elems, data.tight, data.shapeOf)
}

// sameElements keeps the elements of data in a new shape (Squeeze,
// Unsqueeze, Reshape), the shape of the op's output.
func sameElements(data, out value) value {
	if out.shape == nil || data.shape == nil || numElems(out.shape) != numElems(data.shape) {
		out.all, out.tight, out.shapeOf = data.all, data.tight, data.shapeOf
		if data.typ != out.typ {
			out.all = typeRange(out.typ)
		}
		return out
	}
	v := data
	v.shape = out.shape
	return v
}

// concat joins values along the op's axis.
func concat(l *ir.Layer, vs []value, fallback value) value {
	if len(vs) == 0 || fallback.shape == nil {
		return fallback
	}
	rank := int64(len(fallback.shape))
	axis := intAttr(l, "axis", 0)
	if axis < 0 {
		axis += rank
	}
	if axis < 0 || axis >= rank || numElems(fallback.shape) > maxElems {
		return fallback
	}
	outer := numElems(fallback.shape[:axis])
	tight, shapeOf := true, false
	for _, v := range vs {
		if v.shape == nil || int64(len(v.shape)) != rank || v.elems == nil {
			return fallback
		}
		tight, shapeOf = tight && v.tight, shapeOf || v.shapeOf
	}
	var elems []interval
	for o := range outer {
		for _, v := range vs {
			block := numElems(v.shape[axis:])
			elems = append(elems, v.elems[o*block:(o+1)*block]...)
		}
	}
	if len(elems) != numElems(fallback.shape) {
		return fallback
	}
	return withElems(vs[0].typ, fallback.shape, elems, tight, shapeOf)
}

// convert keeps the elements that fit the destination type; the others
// become its whole range.
func convert(in value, out value) value {
	if !out.typ.IsInteger() || out.shape == nil && in.shape != nil {
		return out
	}
	v := in
	v.typ = out.typ
	v.shape = out.shape
	fitsAll := true
	conv := func(e interval) interval {
		r, ok := fitTo(e, out.typ)
		fitsAll = fitsAll && ok
		return r
	}
	if v.elems != nil {
		v.elems = slices.Clone(v.elems)
		for i := range v.elems {
			v.elems[i] = conv(v.elems[i])
		}
	}
	v.all = conv(v.all)
	v.tight = v.tight && fitsAll
	return v
}

// elementwise applies op (named add, sub, mul or div) to every pair of
// broadcast elements (numpy, or pdpd at the axis), or to the ranges of
// all elements.
func elementwise(a, b value, bc shapeinfer.Broadcast, out value, name string, op func(a, b interval) (interval, bool)) value {
	res := out
	res.tight = false
	res.shapeOf = a.shapeOf || b.shapeOf
	whole, ok := op(a.all, b.all)
	if ok {
		if r, fits := fitTo(whole, out.typ); fits {
			res.all = r
		}
	}
	if a.shape == nil || b.shape == nil || out.shape == nil || numElems(out.shape) > maxElems || a.elems == nil || b.elems == nil {
		return res
	}
	aOff, bOff := len(out.shape)-len(a.shape), len(out.shape)-len(b.shape)
	if bc.Mode == shapeinfer.PDPD {
		aOff, bOff = 0, shapeinfer.PDPDAxis(len(a.shape), len(b.shape), bc.Axis)
	}
	if aOff < 0 || bOff < 0 || bOff+len(b.shape) > len(out.shape) || aOff+len(a.shape) > len(out.shape) {
		return res
	}
	n := numElems(out.shape)
	elems := make([]interval, n)
	tight := true
	coord := make([]int64, len(out.shape))
	for flat := range n {
		rem := flat
		for i := len(out.shape) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % out.shape[i]
			rem /= int(out.shape[i])
		}
		x, y := a.elem(shapeinfer.BroadcastIndex(coord, a.shape, aOff)), b.elem(shapeinfer.BroadcastIndex(coord, b.shape, bOff))
		r, ok := op(x, y)
		if !ok {
			return res
		}
		tight = tight && keepsTight(name, x, y, a.tight, b.tight)
		if elems[flat], ok = fitTo(r, out.typ); !ok {
			return res
		}
	}
	return withElems(out.typ, out.shape, elems, tight, res.shapeOf)
}

// keepsTight tells whether every value of x op y's range occurs when every
// value of x's and y's does: a constant added or subtracted shifts a
// range, an integer quotient by a constant steps by at most 1; a product
// skips values.
func keepsTight(name string, x, y interval, xTight, yTight bool) bool {
	switch {
	case x.isPoint() && y.isPoint():
		return true
	case y.isPoint() && (name == "add" || name == "sub" || name == "div" && y.lo != 0):
		return xTight
	case x.isPoint() && (name == "add" || name == "sub"):
		return yTight
	}
	return false
}
