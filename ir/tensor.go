package ir

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/x448/float16"

	"github.com/irdiv/irdiv/internal/bf16"
)

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
			return 0, errorf("negative dimension %d", d)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, errorf("%w: the shape %v has more than 2^63-1 elements", ErrTooLarge, shape)
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
		return nil, errorf("tensor %s%v: %w", t, shape, inner(err))
	}
	size, err := ByteSize(t, n)
	if err != nil || size > MaxTensorBytes || size > math.MaxInt {
		return nil, errorf("tensor %s%v: %w (limit %d bytes)", t, shape, ErrTooLarge, int64(MaxTensorBytes))
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

// Len returns the number of elements of the tensor.
func (t *Tensor) Len() int {
	n, _ := NumElements(t.Shape)
	return int(n)
}

// Scalar lists the Go types that view tensor data. f16 and bf16 are viewed
// as their uint16 bit patterns (or as float16.Float16).
type Scalar interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// View returns the tensor data as a []T sharing its memory. T may be any
// Go type of the element's size: View reinterprets the bits, so an f32
// tensor viewed as []uint32 gives its bit patterns, and f16 and bf16 are
// viewed as uint16. View panics when T's size is not the element size or
// Data is not aligned for T (tensors from NewTensor always are): both are
// programmer errors.
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

// goKinds are the Go types that hold each element type in TensorOf.
var goKinds = map[ElementType]reflect.Kind{
	F32: reflect.Float32, F64: reflect.Float64, F16: reflect.Uint16, BF16: reflect.Uint16,
	I8: reflect.Int8, I16: reflect.Int16, I32: reflect.Int32, I64: reflect.Int64,
	U8: reflect.Uint8, U16: reflect.Uint16, U32: reflect.Uint32, U64: reflect.Uint64, Boolean: reflect.Uint8,
}

// TensorOf returns a new tensor of type t and the given shape holding
// values, one per element. T must be the Go type of t (float32 for f32,
// int64 for i64, uint16 bit patterns for f16 and bf16, uint8 for
// boolean), or a type defined on it; anything else is an error.
func TensorOf[T Scalar](t ElementType, shape []int64, values []T) (*Tensor, error) {
	var zero T
	if kind, ok := goKinds[t]; !ok || reflect.TypeOf(zero).Kind() != kind {
		return nil, errorf("TensorOf: %s elements cannot be given as %T", t, zero)
	}
	out, err := NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	if out.Len() != len(values) {
		return nil, errorf("TensorOf: %d values for shape %v", len(values), shape)
	}
	copy(View[T](out), values)
	return out, nil
}

// SetFloat64 sets element i to f: rounded to nearest even for the float
// types (f16 and bf16 directly from f, rounded once), truncated toward zero
// and then stored as SetInt64 does for the integer types. i out of range
// panics, as a slice index does.
func (t *Tensor) SetFloat64(i int, f float64) {
	switch t.Type {
	case F32:
		View[float32](t)[i] = float32(f)
	case F64:
		View[float64](t)[i] = f
	case F16:
		View[uint16](t)[i] = roundFloat64(f, 10, 5)
	case BF16:
		View[uint16](t)[i] = roundFloat64(f, 7, 8)
	default:
		t.SetInt64(i, int64(f))
	}
}

// SetInt64 sets element i to v: for the integer types its two's-complement
// bits cut to the element's width (so a u64 above 2^63-1 is given as the
// int64 of the same bits), for the float types rounded as SetFloat64 does.
func (t *Tensor) SetInt64(i int, v int64) {
	switch t.Type {
	case F32, F64, F16, BF16:
		t.SetFloat64(i, float64(v))
	case I8, U8, Boolean:
		View[uint8](t)[i] = uint8(v)
	case I16, U16:
		View[uint16](t)[i] = uint16(v)
	case I32, U32:
		View[uint32](t)[i] = uint32(v)
	case I64, U64:
		View[uint64](t)[i] = uint64(v)
	default:
		panic(fmt.Sprintf("ir: SetInt64 on a %s tensor", t.Type))
	}
}

// roundFloat64 rounds f to nearest even in a binary format with mant
// fraction bits and exp exponent bits (f16: 10, 5; bf16: 7, 8), working on
// the bits of f so that it rounds once. NaN becomes a quiet NaN.
func roundFloat64(f float64, mant, exp uint) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>63) << (mant + exp)
	maxExp := uint64(1)<<exp - 1
	e64, frac := int(b>>52&0x7ff), b&(1<<52-1)
	switch {
	case e64 == 0x7ff && frac != 0:
		return sign | uint16(maxExp<<mant|1<<(mant-1))
	case e64 == 0x7ff:
		return sign | uint16(maxExp<<mant)
	case e64 == 0:
		return sign // f64 subnormals are far below the smallest half value
	}
	sig := 1<<52 | frac
	e := e64 - 1023 + int(maxExp>>1) // biased exponent in the target format
	shift := 52 - int(mant)
	if e < 1 {
		shift += 1 - e // subnormal: fewer fraction bits survive
		e = 0
	}
	if shift > 63 {
		return sign
	}
	q, r, half := sig>>shift, sig&(1<<shift-1), uint64(1)<<(shift-1)
	if r > half || r == half && q&1 == 1 {
		q++
	}
	if e == 0 {
		return sign | uint16(q) // a carry into bit mant makes the smallest normal
	}
	if q == 1<<(mant+1) {
		q, e = q>>1, e+1
	}
	if uint64(e) >= maxExp {
		return sign | uint16(maxExp<<mant)
	}
	return sign | uint16(uint64(e)<<mant|q&(1<<mant-1))
}

// String prints the type, the shape and the first values:
// "i32[2,3] [1 2 3 4 5 6]", with "..." after 16 values.
func (t *Tensor) String() string {
	var b strings.Builder
	b.WriteString(t.Type.String())
	b.WriteByte('[')
	for i, d := range t.Shape {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(d, 10))
	}
	b.WriteString("] [")
	n := t.Len()
	if size, err := ByteSize(t.Type, int64(n)); err != nil || size != int64(len(t.Data)) || !t.Type.IsNumeric() {
		fmt.Fprintf(&b, "%d bytes]", len(t.Data))
		return b.String()
	}
	for i := range min(n, 16) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Format(i))
	}
	if n > 16 {
		b.WriteString(" ...")
	}
	b.WriteByte(']')
	return b.String()
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
func BF16ToFloat32(b uint16) float32 { return bf16.ToFloat32(b) }

// BF16FromFloat32 rounds an f32 to bfloat16, to nearest even; a NaN stays a
// quiet NaN (OpenVINO's ov::bfloat16 rounding is not RNE, see divide-spec.md C.3).
func BF16FromFloat32(f float32) uint16 { return bf16.FromFloat32(f) }
