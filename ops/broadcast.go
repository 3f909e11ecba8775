package ops

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Broadcast and Tile: ops that repeat their data to a larger shape.

func registerBroadcast() {
	register("Broadcast", []int{1, 3}, newBroadcast)
	register("Tile", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &Tile{}, nil }))
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

// Tile

// Tile is Tile-1: the data repeated along each axis by the repeats input
// (aligned on the right; negative repeats count as 0).
type Tile struct{}

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
