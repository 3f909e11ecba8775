package ops

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TensorIterator is TensorIterator-1, read as OpenVINO's IR deserializer
// reads it and computed as its reference implementation does
// (src/core/reference/src/op/tensor_iterator.cpp): the body runs once per
// part of its sliced inputs (<input axis=...>: the input cut along axis
// into parts of part_size, taken first to last, or last to first where
// the stride is negative). Other inputs feed the body as they are
// (invariant) or before the first iteration only, a back edge feeding
// their Parameter afterwards (loop-carried). An output is a body Result
// after the last iteration (the initial value of its loop-carried
// Parameter when no iteration runs), or with an axis, its values of every
// iteration concatenated along it, in reverse order where the stride is
// negative. OpenVINO's ONNX frontend turns ONNX's Scan into one.
type TensorIterator struct {
	Body   *Program
	inputs int
	// in is, per body Parameter, the input that feeds it; slice, how it
	// is cut (nil: whole); back, the Result that feeds it after each
	// iteration (-1: none).
	in    []int
	slice []*tiSlice
	back  []int
	out   []tiOutput
}

// tiSlice is a port map entry with an axis: its tensor cut into parts of
// partSize along axis, one per iteration. irdiv, like OpenVINO's
// reference implementation, takes the whole axis: start and end must be
// its two ends, and the stride's sign gives the order.
type tiSlice struct {
	axis, start, end, stride, partSize int64
}

// tiOutput is one output of a TensorIterator: a body Result, its last
// value (slice nil) or its values concatenated.
type tiOutput struct {
	result int
	slice  *tiSlice
}

func newTensorIterator(l *ir.Layer, depth int) (Op, error) {
	prog, err := body(l, "body", depth)
	if err != nil {
		return nil, err
	}
	ti := &TensorIterator{Body: prog, inputs: len(l.Inputs), in: slices.Repeat([]int{-1}, len(prog.params)),
		slice: make([]*tiSlice, len(prog.params)), back: slices.Repeat([]int{-1}, len(prog.params))}
	ins, outs, err := portMap(l, "port_map")
	if err != nil {
		return nil, err
	}
	if len(ins) != len(l.Inputs) {
		return nil, errorf("%w: Number of inputs must be the same as number of input descriptions (%d inputs, %d <input> in <port_map>)", ErrAttribute, len(l.Inputs), len(ins))
	}
	for _, e := range ins {
		p, ok := prog.paramIndex(e.internal)
		switch {
		case !ok:
			return nil, errorf("%w: <port_map> maps input %d to layer %d, which is no Parameter of the body", ErrAttribute, e.external, e.internal)
		case ti.in[p] >= 0:
			return nil, errorf("%w: <port_map> feeds %s of the body twice", ErrAttribute, prog.params[p])
		case e.external < 0 || e.external >= int64(len(l.Inputs)):
			return nil, errorf("%w: <port_map> maps %s of the body to input %d, which the TensorIterator does not have (it has %s)", ErrAttribute, prog.params[p], e.external, count(len(l.Inputs), "input"))
		}
		ti.in[p] = int(e.external)
		if e.axis != nil {
			if ti.slice[p], err = readSlice(e, "input"); err != nil {
				return nil, err
			}
		}
	}
	for p, ext := range ti.in {
		if ext < 0 {
			return nil, errorf("%w: %s of the body is fed by no input of the TensorIterator (<port_map>)", ErrAttribute, prog.params[p])
		}
	}
	for _, e := range outs {
		r, ok := prog.resultIndex(e.internal)
		if !ok {
			return nil, errorf("%w: <port_map> maps output %d to layer %d, which is no Result of the body", ErrAttribute, e.external, e.internal)
		}
		o := tiOutput{result: r}
		if e.axis != nil {
			if o.slice, err = readSlice(e, "output"); err != nil {
				return nil, err
			}
		}
		ti.out = append(ti.out, o)
	}
	if err := readBackEdges(l, prog, ti.back, -1); err != nil {
		return nil, err
	}
	for p, r := range ti.back {
		if r >= 0 && ti.slice[p] != nil {
			return nil, errorf("%w: <back_edges> feeds %s, which a sliced input feeds", ErrAttribute, prog.params[p])
		}
	}
	if !slices.ContainsFunc(ti.slice, func(s *tiSlice) bool { return s != nil }) && !slices.ContainsFunc(ti.out, func(o tiOutput) bool { return o.slice != nil }) {
		return nil, errorf("%w: the TensorIterator has no sliced input and no concatenated output: nothing says how many times its body runs", ErrAttribute)
	}
	return ti, nil
}

// readSlice reads the axis, start, end, stride and part_size of a port
// map entry, with the deserializer's defaults: 0, -1, 1, 1.
func readSlice(e portEntry, tag string) (*tiSlice, error) {
	s := &tiSlice{axis: *e.axis, start: 0, end: -1, stride: 1, partSize: 1}
	for _, a := range []struct {
		name string
		v    *int64
	}{{"start", &s.start}, {"end", &s.end}, {"stride", &s.stride}, {"part_size", &s.partSize}} {
		v, ok := e.node.Attr(a.name)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, errorf("%w: <port_map> <%s> has %s %q, not an integer", ErrAttribute, tag, a.name, v)
		}
		*a.v = n
	}
	switch {
	case s.partSize <= 0:
		return nil, errorf("%w: <port_map> <%s> has part_size %d: it must be positive", ErrAttribute, tag, s.partSize)
	case s.stride == 0:
		return nil, errorf("%w: <port_map> <%s> has stride 0", ErrAttribute, tag)
	case s.stride != s.partSize && s.stride != -s.partSize:
		return nil, errorf("%w: irdiv cuts a TensorIterator's tensors into parts that follow each other (<port_map> <%s> has stride %d and part_size %d)", ErrUnsupportedOp, tag, s.stride, s.partSize)
	}
	return s, nil
}

// parts is how many parts of s an axis of length dim holds: start and end
// taken from the end where negative, as OpenVINO does, must be the two
// ends of the axis, which part_size must divide.
func (s *tiSlice) parts(dim int64) (int64, error) {
	if dim == 0 {
		return 0, nil // an empty axis, whatever start and end
	}
	start, end := s.start, s.end
	if start < 0 {
		start += dim
	}
	if end < 0 {
		end += dim
	}
	if min(start, end) != 0 || max(start, end) != dim-1 {
		return 0, errorf("%w: irdiv slices a whole axis: start %d and end %d do not span an axis of %d", ErrUnsupportedOp, s.start, s.end, dim)
	}
	if dim%s.partSize != 0 {
		return 0, errorf("%w: the sliced axis has %d elements, which part_size %d does not divide", ErrShape, dim, s.partSize)
	}
	return dim / s.partSize, nil
}

func (*TensorIterator) OpType() (string, string) { return "TensorIterator", "opset1" }

// Attrs: a TensorIterator has no <data>; its body, port map and back
// edges stay in the layer.
func (*TensorIterator) Attrs() []ir.Attr { return nil }

func (ti *TensorIterator) bodiesEvaluable() bool { return ti.Body.evaluable() }

// iterations counts the iterations at input infos: n when known, and at
// least least in any case. Every sliced input of a known length must
// give the same count; without sliced inputs, the first concatenated
// output gives it as OpenVINO counts it, |end - start| / part_size.
func (ti *TensorIterator) iterations(in []ValueInfo) (n int64, known bool, least int64, err error) {
	sliced := false
	for p, s := range ti.slice {
		if s == nil {
			continue
		}
		sliced = true
		v := in[ti.in[p]]
		if v.Shape.DynamicRank {
			continue
		}
		axis, err := normalizeAxis(s.axis, len(v.Shape.Dims))
		if err != nil {
			return 0, false, 0, errorf("input %d: %w", ti.in[p], detail(err))
		}
		d := v.Shape.Dims[axis]
		if !d.IsStatic() {
			least = max(least, d.Min/s.partSize)
			continue
		}
		k, err := s.parts(d.Min)
		if err != nil {
			return 0, false, 0, errorf("input %d: %w", ti.in[p], detail(err))
		}
		if known && k != n {
			return 0, false, 0, errorf("%w: the sliced inputs of the TensorIterator give %d and %d iterations", ErrShape, n, k)
		}
		n, known, least = k, true, k
	}
	if !sliced {
		for _, o := range ti.out {
			if s := o.slice; s != nil {
				n = max(s.end-s.start, s.start-s.end) / s.partSize
				return n, true, n, nil
			}
		}
	}
	return n, known, least, nil
}

// params are the infos of the body's Parameters: a part of a sliced
// input (its input's with part_size along the axis), a loop-carried
// value's initial one without its value, an invariant input's as it is.
func (ti *TensorIterator) params(in []ValueInfo) []ValueInfo {
	params := make([]ValueInfo, len(ti.in))
	for p, ext := range ti.in {
		if ext >= len(in) {
			continue
		}
		params[p] = in[ext]
		switch s := ti.slice[p]; {
		case s != nil:
			params[p] = ValueInfo{Type: in[ext].Type, Shape: in[ext].Shape}
			if !in[ext].Shape.DynamicRank {
				dims := slices.Clone(in[ext].Shape.Dims)
				if axis, err := normalizeAxis(s.axis, len(dims)); err == nil {
					dims[axis] = shapeinfer.Static(s.partSize)
				}
				params[p].Shape = shapeinfer.Shape{Dims: dims}
			}
		case ti.back[p] >= 0:
			params[p].Value = nil // it changes from one iteration to the next
		}
	}
	return params
}

// Infer infers the body from the inputs that feed it (loop-carried values
// widened as a Loop's are). A concatenated output has the body's shape
// times the iterations along its axis, dynamic where they are not known;
// a last value admits the initial one where no iteration may run.
func (ti *TensorIterator) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) != ti.inputs {
		return nil, errorf("%w: TensorIterator has %s, but the layer declares %s", ir.ErrGraph, count(ti.inputs, "input"), count(len(in), "input port"))
	}
	n, known, least, err := ti.iterations(in)
	if err != nil {
		return nil, err
	}
	res, err := inferCarried(ti.Body, ti.params(in), ti.back)
	if err != nil {
		return nil, err
	}
	out := make([]ValueInfo, len(ti.out))
	for i, o := range ti.out {
		v := res[o.result]
		if o.slice == nil {
			for p, r := range ti.back {
				if r == o.result && least == 0 {
					v, _ = mergeInfo(v, in[ti.in[p]])
				}
			}
			out[i] = ValueInfo{Type: v.Type, Shape: v.Shape}
			continue
		}
		shape, err := concatShape(v.Shape, o.slice.axis, i)
		if err != nil {
			return nil, err
		}
		if !shape.DynamicRank {
			axis, _ := normalizeAxis(o.slice.axis, len(shape.Dims))
			d := shapeinfer.Dynamic()
			if known && shape.Dims[axis].IsStatic() {
				d = shapeinfer.Static(satMul(shape.Dims[axis].Min, n))
			}
			shape.Dims[axis] = d
		}
		out[i] = ValueInfo{Type: v.Type, Shape: shape}
	}
	return out, nil
}

// concatShape is the shape of one iteration's value of a concatenated
// output i, a scalar counted as one element along axis 0, as OpenVINO
// does; the axis must be within its rank.
func concatShape(s shapeinfer.Shape, axis int64, i int) (shapeinfer.Shape, error) {
	if s.DynamicRank {
		return s, nil
	}
	if len(s.Dims) == 0 {
		if axis != 0 {
			return s, errorf("%w: Axis must be equal to 0 if concatenated output tensor slices are scalars. TensorIterator output index: %d", ErrAttribute, i)
		}
		return shapeinfer.StaticShape(1), nil
	}
	if _, err := normalizeAxis(axis, len(s.Dims)); err != nil {
		return s, errorf("output %d: %w", i, detail(err))
	}
	return shapeinfer.Shape{Dims: slices.Clone(s.Dims)}, nil
}

// evaluateDynamic runs the body once per part of the sliced inputs. Each
// iteration counts against Options.MaxBodyRuns, and the values a
// concatenated output gathers against the tensor cap.
func (ti *TensorIterator) evaluateDynamic(in []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	if len(in) != ti.inputs {
		return nil, errorf("%w: TensorIterator has %s, but %d tensors are given", ir.ErrGraph, count(ti.inputs, "input"), len(in))
	}
	infos := make([]ValueInfo, len(in))
	for i, t := range in {
		infos[i] = ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}
	}
	n, _, _, err := ti.iterations(infos)
	if err != nil {
		return nil, err
	}
	o = o.withRuns()
	maxBytes := cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes)
	vals := make([]*ir.Tensor, len(ti.in))
	for p, ext := range ti.in {
		vals[p] = in[ext]
		if s := ti.slice[p]; s != nil {
			if err := evaluable(in[ext].Type); err != nil {
				return nil, errorf("input %d: %w", ext, detail(err))
			}
		}
	}
	concat := make([][]*ir.Tensor, len(ti.out))
	concatBytes := make([]int64, len(ti.out))
	var last []*ir.Tensor
	for iter := range n {
		if err := o.spend(); err != nil {
			return nil, errorf("iteration %d: %w", iter, detail(err))
		}
		for p, s := range ti.slice {
			if s != nil {
				k := iter
				if s.stride < 0 {
					k = n - 1 - iter
				}
				if vals[p], err = part(in[ti.in[p]], s, k); err != nil {
					return nil, err
				}
			}
		}
		res, err := ti.Body.Run(vals, o)
		if err != nil {
			return nil, errorf("iteration %d: %w", iter, detail(bodyErr("body", err)))
		}
		for i, out := range ti.out {
			if out.slice == nil {
				continue
			}
			t := res[out.result]
			if concatBytes[i] += int64(len(t.Data)); concatBytes[i] > maxBytes {
				return nil, errorf("%w: iteration %d: concatenated output %d grows past the %d bytes allowed (MaxTensorBytes)", ir.ErrTooLarge, iter, i, maxBytes)
			}
			if len(t.Shape) == 0 {
				t = &ir.Tensor{Type: t.Type, Shape: []int64{1}, Data: t.Data}
			}
			concat[i] = append(concat[i], t)
		}
		for p, r := range ti.back {
			if r >= 0 {
				vals[p] = res[r]
			}
		}
		last = res
	}
	out := make([]*ir.Tensor, len(ti.out))
	for i, o2 := range ti.out {
		var err error
		switch {
		case o2.slice != nil && len(concat[i]) > 0:
			values := concat[i]
			if o2.slice.stride < 0 {
				values = slices.Clone(values)
				slices.Reverse(values)
			}
			var cat []*ir.Tensor
			if cat, err = Evaluate(&Concat{Axis: o2.slice.axis}, values, o); err == nil {
				out[i] = cat[0]
			}
		case o2.slice != nil:
			out[i], err = ti.emptyConcat(infos, o2, i)
		case last != nil:
			out[i] = last[o2.result]
		default:
			out[i], err = initialValue(ti.Body, ti.in, ti.back, in, o2.result)
		}
		if err != nil {
			return nil, errorf("output %d: %w", i, detail(err))
		}
	}
	return out, nil
}

// part is part k of t as s cuts it.
func part(t *ir.Tensor, s *tiSlice, k int64) (*ir.Tensor, error) {
	axis, err := normalizeAxis(s.axis, len(t.Shape))
	if err != nil {
		return nil, err
	}
	shape := slices.Clone(t.Shape)
	shape[axis] = s.partSize
	p, err := ir.NewTensor(t.Type, shape)
	if err != nil {
		return nil, err
	}
	inner := 1
	for _, d := range t.Shape[axis+1:] {
		inner *= int(d)
	}
	outer := 1
	for _, d := range t.Shape[:axis] {
		outer *= int(d)
	}
	n, whole := int(s.partSize)*inner, int(t.Shape[axis])*inner
	for o := range outer {
		copyElems(p, o*n, t, o*whole+int(k)*n, n, t.Type.Size())
	}
	return p, nil
}

// emptyConcat is a concatenated output when no iteration ran: the shape
// the body would give, inferred from the inputs, with 0 along the axis.
func (ti *TensorIterator) emptyConcat(in []ValueInfo, o tiOutput, i int) (*ir.Tensor, error) {
	res, err := inferCarried(ti.Body, ti.params(in), ti.back)
	if err != nil {
		return nil, err
	}
	v := res[o.result]
	if v.Shape, err = concatShape(v.Shape, o.slice.axis, i); err != nil {
		return nil, err
	}
	return emptyAlong(v, o.slice.axis)
}

// Bodies returns the body of a TensorIterator, fed by in: a sliced
// Parameter gets one part of its input, loop-carried values may be
// anything of their type, at any shape of their rank where the body keeps
// it.
func (ti *TensorIterator) Bodies(in []ValueInfo) []Body {
	body := Body{Tag: "body", Model: ti.Body.model, Feeds: slices.Clone(ti.in), Carried: make([]bool, len(ti.in)), Back: slices.Repeat([]int{-1}, len(ti.in)),
		Sliced: make([]bool, len(ti.in)), SliceAxis: make([]int64, len(ti.in)), SlicePart: make([]int64, len(ti.in)), SliceReverse: make([]bool, len(ti.in)), Cond: -1}
	params := ti.params(in)
	for p, ext := range ti.in {
		if s := ti.slice[p]; s != nil {
			body.Sliced[p], body.SliceAxis[p] = true, s.axis
			body.SlicePart[p], body.SliceReverse[p] = s.partSize, s.stride < 0
		}
		if ti.back[p] >= 0 && ext < len(in) {
			body.Carried[p], body.Back[p] = true, ti.back[p]
			params[p] = anyOfRank(in[ext])
		}
	}
	keepRanks(ti.Body, params, body.Carried, ti.back)
	body.Params = params
	if !slices.Contains(body.Sliced, true) && len(in) == ti.inputs {
		// The first concatenated output counts the iterations, whatever
		// the inputs.
		n, _, _, err := ti.iterations(in)
		body.AtLeastOnce = err == nil && n > 0
	}
	for _, o := range ti.out {
		body.Outputs = append(body.Outputs, o.result)
		body.Concat = append(body.Concat, o.slice != nil)
	}
	return []Body{body}
}
