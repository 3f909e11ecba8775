package ir

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/x448/float16"
)

// ErrTooLarge is returned when a tensor's size overflows or exceeds MaxTensorBytes.
var ErrTooLarge = errors.New("tensor too large")

// MaxTensorBytes bounds every tensor irdiv allocates from sizes found in
// files or given on the command line (16 GiB).
const MaxTensorBytes = 1 << 34

// Tensor is a dense tensor with a static shape. Data holds the elements in
// row-major order, little-endian, packed as in a .bin file. Tensors made by
// NewTensor have Data aligned for every element type, which View requires.
type Tensor struct {
	Type  ElementType
	Shape []int64
	Data  []byte
}

// NumElements returns the product of the dimensions (1 for a scalar), or an
// error if a dimension is negative or the product overflows.
func NumElements(shape []int64) (int64, error) {
	n := uint64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension %d", d)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, ErrTooLarge
		}
		n = lo
	}
	return int64(n), nil
}

// ByteSize returns the packed byte size of n elements of type t, that is
// ceil(n*bits/8), or ErrTooLarge when it overflows.
func ByteSize(t ElementType, n int64) (int64, error) {
	hi, lo := bits.Mul64(uint64(n), uint64(t.Bits()))
	if hi != 0 || lo > math.MaxInt64-7 {
		return 0, ErrTooLarge
	}
	return int64((lo + 7) / 8), nil
}

// NewTensor returns a zeroed tensor, refusing shapes whose size overflows or
// exceeds MaxTensorBytes.
func NewTensor(t ElementType, shape []int64) (*Tensor, error) {
	n, err := NumElements(shape)
	if err != nil {
		return nil, fmt.Errorf("ir: tensor %s%v: %w", t, shape, err)
	}
	size, err := ByteSize(t, n)
	if err != nil || size > MaxTensorBytes || size > math.MaxInt {
		return nil, fmt.Errorf("ir: tensor %s%v: %w (limit %d bytes)", t, shape, ErrTooLarge, int64(MaxTensorBytes))
	}
	return &Tensor{Type: t, Shape: append([]int64{}, shape...), Data: alignedBytes(int(size))}, nil
}

// alignedBytes allocates n bytes aligned to 8, the widest element.
func alignedBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

// NumElements returns the number of elements of the tensor.
func (t *Tensor) NumElements() int {
	n, _ := NumElements(t.Shape)
	return int(n)
}

// Scalar lists the Go types that view tensor data. f16 and bf16 are viewed
// as their uint16 bit patterns (or as float16.Float16).
type Scalar interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// View returns the tensor data as a []T sharing its memory. T must have the
// element size of the tensor's type and Data must be aligned for T (true for
// tensors from NewTensor); otherwise View panics.
func View[T Scalar](t *Tensor) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if size != t.Type.Size() || len(t.Data)%size != 0 {
		panic(fmt.Sprintf("ir: View of a %s tensor as %T", t.Type, zero))
	}
	if len(t.Data) == 0 {
		return []T{}
	}
	p := unsafe.Pointer(unsafe.SliceData(t.Data))
	if uintptr(p)%uintptr(size) != 0 {
		panic("ir: View of unaligned tensor data; allocate tensors with NewTensor")
	}
	return unsafe.Slice((*T)(p), len(t.Data)/size)
}

// TensorOf returns a new tensor of type t and the given shape holding values,
// which must have one element per position and the type's element size.
func TensorOf[T Scalar](t ElementType, shape []int64, values []T) (*Tensor, error) {
	out, err := NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	if out.NumElements() != len(values) {
		return nil, fmt.Errorf("ir: %d values for shape %v", len(values), shape)
	}
	copy(View[T](out), values)
	return out, nil
}

// Float64At returns element i converted to float64, for printing and
// statistics. Integers above 2^53 lose precision; use Format for exact text.
func (t *Tensor) Float64At(i int) float64 {
	switch t.Type {
	case F32:
		return float64(View[float32](t)[i])
	case F64:
		return View[float64](t)[i]
	case F16:
		return float64(float16.Frombits(View[uint16](t)[i]).Float32())
	case BF16:
		return float64(BF16ToFloat32(View[uint16](t)[i]))
	case I8:
		return float64(View[int8](t)[i])
	case I16:
		return float64(View[int16](t)[i])
	case I32:
		return float64(View[int32](t)[i])
	case I64:
		return float64(View[int64](t)[i])
	case U8, Boolean:
		return float64(View[uint8](t)[i])
	case U16:
		return float64(View[uint16](t)[i])
	case U32:
		return float64(View[uint32](t)[i])
	case U64:
		return float64(View[uint64](t)[i])
	}
	return math.NaN()
}

// Format returns element i as text: integers exactly, floats in the
// shortest form that reads back to the same value of their type.
func (t *Tensor) Format(i int) string {
	switch t.Type {
	case I8, I16, I32, U8, U16, U32:
		return strconv.FormatInt(int64(t.Float64At(i)), 10) // exact below 2^53
	case I64:
		return strconv.FormatInt(View[int64](t)[i], 10)
	case U64:
		return strconv.FormatUint(View[uint64](t)[i], 10)
	case F32:
		return fmt.Sprint(View[float32](t)[i])
	case F16, BF16:
		return formatHalf(t.Type, View[uint16](t)[i])
	}
	return fmt.Sprint(t.Float64At(i))
}

// formatHalf prints a 16-bit float in the fewest digits that read back to
// the same bits (3/5 in f16 prints as 0.6, not 0.60009766).
func formatHalf(t ElementType, bits uint16) string {
	v := float64(float16.Frombits(bits).Float32())
	toBits := func(f float64) uint16 { return float16.Fromfloat32(float32(f)).Bits() }
	if t == BF16 {
		v = float64(BF16ToFloat32(bits))
		toBits = func(f float64) uint16 { return BF16FromFloat32(float32(f)) }
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	for prec := 1; prec < 9; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		if f, err := strconv.ParseFloat(s, 64); err == nil && toBits(f) == bits {
			return s
		}
	}
	return fmt.Sprint(float32(v))
}

// BF16ToFloat32 widens a bfloat16 bit pattern; the conversion is exact.
func BF16ToFloat32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// BF16FromFloat32 rounds an f32 to bfloat16, to nearest even; a NaN stays a
// quiet NaN (OpenVINO's ov::bfloat16 rounding is not RNE, see divide-spec.md C.3).
func BF16FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x0040
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}
