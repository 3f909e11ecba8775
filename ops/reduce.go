package ops

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Reduce is one of the reductions ReduceSum, ReduceProd, ReduceMin,
// ReduceMax, ReduceMean (all -1), ReduceLogicalAnd and ReduceLogicalOr
// (-1, booleans) over the axes given by the second input, keeping the
// reduced dimensions as 1 when KeepDims is set. Empty axes reduce nothing.
//
// Evaluation follows OpenVINO's reference kernels: integer sums and
// products wrap; float sums use Kahan's compensated summation in the
// type's precision (f32 for f16 and bf16), reduce_sum.hpp; ReduceMax
// starts from the type's lowest finite value and keeps std::max(acc, x),
// so NaNs are skipped and an empty reduction gives that lowest value
// (ReduceMin likewise with the highest); ReduceMean divides the sum by
// the count in the type (integers truncate).
type Reduce struct {
	Kind     ReduceKind
	KeepDims bool
}

// ReduceKind names a reduction.
type ReduceKind uint8

const (
	ReduceSum ReduceKind = iota
	ReduceProd
	ReduceMin
	ReduceMax
	ReduceMean
	ReduceLogicalAnd
	ReduceLogicalOr
)

var reduceNames = []string{"ReduceSum", "ReduceProd", "ReduceMin", "ReduceMax", "ReduceMean", "ReduceLogicalAnd", "ReduceLogicalOr"}

func (k ReduceKind) String() string { return reduceNames[k] }

func registerReductions() {
	for k, name := range reduceNames {
		register(name, []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
			return &Reduce{Kind: ReduceKind(k), KeepDims: attrs{l}.bool("keep_dims", false)}, nil
		}))
	}
}

func (r *Reduce) OpType() (string, string) { return r.Kind.String(), "opset1" }

func (r *Reduce) Attrs() []ir.Attr { return []ir.Attr{attr("keep_dims", formatBool(r.KeepDims))} }

func (r *Reduce) logical() bool { return r.Kind == ReduceLogicalAnd || r.Kind == ReduceLogicalOr }

func (r *Reduce) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	t := in[0].Type
	if r.logical() && t != ir.Dynamic && t != ir.Boolean {
		return nil, errorf("%w: Element type of data input must be boolean.", ErrType)
	}
	if !r.logical() && (t == ir.Boolean || t == ir.String) {
		return nil, errorf("%w: Element type of data input must be numeric. Got: %s", ErrType, t)
	}
	if err := checkIntegral(in[1].Type, "Axes input"); err != nil {
		return nil, err
	}
	if rk := in[1].Shape.Rank(); rk > 1 {
		return nil, errorf("%w: Axes input must be a scalar or 1D input. Got: %s", ErrShape, in[1].Shape)
	}
	data := in[0].Shape
	result := func(shape shapeinfer.Shape) ([]ValueInfo, error) {
		return []ValueInfo{{Type: t, Shape: shape}}, nil
	}
	axes, known := constInts(in[1])
	switch {
	case data.DynamicRank:
		return result(data)
	case !known && r.KeepDims:
		return result(dynamicShape(len(data.Dims)))
	case !known:
		return result(shapeinfer.DynamicRankShape())
	}
	reduced, err := reducedAxes(axes, len(data.Dims))
	if err != nil {
		return nil, err
	}
	out := shapeinfer.Shape{Dims: []shapeinfer.Dim{}}
	for i, d := range data.Dims {
		switch {
		case !reduced[i]:
			out.Dims = append(out.Dims, d)
		case r.KeepDims:
			out.Dims = append(out.Dims, shapeinfer.Static(1))
		}
	}
	return result(out)
}

func reducedAxes(axes []int64, rank int) ([]bool, error) {
	n, err := normalizeAxes(axes, rank)
	if err != nil {
		return nil, errorf("%w: Reduction axis (%v) is out of bounds (argument shape rank %d).", ErrAttribute, axes, rank)
	}
	reduced := make([]bool, rank)
	for _, a := range n {
		reduced[a] = true
	}
	return reduced, nil
}

func (r *Reduce) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	reduced, err := reducedAxes(ints(in[1]), len(src.Shape))
	if err != nil {
		return err
	}
	// The flat output index of each input element: the input's
	// coordinates with the reduced ones dropped.
	outDims := slices.Clone(src.Shape)
	for i := range outDims {
		if reduced[i] {
			outDims[i] = 1
		}
	}
	outStrides := rowMajor(outDims)
	for i := range outStrides {
		if reduced[i] {
			outStrides[i] = 0
		}
	}
	n, count := dst.Len(), 1
	for i, d := range src.Shape {
		if reduced[i] {
			count *= int(d)
		}
	}
	t := src.Type
	coord := make([]int, len(src.Shape))
	each := func(f func(o, i int)) {
		for i := range src.Len() {
			unflatten(i, src.Shape, coord)
			o := 0
			for d, c := range coord {
				o += c * outStrides[d]
			}
			f(o, i)
		}
	}
	switch {
	case r.logical():
		init := b2u(r.Kind == ReduceLogicalAnd)
		for o := range n {
			dst.Data[o] = init
		}
		each(func(o, i int) {
			if r.Kind == ReduceLogicalAnd {
				dst.Data[o] &= b2u(src.Data[i] != 0)
			} else {
				dst.Data[o] |= b2u(src.Data[i] != 0)
			}
		})
	case t.IsInteger():
		acc := make([]int64, n)
		switch r.Kind {
		case ReduceProd:
			for o := range acc {
				acc[o] = 1
			}
		case ReduceMin:
			for o := range acc {
				acc[o] = maxInt(t)
			}
		case ReduceMax:
			for o := range acc {
				acc[o] = minInt(t)
			}
		}
		each(func(o, i int) {
			x := intAt(src, i)
			switch r.Kind {
			case ReduceSum, ReduceMean:
				acc[o] += x
			case ReduceProd:
				acc[o] *= x
			case ReduceMin:
				if lessInt(t, x, acc[o]) {
					acc[o] = x
				}
			case ReduceMax:
				if lessInt(t, acc[o], x) {
					acc[o] = x
				}
			}
		})
		for o, v := range acc {
			if r.Kind == ReduceMean && count > 0 {
				// The sum is first stored in the type (wrapping), then
				// divided there.
				v = truncTo(t, v)
				if isU64(t) {
					v = int64(uint64(v) / uint64(count))
				} else {
					v /= int64(count)
				}
			}
			dst.SetInt64(o, v)
		}
	case isF64(t):
		reduceFloat(r.Kind, n, count, each, func(i int) float64 { return ir.View[float64](src)[i] },
			func(o int, v float64) { ir.View[float64](dst)[o] = v }, math.MaxFloat64)
	default:
		// The highest finite value of the type itself: f32's would round
		// to infinity in f16 and bf16.
		highest := float32(math.MaxFloat32)
		switch t {
		case ir.F16:
			highest = 65504
		case ir.BF16:
			highest = math.Float32frombits(0x7f7f0000)
		}
		reduceFloat(r.Kind, n, count, each, func(i int) float32 { return f32At(src, i) },
			func(o int, v float32) { setF32(dst, o, v) }, highest)
	}
	return nil
}

// reduceFloat reduces in T's precision as OpenVINO's kernels do.
func reduceFloat[T float32 | float64](kind ReduceKind, n, count int, each func(func(o, i int)), at func(int) T, set func(int, T), highest T) {
	acc := make([]T, n)
	comp := make([]T, n)
	switch kind {
	case ReduceProd:
		for o := range acc {
			acc[o] = 1
		}
	case ReduceMin:
		for o := range acc {
			acc[o] = highest
		}
	case ReduceMax:
		for o := range acc {
			acc[o] = -highest
		}
	}
	finite := func(x T) bool { return !math.IsInf(float64(x), 0) && !math.IsNaN(float64(x)) }
	each(func(o, i int) {
		x := at(i)
		switch kind {
		case ReduceSum, ReduceMean:
			// Kahan's summation, each step rounded to T.
			if finite(x) && finite(acc[o]) {
				y := T(x - comp[o])
				s := T(acc[o] + y)
				comp[o] = T(T(s-acc[o]) - y)
				acc[o] = s
			} else {
				acc[o] = T(x + acc[o])
			}
		case ReduceProd:
			acc[o] = T(acc[o] * x)
		case ReduceMin:
			if x < acc[o] {
				acc[o] = x
			}
		case ReduceMax:
			if acc[o] < x {
				acc[o] = x
			}
		}
	})
	for o, v := range acc {
		if kind == ReduceMean {
			v = T(v / T(count))
		}
		set(o, v)
	}
}
