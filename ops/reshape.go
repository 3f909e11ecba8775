package ops

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The shape and data-movement ops (this file, shapeof.go, gather_slice.go,
// concat_split.go, broadcast.go, range.go). Their inference follows OpenVINO's
// src/core/shape_inference/include/*_shape_inference.hpp: with the values
// of their shape-like inputs (axes, patterns, bounds) they infer static or
// interval shapes; without them, the rank when it can be deduced.
// Evaluation copies elements of any of the evaluated types.

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

func registerReshape() {
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
