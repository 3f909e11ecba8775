package ops

import (
	"math"
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The shape and data-movement ops. Their inference follows OpenVINO's
// src/core/shape_inference/include/*_shape_inference.hpp: with the values
// of their shape-like inputs (axes, patterns, bounds) they infer static or
// interval shapes; without them, the rank when it can be deduced.
// Evaluation copies elements of any of the evaluated types.

// ShapeOf is ShapeOf-1 (always i64) or ShapeOf-3 (OutputType i32 or i64).
type ShapeOf struct {
	Version    int
	OutputType ir.ElementType
}

// Gather is Gather-1, Gather-7 or Gather-8: data[..., indices, ...] along
// the axis given by the third input, with BatchDims leading dimensions in
// common (Gather-7 and -8). Negative indices count from the end and an
// index out of range gives zeros: OpenVINO's reference does both for every
// version (src/core/reference/include/openvino/reference/gather.hpp), as
// the Gather-8 specification documents.
type Gather struct {
	Version   int
	BatchDims int64
}

// Concat is Concat-1 along Axis (negative counts from the end).
type Concat struct{ Axis int64 }

// Reshape is Reshape-1: the second input is the pattern, where -1 is
// inferred and, with SpecialZero, 0 copies the input's dimension.
type Reshape struct{ SpecialZero bool }

// Squeeze is Squeeze-1 or Squeeze-15 (with AllowAxisSkip): it removes
// dimensions of size 1, those of the optional axes input or all of them.
// An axis whose dimension cannot be 1 is ignored.
type Squeeze struct {
	Version       int
	AllowAxisSkip bool
}

// Unsqueeze is Unsqueeze-1: dimensions of size 1 inserted at the axes.
type Unsqueeze struct{}

// Transpose is Transpose-1: the dimensions permuted by the order input
// (empty: reversed).
type Transpose struct{}

// Tile is Tile-1: the data repeated along each axis by the repeats input
// (aligned on the right; negative repeats count as 0).
type Tile struct{}

// Select is Select-1: cond ? then : else, element-wise with broadcasting
// (numpy by default).
type Select struct{ Broadcast shapeinfer.Broadcast }

func registerShapeOps() {
	register("ShapeOf", []int{1, 3}, func(l *ir.Layer, v int) (Op, error) {
		s := &ShapeOf{Version: v, OutputType: ir.I64}
		if v == 3 {
			t, err := attrs{l}.elementType("output_type", ir.I64)
			if err != nil {
				return nil, err
			}
			s.OutputType = t
		}
		return s, nil
	})
	register("Gather", []int{1, 7, 8}, func(l *ir.Layer, v int) (Op, error) {
		g := &Gather{Version: v}
		if v > 1 {
			g.BatchDims = attrs{l}.int("batch_dims", 0)
		}
		return g, nil
	})
	register("Concat", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Concat{Axis: attrs{l}.int("axis", 0)}, nil
	}))
	register("Reshape", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Reshape{SpecialZero: attrs{l}.bool("special_zero", false)}, nil
	}))
	register("Squeeze", []int{1, 15}, func(l *ir.Layer, v int) (Op, error) {
		s := &Squeeze{Version: v}
		if v == 15 {
			s.AllowAxisSkip = attrs{l}.bool("allow_axis_skip", false)
		}
		return s, nil
	})
	register("Unsqueeze", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &Unsqueeze{}, nil }))
	register("Transpose", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &Transpose{}, nil }))
	register("Tile", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &Tile{}, nil }))
	register("Select", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		bc, err := attrs{l}.broadcast(shapeinfer.Numpy)
		return &Select{bc}, err
	}))
	register("Broadcast", []int{1, 3}, newBroadcast)
	register("Range", []int{1, 4}, newRange)
	register("Split", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Split{NumSplits: attrs{l}.int("num_splits", 0)}, nil
	}))
	register("VariadicSplit", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &VariadicSplit{}, nil }))
	register("StridedSlice", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		return &StridedSlice{
			BeginMask: a.ints("begin_mask"), EndMask: a.ints("end_mask"), NewAxisMask: a.ints("new_axis_mask"),
			ShrinkAxisMask: a.ints("shrink_axis_mask"), EllipsisMask: a.ints("ellipsis_mask"),
		}, nil
	}))
	register("Slice", []int{8}, unversioned(func(*ir.Layer) (Op, error) { return &Slice{}, nil }))
}

// ShapeOf

func (s *ShapeOf) OpType() (string, string) { return "ShapeOf", opset(s.Version) }

func (s *ShapeOf) Attrs() []ir.Attr {
	if s.Version == 3 {
		return []ir.Attr{attr("output_type", s.OutputType.String())}
	}
	return nil
}

func (s *ShapeOf) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	t := ir.I64
	if s.Version == 3 {
		if s.OutputType != ir.I32 && s.OutputType != ir.I64 {
			return nil, errorf("%w: Output type must be i32 or i64", ErrType)
		}
		t = s.OutputType
	}
	if rank, ok := rankOf(in[0].Shape); ok {
		return []ValueInfo{{Type: t, Shape: shapeinfer.StaticShape(int64(rank))}}, nil
	}
	return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
}

func (*ShapeOf) ignoresData(int) bool { return true }

func (s *ShapeOf) evaluate(in, out []*ir.Tensor, _ Options) error {
	for i, d := range in[0].Shape {
		out[0].SetInt64(i, d)
	}
	return nil
}

// foldShape computes the output of a ShapeOf whose input shape is static,
// whatever its data, as OpenVINO's constant folding does.
func (s *ShapeOf) foldShape(in []ValueInfo) []*ir.Tensor {
	dims, ok := in[0].Shape.ToStatic()
	if len(in) != 1 || !ok {
		return nil
	}
	out, err := s.Infer(in)
	if err != nil {
		return nil
	}
	t, err := ir.NewTensor(out[0].Type, []int64{int64(len(dims))})
	if err != nil {
		return nil
	}
	for i, d := range dims {
		t.SetInt64(i, d)
	}
	return []*ir.Tensor{t}
}

// Gather

func (g *Gather) OpType() (string, string) { return "Gather", opset(g.Version) }

func (g *Gather) Attrs() []ir.Attr {
	if g.Version == 1 {
		return nil
	}
	return []ir.Attr{attr("batch_dims", strconv.FormatInt(g.BatchDims, 10))}
}

// gatherAxes resolves the axis (when known) and batch_dims of a Gather.
func (g *Gather) gatherAxes(in []ValueInfo) (axis, batchDims int64, axisKnown bool, err error) {
	dataRank, dataStatic := rankOf(in[0].Shape)
	idxRank, idxStatic := rankOf(in[1].Shape)
	batchDims = g.BatchDims
	if batchDims < 0 && idxStatic {
		batchDims += int64(idxRank)
	}
	if v, ok := constInts(in[2]); ok && len(v) > 0 {
		axis, axisKnown = v[0], true
		if dataStatic {
			n, err := normalizeAxis(axis, dataRank)
			if err != nil {
				return 0, 0, false, err
			}
			axis = int64(n)
		}
		if !(batchDims <= axis || batchDims < 0 || axis < 0) {
			return 0, 0, false, errorf("%w: After normalization batch_dims must be <= axis. But instead got: batch_dims = %d, axis = %d", ErrAttribute, batchDims, axis)
		}
	}
	if idxStatic && batchDims < 0 {
		return 0, 0, false, errorf("%w: The batch_dims must be >= -indices_rank. But instead got: batch_dims = %d, indices_rank = %d", ErrAttribute, g.BatchDims, idxRank)
	}
	if idxStatic && batchDims >= 0 && batchDims > int64(idxRank) {
		return 0, 0, false, errorf("%w: The batch_dims must be <= indices_rank. But instead got: batch_dims = %d, indices_rank = %d", ErrAttribute, batchDims, idxRank)
	}
	return axis, batchDims, axisKnown, nil
}

func (g *Gather) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Indices"); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[2].Type, "Axis"); err != nil {
		return nil, err
	}
	if s := in[2].Shape; s.IsStatic() {
		if !(len(s.Dims) == 0 || len(s.Dims) == 1 && s.Dims[0].Min == 1) {
			return nil, errorf("%w: Axis input must be scalar or have 1 element. But instead got axis_shape = %s", ErrShape, s)
		}
	}
	axis, batchDims, axisKnown, err := g.gatherAxes(in)
	if err != nil {
		return nil, err
	}
	data, idx := in[0].Shape, in[1].Shape
	if data.DynamicRank || idx.DynamicRank {
		return []ValueInfo{{Type: in[0].Type, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	if batchDims >= int64(len(data.Dims)) {
		return nil, errorf("%w: The batch_dims must be < data_rank. But instead got: batch_dims = %d, data_rank = %d", ErrAttribute, batchDims, len(data.Dims))
	}
	outRank := len(data.Dims) + len(idx.Dims) - 1 - int(batchDims)
	if outRank < 0 {
		return nil, errorf("%w: Gather output rank %d is negative (data %s, indices %s, batch_dims %d)", ErrShape, outRank, data, idx, batchDims)
	}
	out := dynamicShape(outRank)
	i := 0
	for ; i < int(batchDims); i++ {
		if i >= len(data.Dims) {
			return nil, errorf("%w: batch_dims %d is larger than the data rank %d", ErrShape, batchDims, len(data.Dims))
		}
		d, ok := shapeinfer.Merge(data.Dims[i], idx.Dims[i])
		if !ok {
			return nil, errorf("%w: Shapes %s and %s are not consistent. data and indices must have equal or intersecting sizes until batch_dims", ErrShape, data, idx)
		}
		out.Dims[i] = d
	}
	if axisKnown {
		a, idxRank := int(axis), len(idx.Dims)
		for ; i < a; i++ {
			out.Dims[i] = data.Dims[i]
		}
		for ; i < a+idxRank-int(batchDims); i++ {
			out.Dims[i] = idx.Dims[int(batchDims)-a+i]
		}
		for ; i < outRank; i++ {
			out.Dims[i] = data.Dims[int(batchDims)+1-idxRank+i]
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: out}}, nil
}

func (g *Gather) evaluate(in, out []*ir.Tensor, _ Options) error {
	infos := []ValueInfo{
		{Shape: staticDims(in[0].Shape)}, {Shape: staticDims(in[1].Shape)}, {Shape: staticDims(in[2].Shape), Value: in[2]},
	}
	a64, b64, _, err := g.gatherAxes(infos)
	if err != nil {
		return err
	}
	data, indices, dst := in[0], in[1], out[0]
	dd, id := data.Shape, indices.Shape
	axis, batch := int(a64), int(b64)
	prod := func(s []int64) int {
		n := 1
		for _, d := range s {
			n *= int(d)
		}
		return n
	}
	batchSize := prod(dd[:batch])
	outerSize := prod(dd[batch:axis])
	idxSize := prod(id[batch:])
	innerSize := prod(dd[axis+1:])
	axisSize := int64(dd[axis])
	batchData, batchOut, batchIdx := prod(dd[batch:]), prod(dst.Shape[batch:]), idxSize
	size := data.Type.Size()
	for b := range batchSize {
		for o := range outerSize {
			dataOff := batchData*b + innerSize*int(axisSize)*o
			outOff := batchOut*b + idxSize*innerSize*o
			for i := range idxSize {
				k := intAt(indices, i+batchIdx*b)
				if isU64(indices.Type) && k < 0 {
					continue // beyond 2^63: out of range
				}
				if k < 0 {
					k += axisSize
				}
				if k < 0 || k >= axisSize {
					continue // zeros, as NewTensor left them
				}
				copyElems(dst, outOff+innerSize*i, data, dataOff+innerSize*int(k), innerSize, size)
			}
		}
	}
	return nil
}

// Concat

func (*Concat) OpType() (string, string) { return "Concat", "opset1" }

func (c *Concat) Attrs() []ir.Attr {
	return []ir.Attr{attr("axis", strconv.FormatInt(c.Axis, 10))}
}

func (c *Concat) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) == 0 {
		return nil, errorf("%w: At least one argument required.", ir.ErrGraph)
	}
	t := ir.Dynamic
	for _, v := range in {
		var ok bool
		if t, ok = mergeTypes(t, v.Type); !ok {
			return nil, errorf("%w: Argument element types are inconsistent.", ErrType)
		}
	}
	out := shapeinfer.DynamicRankShape()
	axis := 0
	concat := shapeinfer.Static(0)
	for i, v := range in {
		if v.Shape.DynamicRank {
			concat = dimAdd(concat, shapeinfer.Dynamic())
			continue
		}
		rank := len(v.Shape.Dims)
		a := c.Axis
		if a < 0 {
			a += int64(rank)
		}
		if a < 0 || a >= int64(rank) || !out.DynamicRank && rank != len(out.Dims) {
			return nil, errorf("%w: Concatenation axis (%d) is out of bounds [%d, %d] for argument %d, which has shape %s.", ErrShape, c.Axis, -rank, rank-1, i, v.Shape)
		}
		axis = int(a)
		concat = dimAdd(concat, v.Shape.Dims[axis])
		if out.DynamicRank {
			out = shapeinfer.Shape{Dims: slices.Clone(v.Shape.Dims)}
			continue
		}
		for d := range out.Dims {
			if d == axis {
				continue
			}
			m, ok := shapeinfer.Merge(out.Dims[d], v.Shape.Dims[d])
			if !ok {
				return nil, errorf("%w: Argument shapes are inconsistent; they must have the same rank, and must have equal dimension everywhere except on the concatenation axis (axis %d).", ErrShape, axis)
			}
			out.Dims[d] = m
		}
	}
	if !out.DynamicRank {
		out.Dims[axis] = concat
	}
	return []ValueInfo{{Type: t, Shape: out}}, nil
}

func (c *Concat) evaluate(in, out []*ir.Tensor, _ Options) error {
	dst := out[0]
	axis, _ := normalizeAxis(c.Axis, len(dst.Shape))
	outer := 1
	for _, d := range dst.Shape[:axis] {
		outer *= int(d)
	}
	inner := 1
	for _, d := range dst.Shape[axis+1:] {
		inner *= int(d)
	}
	size := dst.Type.Size()
	pos := 0
	for o := range outer {
		for _, t := range in {
			n := int(t.Shape[axis]) * inner
			copyElems(dst, pos, t, o*n, n, size)
			pos += n
		}
	}
	return nil
}

// Reshape

func (*Reshape) OpType() (string, string) { return "Reshape", "opset1" }

func (r *Reshape) Attrs() []ir.Attr {
	return []ir.Attr{attr("special_zero", formatBool(r.SpecialZero))}
}

func (r *Reshape) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if t := in[1].Type; t != ir.Dynamic && !t.IsInteger() {
		return nil, errorf("%w: PAttern must be an integral number.", ErrType)
	}
	patternRank := in[1].Shape.Rank()
	if patternRank > 1 {
		return nil, errorf("%w: Pattern shape must have rank 1 or be empty", ErrShape)
	}
	shape, err := r.infer(in[0].Shape, in[1])
	if err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
}

func (r *Reshape) infer(input shapeinfer.Shape, patternInfo ValueInfo) (shapeinfer.Shape, error) {
	pattern, known := constInts(patternInfo)
	if !known {
		ps := patternInfo.Shape
		switch {
		case ps.Rank() == 0:
			if input.Rank() > 0 {
				return shapeinfer.Shape{}, errorf("%w: Input must be scalar as pattern is scalar!", ErrShape)
			}
			return shapeinfer.Shape{Dims: []shapeinfer.Dim{}}, nil
		case ps.Rank() == 1 && ps.Dims[0].IsStatic():
			return dynamicShape(int(ps.Dims[0].Min)), nil
		}
		return shapeinfer.DynamicRankShape(), nil
	}
	minusOne := -1
	for i, p := range pattern {
		switch {
		case p == -1:
			if minusOne >= 0 {
				return shapeinfer.Shape{}, errorf("%w: More than one dimension has size of -1", ErrShape)
			}
			minusOne = i
		case p < -1:
			return shapeinfer.Shape{}, errorf("%w: Output pattern dim[%d] has invalid bounds: %d,%d", ErrShape, i, p, p)
		}
	}
	if patternInfo.Shape.Rank() == 0 {
		if len(pattern) != 1 || pattern[0] != 1 {
			return shapeinfer.Shape{}, errorf("%w: The value of scalar shape pattern should be equal to 1!", ErrShape)
		}
		pattern = nil
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(pattern))}
	if input.DynamicRank {
		for i, p := range pattern {
			switch {
			case r.SpecialZero && p == 0, p == -1:
				out.Dims[i] = shapeinfer.Dynamic()
			default:
				out.Dims[i] = shapeinfer.Static(p)
			}
		}
		return out, nil
	}
	// The products of the input and output dimensions, each split into
	// its static part and its interval part, as OpenVINO's Product does.
	var ins, outs []shapeinfer.Dim
	for i, p := range pattern {
		special := r.SpecialZero && p == 0
		switch {
		case i == minusOne:
		case special:
			if i >= len(input.Dims) {
				return shapeinfer.Shape{}, errorf("%w: '0' dimension is out of range", ErrShape)
			}
			out.Dims[i] = input.Dims[i]
		default:
			out.Dims[i] = shapeinfer.Static(p)
			outs = append(outs, out.Dims[i])
		}
		if i < len(input.Dims) && !special {
			ins = append(ins, input.Dims[i])
		}
	}
	if len(pattern) < len(input.Dims) {
		ins = append(ins, input.Dims[len(pattern):]...)
	}
	inStatic, outStatic, inDyn, outDyn := reshapeProducts(ins, outs)
	if minusOne >= 0 {
		d := resolveMinusOne(inDyn, outDyn)
		if outStatic == 0 {
			if inStatic != 0 {
				return shapeinfer.Shape{}, errorf("%w: Cannot infer '-1' dimension with zero-size output dimension unless at least one input dimension is also zero-size", ErrShape)
			}
		} else if d.Min > d.Max {
			return shapeinfer.Shape{}, errorf("%w: Non-'-1' output dimensions do not evenly divide the input dimensions", ErrShape)
		}
		out.Dims[minusOne] = d
	}
	if input.IsStatic() && out.IsStatic() {
		// OpenVINO's shape inference skips this check for a pattern with
		// -1 or a special zero ("backward_compatible_check"), and its
		// evaluate then copies the input's bytes into an output of another
		// size; its CPU plugin refuses such a reshape at run time. The
		// element counts are compared here in every case: a special zero
		// copies a dim the products leave out, so [0,3,4] to [3,4,0] would
		// otherwise become [3,4,4] made up of nothing.
		inDims, _ := input.ToStatic()
		outDims, _ := out.ToStatic()
		nIn, okIn := elementCount(inDims)
		nOut, okOut := elementCount(outDims)
		if !okIn || !okOut || nIn != nOut {
			return shapeinfer.Shape{}, errorf("%w: Requested output shape %s is incompatible with input shape %s", ErrShape, out, input)
		}
	}
	return out, nil
}

// elementCount is the number of elements of a static shape: 0 when a dim
// is 0 (however large the others), false past 2^63-1.
func elementCount(dims []int64) (int64, bool) {
	if slices.Contains(dims, 0) {
		return 0, true
	}
	n, err := ir.NumElements(dims)
	return n, err == nil
}

// reshapeProducts multiplies the input and output dimensions of a Reshape
// after cancelling equal static non-zero pairs, keeping static and
// interval parts apart, then folds the static parts into the interval
// ones when they differ (reshape_shape_inference.hpp, Product::calculate).
func reshapeProducts(ins, outs []shapeinfer.Dim) (inStatic, outStatic int64, inDyn, outDyn shapeinfer.Dim) {
	outs = slices.Clone(outs)
	inS, inD := shapeinfer.Static(1), shapeinfer.Static(1)
	outS, outD := shapeinfer.Static(1), shapeinfer.Static(1)
	for _, d := range ins {
		j := slices.IndexFunc(outs, func(o shapeinfer.Dim) bool { return o == d && d.IsStatic() && d.Min != 0 })
		switch {
		case j >= 0:
			outs = slices.Delete(outs, j, j+1)
		case d.IsStatic():
			inS = dimMul(inS, d)
		default:
			inD = dimMul(inD, d)
		}
	}
	for _, o := range outs {
		if o.IsStatic() {
			outS = dimMul(outS, o)
		} else {
			outD = dimMul(outD, o)
		}
	}
	if inS != outS {
		inD = dimMul(inD, inS)
		outD = dimMul(outD, outS)
	}
	return inS.Min, outS.Min, inD, outD
}

// resolveMinusOne divides the input product by the output product.
func resolveMinusOne(in, out shapeinfer.Dim) shapeinfer.Dim {
	if in.IsStatic() && out.IsStatic() {
		if out.Min == 0 {
			return shapeinfer.Dynamic()
		}
		return shapeinfer.Dim{Min: ceilDiv(in.Min, out.Min), Max: in.Min / out.Min}
	}
	d := in
	if in.Max != unbounded && out.Min != 0 && !out.IsDynamic() {
		d.Max = in.Max / out.Min
	} else {
		d.Max = unbounded
	}
	if out.Max != 0 {
		d.Min = ceilDiv(in.Min, out.Max)
	}
	return d
}

func (*Reshape) evaluate(in, out []*ir.Tensor, _ Options) error {
	copy(out[0].Data, in[0].Data)
	return nil
}

// Squeeze

func (s *Squeeze) OpType() (string, string) { return "Squeeze", opset(s.Version) }

func (s *Squeeze) Attrs() []ir.Attr {
	if s.Version == 15 {
		return []ir.Attr{attr("allow_axis_skip", formatBool(s.AllowAxisSkip))}
	}
	return nil
}

func (s *Squeeze) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 2); err != nil {
		return nil, err
	}
	arg := in[0].Shape
	result := func(shape shapeinfer.Shape) ([]ValueInfo, error) {
		return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
	}
	var axes map[int]bool
	if len(in) == 1 {
		axes = map[int]bool{}
	} else {
		if err := checkIntegral(in[1].Type, "Axes"); err != nil {
			return nil, err
		}
		as := in[1].Shape
		if !as.DynamicRank && len(as.Dims) > 1 {
			return nil, errorf("%w: Second input (axes) should not be of rank higher than 1. Got: %d", ErrShape, len(as.Dims))
		}
		if !arg.DynamicRank && as.IsStatic() {
			if v, ok := constInts(in[1]); ok {
				n, err := normalizeAxes(v, len(arg.Dims))
				if err != nil {
					return nil, err
				}
				axes = map[int]bool{}
				for _, a := range n {
					axes[a] = true
				}
			} else if len(arg.Dims) > 0 && in[1].Shape.Compatible([]int64{1}) || len(arg.Dims) > 0 && len(as.Dims) == 0 {
				if slices.ContainsFunc(arg.Dims, func(d shapeinfer.Dim) bool { return d.Contains(1) }) {
					return result(dynamicShape(len(arg.Dims) - 1))
				}
				return result(arg)
			}
		}
	}
	if arg.DynamicRank || axes == nil {
		return result(shapeinfer.DynamicRankShape())
	}
	out := shapeinfer.Shape{Dims: []shapeinfer.Dim{}}
	if len(axes) == 0 {
		for _, d := range arg.Dims {
			if !d.IsStatic() && d.Contains(1) {
				return result(shapeinfer.DynamicRankShape())
			}
			if !d.Contains(1) {
				out.Dims = append(out.Dims, d)
			}
		}
		return result(out)
	}
	if s.AllowAxisSkip {
		for i, d := range arg.Dims {
			if axes[i] && !d.IsStatic() && d.Contains(1) {
				return result(shapeinfer.DynamicRankShape())
			}
		}
	}
	for i, d := range arg.Dims {
		if !axes[i] || !d.Contains(1) {
			out.Dims = append(out.Dims, d)
		}
	}
	return result(out)
}

func (*Squeeze) evaluate(in, out []*ir.Tensor, _ Options) error {
	copy(out[0].Data, in[0].Data)
	return nil
}

// Unsqueeze

func (*Unsqueeze) OpType() (string, string) { return "Unsqueeze", "opset1" }
func (*Unsqueeze) Attrs() []ir.Attr         { return nil }

func (*Unsqueeze) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Axes"); err != nil {
		return nil, err
	}
	if r := in[1].Shape.Rank(); r > 1 {
		return nil, errorf("%w: Second input (axes) should not be of rank higher than 1. Got: %d", ErrShape, r)
	}
	arg := in[0].Shape
	v, known := constInts(in[1])
	if !known || arg.DynamicRank {
		as := in[1].Shape
		if !arg.DynamicRank && as.IsStatic() && len(as.Dims) == 1 && as.Dims[0].Min == 1 {
			return []ValueInfo{{Type: in[0].Type, Shape: dynamicShape(len(arg.Dims) + 1)}}, nil
		}
		return []ValueInfo{{Type: in[0].Type, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	if len(v) == 0 {
		return nil, errorf("%w: 'axes' input is mandatory", ErrShape)
	}
	unique := slices.Compact(slices.Sorted(slices.Values(v)))
	n, err := normalizeAxes(unique, len(arg.Dims)+len(unique))
	if err != nil {
		return nil, err
	}
	slices.Sort(n)
	n = slices.Compact(n)
	out := shapeinfer.Shape{Dims: slices.Clone(arg.Dims)}
	for _, a := range n {
		if a <= len(out.Dims) {
			out.Dims = slices.Insert(out.Dims, a, shapeinfer.Static(1))
		} else {
			out.Dims = append(out.Dims, shapeinfer.Static(1))
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: out}}, nil
}

func (*Unsqueeze) evaluate(in, out []*ir.Tensor, _ Options) error {
	copy(out[0].Data, in[0].Data)
	return nil
}

// Transpose

func (*Transpose) OpType() (string, string) { return "Transpose", "opset1" }
func (*Transpose) Attrs() []ir.Attr         { return nil }

// order returns the permutation for a data rank, from the order input.
func transposeOrder(order []int64, rank int, arg shapeinfer.Shape) ([]int, error) {
	if len(order) == 0 {
		p := make([]int, rank)
		for i := range p {
			p[i] = rank - 1 - i
		}
		return p, nil
	}
	p, err := normalizeAxes(order, rank)
	if err != nil || len(p) != rank || hasDuplicates(p) {
		return nil, errorf("%w: Permutation %v is not valid for input shape %s", ErrShape, order, arg)
	}
	return p, nil
}

func (*Transpose) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Input order"); err != nil {
		return nil, err
	}
	os := in[1].Shape
	if r := os.Rank(); r > 1 {
		return nil, errorf("%w: Input order must be a vector.", ErrShape)
	}
	arg := in[0].Shape
	if !arg.DynamicRank && os.Rank() == 1 && os.Dims[0].IsStatic() && os.Dims[0].Min != 0 && os.Dims[0].Min != int64(len(arg.Dims)) {
		return nil, errorf("%w: Input order must have shape [n], where n is the rank of arg.", ErrShape)
	}
	order, known := constInts(in[1])
	switch {
	case arg.DynamicRank && known && len(order) > 0:
		return []ValueInfo{{Type: in[0].Type, Shape: dynamicShape(len(order))}}, nil
	case arg.DynamicRank:
		return []ValueInfo{{Type: in[0].Type, Shape: arg}}, nil
	case !known:
		return []ValueInfo{{Type: in[0].Type, Shape: dynamicShape(len(arg.Dims))}}, nil
	}
	p, err := transposeOrder(order, len(arg.Dims), arg)
	if err != nil {
		return nil, err
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(p))}
	for i, a := range p {
		out.Dims[i] = arg.Dims[a]
	}
	return []ValueInfo{{Type: in[0].Type, Shape: out}}, nil
}

func (*Transpose) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	p, err := transposeOrder(ints(in[1]), len(src.Shape), staticDims(src.Shape))
	if err != nil {
		return err
	}
	inStrides := rowMajor(src.Shape)
	permuted := make([]int64, len(p)) // the input stride of each output axis
	for i, a := range p {
		permuted[i] = int64(inStrides[a])
	}
	size := src.Type.Size()
	coord := make([]int, len(p))
	for o := range dst.Len() {
		unflatten(o, dst.Shape, coord)
		s := 0
		for i, c := range coord {
			s += c * int(permuted[i])
		}
		copyElems(dst, o, src, s, 1, size)
	}
	return nil
}

// Tile

func (*Tile) OpType() (string, string) { return "Tile", "opset1" }
func (*Tile) Attrs() []ir.Attr         { return nil }

func (*Tile) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Tile repeats"); err != nil {
		return nil, err
	}
	rs := in[1].Shape
	if !rs.DynamicRank && len(rs.Dims) != 1 {
		return nil, errorf("%w: Tile repeats must be of rank 1", ErrShape)
	}
	arg := in[0].Shape
	reps, known := constInts(in[1])
	switch {
	case !arg.DynamicRank && known:
		rank := max(len(arg.Dims), len(reps))
		out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, rank)}
		for i := range rank {
			r := int64(1)
			if j := i - (rank - len(reps)); j >= 0 {
				r = max(reps[j], 0)
			}
			d := shapeinfer.Static(1)
			if j := i - (rank - len(arg.Dims)); j >= 0 {
				d = arg.Dims[j]
			}
			out.Dims[i] = dimMul(d, shapeinfer.Static(r))
		}
		return []ValueInfo{{Type: in[0].Type, Shape: out}}, nil
	case !arg.DynamicRank && rs.IsStatic():
		return []ValueInfo{{Type: in[0].Type, Shape: dynamicShape(max(len(arg.Dims), int(rs.Dims[0].Min)))}}, nil
	}
	return []ValueInfo{{Type: in[0].Type, Shape: shapeinfer.DynamicRankShape()}}, nil
}

func (*Tile) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	rank := len(dst.Shape)
	srcDims := append(ones(rank-len(src.Shape)), src.Shape...)
	srcStrides := rowMajor(srcDims)
	size := src.Type.Size()
	coord := make([]int, rank)
	for o := range dst.Len() {
		unflatten(o, dst.Shape, coord)
		s := 0
		for i, c := range coord {
			s += c % int(srcDims[i]) * srcStrides[i]
		}
		copyElems(dst, o, src, s, 1, size)
	}
	return nil
}

// Select

func (*Select) OpType() (string, string) { return "Select", "opset1" }
func (s *Select) Attrs() []ir.Attr       { return broadcastAttrs(s.Broadcast) }

func (s *Select) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	if t := in[0].Type; t != ir.Dynamic && t != ir.Boolean {
		return nil, errorf("%w: Argument 0 must have boolean element type (element type: %s).", ErrType, t)
	}
	t, ok := mergeTypes(in[1].Type, in[2].Type)
	if !ok {
		return nil, errorf("%w: Argument 1 and 2 element types must match.", ErrType)
	}
	var shape shapeinfer.Shape
	var err error
	if s.Broadcast.Mode == shapeinfer.PDPD {
		if shape, err = shapeinfer.Elementwise(in[1].Shape, in[2].Shape, s.Broadcast); err != nil {
			return nil, errorf("%w: 'Else' tensor shape is not broadcastable.", ErrShape)
		}
	} else if shape, err = shapeinfer.Elementwise(in[2].Shape, in[1].Shape, s.Broadcast); err != nil {
		return nil, err
	}
	if shape, err = shapeinfer.Elementwise(shape, in[0].Shape, s.Broadcast); err != nil {
		if s.Broadcast.Mode == shapeinfer.None {
			return nil, err
		}
		return nil, errorf("%w: 'Cond' tensor shape is not broadcastable.", ErrShape)
	}
	return []ValueInfo{{Type: t, Shape: shape}}, nil
}

func (s *Select) evaluate(in, out []*ir.Tensor, _ Options) error {
	dst := out[0]
	rank := len(dst.Shape)
	align := func(dims []int64) []int64 {
		if s.Broadcast.Mode == shapeinfer.PDPD {
			axis := shapeinfer.PDPDAxis(rank, len(dims), s.Broadcast.Axis)
			return append(append(ones(axis), dims...), ones(rank-axis-len(dims))...)
		}
		return append(ones(rank-len(dims)), dims...)
	}
	size := dst.Type.Size()
	walk(dst.Shape, [][]int64{align(in[0].Shape), align(in[1].Shape), align(in[2].Shape)}, func(o int, idx []int) {
		if in[0].Data[idx[0]] != 0 {
			copyElems(dst, o, in[1], idx[1], 1, size)
		} else {
			copyElems(dst, o, in[2], idx[2], 1, size)
		}
	})
	return nil
}

// Broadcast

// Broadcast is Broadcast-1 (Mode numpy or explicit) or Broadcast-3 (numpy,
// explicit or bidirectional): the data broadcast to the shape given by the
// second input; explicit mode maps the data's axes to the output's by the
// third input, axes_mapping.
type Broadcast struct {
	Version int
	Mode    BroadcastMode
}

// BroadcastMode is Broadcast's mode attribute.
type BroadcastMode uint8

const (
	BroadcastNumpy BroadcastMode = iota
	BroadcastExplicit
	BroadcastBidirectional
	BroadcastPDPD
)

var broadcastModes = []string{"numpy", "explicit", "bidirectional", "pdpd"}

func (m BroadcastMode) String() string { return broadcastModes[m] }

func newBroadcast(l *ir.Layer, v int) (Op, error) {
	names := []string{"numpy", "explicit", "bidirectional", "pdpd", "none"}
	m, err := attrs{l}.enum("mode", "ov::op::BroadcastType", names, 0)
	if err != nil {
		return nil, err
	}
	mode := BroadcastMode(m)
	if m == 4 {
		mode = BroadcastExplicit
	}
	if mode == BroadcastBidirectional && v == 1 {
		return nil, errorf("%w: %q is not a member of enum ov::op::AutoBroadcastType (Broadcast-1 mode must be numpy, explicit or pdpd)", ErrAttribute, "bidirectional")
	}
	if mode == BroadcastPDPD {
		return nil, unsupportedVersion("Broadcast (mode pdpd)", v)
	}
	return &Broadcast{Version: v, Mode: mode}, nil
}

func (b *Broadcast) OpType() (string, string) { return "Broadcast", opset(b.Version) }

func (b *Broadcast) Attrs() []ir.Attr { return []ir.Attr{attr("mode", b.Mode.String())} }

func (b *Broadcast) Infer(in []ValueInfo) ([]ValueInfo, error) {
	lo, hi := 2, 3
	if b.Mode == BroadcastExplicit {
		lo = 3
	} else if b.Version == 3 {
		hi = 2
	}
	if err := inputCount(in, lo, hi); err != nil {
		if b.Mode == BroadcastExplicit {
			return nil, errorf("%w: axes_mapping input should be provided if explicit mode is used", ir.ErrGraph)
		}
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Broadcast target_shape"); err != nil {
		return nil, err
	}
	ts := in[1].Shape
	if r := ts.Rank(); r >= 0 && r != 1 {
		return nil, errorf("%w: Broadcast shape rank must be 1, but has %d", ErrShape, r)
	}
	arg := in[0].Shape
	target, known := constInts(in[1])
	result := func(shape shapeinfer.Shape) ([]ValueInfo, error) {
		return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
	}
	var targetShape shapeinfer.Shape
	if known {
		for _, d := range target {
			if d < 0 {
				return nil, errorf("%w: Broadcast target shape %v has a negative dimension", ErrShape, target)
			}
		}
		targetShape = staticDims(target)
	}
	switch b.Mode {
	case BroadcastExplicit:
		if !known {
			if ts.IsStatic() {
				return result(dynamicShape(int(ts.Dims[0].Min)))
			}
			return result(shapeinfer.DynamicRankShape())
		}
		if err := checkIntegral(in[2].Type, "Broadcast axes_mapping"); err != nil {
			return nil, err
		}
		if r := in[2].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Broadcast axes rank must be 1, but has %d", ErrShape, r)
		}
		if mapping, ok := constInts(in[2]); ok && !arg.DynamicRank {
			if _, err := explicitAxes(arg, mapping, targetShape); err != nil {
				return nil, err
			}
		}
		return result(targetShape)
	case BroadcastBidirectional:
		if !known {
			if !arg.DynamicRank && ts.IsStatic() {
				s, err := shapeinfer.Elementwise(dynamicShape(int(ts.Dims[0].Min)), arg, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
				if err != nil {
					return nil, err
				}
				return result(s)
			}
			return result(shapeinfer.DynamicRankShape())
		}
		if arg.DynamicRank {
			return result(shapeinfer.DynamicRankShape())
		}
		s, err := shapeinfer.Elementwise(arg, targetShape, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
		if err != nil {
			return nil, errorf("%w: Broadcast incorrect target shape. Expecting either 1 or %s. Got %s", ErrShape, arg, targetShape)
		}
		return result(s)
	}
	if !known {
		if ts.IsStatic() {
			return result(dynamicShape(int(ts.Dims[0].Min)))
		}
		return result(shapeinfer.DynamicRankShape())
	}
	if !arg.DynamicRank {
		if len(target) < len(arg.Dims) {
			return nil, errorf("%w: Broadcast target_shape has smaller rank %d than arg shape %d", ErrShape, len(target), len(arg.Dims))
		}
		start := len(target) - len(arg.Dims)
		for i, d := range arg.Dims {
			t := target[start+i]
			if d.IsStatic() && !d.Contains(1) && !d.Contains(t) {
				return nil, errorf("%w: Input shape dimension equal %s cannot be broadcasted (numpy mode) to %d. Allowed input dimension value would be 1 or %d", ErrShape, d, t, t)
			}
		}
	}
	return result(targetShape)
}

// explicitAxes checks an explicit axes_mapping against the data and
// target shapes and returns it.
func explicitAxes(arg shapeinfer.Shape, mapping []int64, target shapeinfer.Shape) ([]int, error) {
	rank := len(arg.Dims)
	if rank == 0 && len(mapping) > 0 {
		rank = 1
	}
	if len(mapping) != rank {
		return nil, errorf("%w: Broadcast axes_mapping shape [%d] doesn't match rank of input tensor %d", ErrShape, len(mapping), rank)
	}
	if !slices.IsSorted(mapping) {
		return nil, errorf("%w: Broadcast doesn't permit transposes. axes_mapping %v not in sorted order", ErrShape, mapping)
	}
	axes := make([]int, len(mapping))
	for i, a := range mapping {
		if a < 0 || a >= int64(len(target.Dims)) {
			return nil, errorf("%w: Broadcast axes_mapping[%d]: %d exceeds target rank %d", ErrShape, i, a, len(target.Dims))
		}
		axes[i] = int(a)
		if len(arg.Dims) > 0 {
			d, t := arg.Dims[i], target.Dims[a]
			if _, ok := shapeinfer.Merge(d, t); !ok && !d.Contains(1) {
				return nil, errorf("%w: Broadcast target[axes_mapping[%d]] Expected %s. Got %s", ErrShape, i, d, t)
			}
		}
	}
	return axes, nil
}

func (b *Broadcast) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	rank := len(dst.Shape)
	dims := append(ones(rank-len(src.Shape)), src.Shape...)
	if b.Mode == BroadcastExplicit {
		dims = ones(rank)
		if len(src.Shape) > 0 {
			axes, err := explicitAxes(staticDims(src.Shape), ints(in[2]), staticDims(dst.Shape))
			if err != nil {
				return err
			}
			for i, a := range axes {
				dims[a] = src.Shape[i]
			}
		}
	}
	size := src.Type.Size()
	walk(dst.Shape, [][]int64{dims}, func(o int, idx []int) {
		copyElems(dst, o, src, idx[0], 1, size)
	})
	return nil
}

// Range

// Range is Range-1 (the output type of its inputs) or Range-4
// (OutputType): start, start+step, ... up to stop, exclusive. The length
// is ceil(|stop - start| / |step|) in double precision, 0 when step points
// away from stop, after truncating the bounds toward zero for integer
// outputs; OpenVINO stores it as a uint32 (static_cast<uint32_t>), so a
// length of 2^32 or more keeps its low 32 bits. Integer outputs add step
// repeatedly (wrapping); float outputs are start + T(i) * step in the type.
type Range struct {
	Version    int
	OutputType ir.ElementType
}

func newRange(l *ir.Layer, v int) (Op, error) {
	r := &Range{Version: v}
	if v == 4 {
		t, err := attrs{l}.elementType("output_type", ir.Dynamic)
		if err != nil {
			return nil, err
		}
		r.OutputType = t
	}
	return r, nil
}

func (r *Range) OpType() (string, string) { return "Range", opset(r.Version) }

func (r *Range) Attrs() []ir.Attr {
	if r.Version == 4 {
		return []ir.Attr{attr("output_type", r.OutputType.String())}
	}
	return nil
}

func (r *Range) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	t := r.OutputType
	if r.Version == 4 {
		if !t.IsNumeric() {
			return nil, errorf("%w: output tensor type should be a numeric type. Got: %s", ErrType, t)
		}
		for i, name := range []string{"start", "stop", "step"} {
			if et := in[i].Type; et != ir.Dynamic && !et.IsNumeric() {
				return nil, errorf("%w: '%s' input scalar should be a numeric type. Got: %s", ErrType, name, et)
			}
		}
	} else {
		t = ir.Dynamic
		for _, v := range in {
			var ok bool
			if t, ok = mergeTypes(t, v.Type); !ok {
				return nil, errorf("%w: Element types for start, stop, and step do not match.", ErrType)
			}
		}
		if t == ir.Boolean {
			return nil, errorf("%w: Element type for start, stop, and step, must not be boolean.", ErrType)
		}
		if t == ir.Dynamic {
			return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
		}
	}
	vals := [3]float64{}
	known := true
	for i, name := range []string{"start", "stop", "step"} {
		if in[i].Shape.Rank() > 0 {
			return nil, errorf("%w: '%s' input is not a scalar", ErrShape, name)
		}
		v, ok := constFloats(in[i])
		if !ok {
			known = false
			continue
		}
		vals[i] = v[0]
		if math.IsInf(v[0], 0) || math.IsNaN(v[0]) {
			return nil, errorf("%w: '%s' cannot be nan or infinite.", ErrAttribute, name)
		}
		if i == 2 && r.Version == 1 && v[0] == 0 {
			return nil, errorf("%w: 'step' cannot be zero, nan, or infinite.", ErrAttribute)
		}
	}
	if !known {
		return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
	}
	start, stop, step := vals[0], vals[1], vals[2]
	if t.IsInteger() {
		start, stop, step = math.Trunc(start), math.Trunc(stop), math.Trunc(step)
	}
	span := stop - start
	if step > 0 && start >= stop || step < 0 && start <= stop {
		span = 0
	}
	n := uint32(floatToInt(math.Ceil(math.Abs(span)/math.Abs(step)), ir.U32))
	return []ValueInfo{{Type: t, Shape: shapeinfer.StaticShape(int64(n))}}, nil
}

func (r *Range) evaluate(in, out []*ir.Tensor, _ Options) error {
	dst := out[0]
	t := dst.Type
	if t.IsInteger() {
		var start, step int64
		if r.Version == 1 {
			start, step = intAt(in[0], 0), intAt(in[2], 0)
		} else {
			s, _ := constFloats(ValueInfo{Value: in[0]})
			d, _ := constFloats(ValueInfo{Value: in[2]})
			start, step = floatToInt(s[0], t), floatToInt(d[0], t)
		}
		v := start
		for i := range dst.Len() {
			dst.SetInt64(i, v)
			v += step
		}
		return nil
	}
	s, _ := constFloats(ValueInfo{Value: in[0]})
	d, _ := constFloats(ValueInfo{Value: in[2]})
	if isF64(t) {
		for i := range dst.Len() {
			ir.View[float64](dst)[i] = s[0] + float64(float64(i)*d[0])
		}
		return nil
	}
	start, step := float32(s[0]), float32(d[0])
	if t != ir.F32 && r.Version == 1 {
		// Range-1 adds in the type itself (ov::float16 arithmetic goes
		// through float and rounds back at each store).
		start, step = f32At(in[0], 0), f32At(in[2], 0)
	}
	for i := range dst.Len() {
		setF32(dst, i, start+float32(float32(i)*step))
	}
	return nil
}
