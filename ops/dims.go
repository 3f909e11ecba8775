package ops

import (
	"math"
	"math/bits"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Interval arithmetic on dimensions, saturating at shapeinfer.Unbounded as
// OpenVINO's Interval does.

const unbounded = shapeinfer.Unbounded

// satAdd adds b (of any sign) to a non-negative a.
func satAdd(a, b int64) int64 {
	if a == unbounded || b == unbounded || b > 0 && a > unbounded-b {
		return unbounded
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a == unbounded || b == unbounded {
		return unbounded
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo >= unbounded {
		return unbounded
	}
	return int64(lo)
}

func dimAdd(a, b shapeinfer.Dim) shapeinfer.Dim {
	return shapeinfer.Dim{Min: satAdd(a.Min, b.Min), Max: satAdd(a.Max, b.Max)}
}

func dimMul(a, b shapeinfer.Dim) shapeinfer.Dim {
	return shapeinfer.Dim{Min: satMul(a.Min, b.Min), Max: satMul(a.Max, b.Max)}
}

// ceilDiv divides non-negative a by positive b, rounding up.
func ceilDiv(a, b int64) int64 {
	if a == 0 {
		return 0
	}
	return (a-1)/b + 1
}

// normalizeAxis maps an axis in [-rank, rank) to [0, rank), with
// OpenVINO's message otherwise.
func normalizeAxis(axis int64, rank int) (int, error) {
	r := int64(rank)
	if axis < -r || axis >= r {
		return 0, errorf("%w: Parameter axis %d out of the tensor rank range [%d, %d].", ErrAttribute, axis, -r, r-1)
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), nil
}

// normalizeAxes normalizes every axis of a list.
func normalizeAxes(axes []int64, rank int) ([]int, error) {
	out := make([]int, len(axes))
	for i, a := range axes {
		n, err := normalizeAxis(a, rank)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// constInts returns the values of an input that inference knows, as int64
// (floats truncated, as get_input_const_data_as<int64_t> casts them).
func constInts(v ValueInfo) ([]int64, bool) {
	t := v.Value
	if t == nil || !fits(t) {
		return nil, false
	}
	if t.Type.IsFloat() {
		out := make([]int64, t.Len())
		for i := range out {
			out[i] = cvtt64(t.Float64At(i))
		}
		return out, true
	}
	if !t.Type.IsInteger() && t.Type != ir.Boolean {
		return nil, false
	}
	return ints(t), true
}

// constFloats returns the values of a known input as doubles.
func constFloats(v ValueInfo) ([]float64, bool) {
	t := v.Value
	if t == nil || !fits(t) || !(t.Type.IsNumeric() || t.Type == ir.Boolean) {
		return nil, false
	}
	out := make([]float64, t.Len())
	for i := range out {
		if t.Type.IsFloat() {
			out[i] = t.Float64At(i)
		} else {
			out[i] = intToFloat64(t.Type, intAt(t, i))
		}
	}
	return out, true
}

// checkIntegral rejects a non-integral element type for an index-like
// input.
func checkIntegral(t ir.ElementType, what string) error {
	if t == ir.Dynamic || t.IsInteger() || t == ir.I4 || t == ir.U4 || t == ir.U1 {
		return nil
	}
	return errorf("%w: %s element type must be of an integral number type, got %s", ErrType, what, t)
}

// rankOf returns a shape's rank and whether it is static.
func rankOf(s shapeinfer.Shape) (int, bool) { return len(s.Dims), !s.DynamicRank }

// dynamicShape returns the shape of the given rank with every dimension
// dynamic.
func dynamicShape(rank int) shapeinfer.Shape {
	s := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, rank)}
	for i := range s.Dims {
		s.Dims[i] = shapeinfer.Dynamic()
	}
	return s
}

// staticDims returns the static shape of dims.
func staticDims(dims []int64) shapeinfer.Shape { return shapeinfer.StaticShape(dims...) }

// rowMajor returns the row-major strides of static dims.
func rowMajor(dims []int64) []int {
	s := make([]int, len(dims))
	step := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = step
		step *= int(dims[i])
	}
	return s
}

// unflatten writes the coordinates of flat index i in dims into coord.
func unflatten(i int, dims []int64, coord []int) {
	for d := len(dims) - 1; d >= 0; d-- {
		n := int(dims[d])
		if n == 0 {
			coord[d] = 0
			continue
		}
		coord[d] = i % n
		i /= n
	}
}

// hasDuplicates reports whether a list of axes repeats one.
func hasDuplicates(axes []int) bool {
	s := slices.Clone(axes)
	slices.Sort(s)
	return len(slices.Compact(s)) != len(axes)
}

// clip limits v to [lo, hi].
func clip(v, lo, hi int64) int64 { return min(max(v, lo), hi) }

const (
	maxInt64 = math.MaxInt64
	minInt64 = math.MinInt64
)
