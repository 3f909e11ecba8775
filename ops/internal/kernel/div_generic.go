package kernel

import (
	"unsafe"

	"github.com/x448/float16"

	"github.com/irdiv/irdiv/internal/bf16"
)

// The pure-Go kernels: the oracle of the SIMD levels, their tail handler
// and the fallback on every other architecture.

type float interface{ ~float32 | ~float64 }

type signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

func genericTable() *Table {
	t := &Table{level: Generic}
	t.f32 = floatVariants[float32]()
	t.f64 = floatVariants[float64]()
	t.f16 = variants[uint16]{vv: divF16VV, vs: divF16VS, sv: divF16SV}
	t.bf16 = variants[uint16]{vv: divBF16VV, vs: divBF16VS, sv: divBF16SV}
	t.i8 = signedVariants[int8]()
	t.i16 = signedVariants[int16]()
	t.i32 = signedVariants[int32]()
	t.i64 = signedVariants[int64]()
	t.u8 = unsignedVariants[uint8]()
	t.u16 = unsignedVariants[uint16]()
	t.u32 = unsignedVariants[uint32]()
	t.u64 = unsignedVariants[uint64]()
	t.eachWithRows()
	return t
}

// eachWithRows gives every variant set the row loop over its vv kernel.
func (t *Table) eachWithRows() {
	t.f32.rows = rowsByVV(t.f32.vv)
	t.f64.rows = rowsByVV(t.f64.vv)
	t.f16.rows = rowsByVV(t.f16.vv)
	t.bf16.rows = rowsByVV(t.bf16.vv)
	for m := range 2 {
		t.i8[m].rows = rowsByVV(t.i8[m].vv)
		t.i16[m].rows = rowsByVV(t.i16[m].vv)
		t.i32[m].rows = rowsByVV(t.i32[m].vv)
		t.i64[m].rows = rowsByVV(t.i64[m].vv)
		t.u8[m].rows = rowsByVV(t.u8[m].vv)
		t.u16[m].rows = rowsByVV(t.u16[m].vv)
		t.u32[m].rows = rowsByVV(t.u32[m].vv)
		t.u64[m].rows = rowsByVV(t.u64[m].vv)
	}
}

func floatVariants[T float]() variants[T] {
	return variants[T]{
		vv: func(dst, a, b []T) bool {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				dst[i] = a[i] / b[i]
			}
			return false
		},
		vs: func(dst, a, b []T) bool {
			a, s := a[:len(dst)], b[0]
			for i := range dst {
				dst[i] = a[i] / s
			}
			return false
		},
		sv: func(dst, a, b []T) bool {
			s, b := a[0], b[:len(dst)]
			for i := range dst {
				dst[i] = s / b[i]
			}
			return false
		},
	}
}

func f16(bits uint16) float32 { return float16.Frombits(bits).Float32() }

// f16Div divides in f32 and rounds to nearest even: correctly rounded,
// since f32 has more than 2*11+2 significand bits (divide-spec.md C.3).
func f16Div(a, b uint16) uint16 { return float16.Fromfloat32(f16(a) / f16(b)).Bits() }

func divF16VV(dst, a, b []uint16) bool {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f16Div(a[i], b[i])
	}
	return false
}

func divF16VS(dst, a, b []uint16) bool {
	a, s := a[:len(dst)], f16(b[0])
	for i := range dst {
		dst[i] = float16.Fromfloat32(f16(a[i]) / s).Bits()
	}
	return false
}

func divF16SV(dst, a, b []uint16) bool {
	s, b := f16(a[0]), b[:len(dst)]
	for i := range dst {
		dst[i] = float16.Fromfloat32(s / f16(b[i])).Bits()
	}
	return false
}

func divBF16VV(dst, a, b []uint16) bool {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = bf16.FromFloat32(bf16.ToFloat32(a[i]) / bf16.ToFloat32(b[i]))
	}
	return false
}

func divBF16VS(dst, a, b []uint16) bool {
	a, s := a[:len(dst)], bf16.ToFloat32(b[0])
	for i := range dst {
		dst[i] = bf16.FromFloat32(bf16.ToFloat32(a[i]) / s)
	}
	return false
}

func divBF16SV(dst, a, b []uint16) bool {
	s, b := bf16.ToFloat32(a[0]), b[:len(dst)]
	for i := range dst {
		dst[i] = bf16.FromFloat32(s / bf16.ToFloat32(b[i]))
	}
	return false
}

// minOf returns the most negative value of a signed type.
func minOf[T signed]() T {
	var zero T
	return T(1) << (8*unsafe.Sizeof(zero) - 1)
}

// signedFault reports whether a / b is an error: a zero divisor, or MIN / -1.
func signedFault[T signed](a, b T) bool { return b == 0 || b == -1 && a == minOf[T]() }

// floorDiv is Python's floor division for a valid signed pair: the
// truncated quotient, less one when the remainder is non-zero and has the
// divisor's opposite sign. Both conditions are sign masks (-1 or 0), so
// there is no branch to mispredict on random signs.
func floorDiv[T signed](a, b T) T {
	q := a / b
	r := a - q*b
	shift := 8*unsafe.Sizeof(a) - 1
	return q + ((r^b)>>shift)&((r|-r)>>shift)
}

func signedVariants[T signed]() [2]variants[T] {
	return [2]variants[T]{signedMode[T](false), signedMode[T](true)}
}

// signedMode builds the kernels of one mode, with the loops written out
// per mode so that the division inlines.
func signedMode[T signed](floor bool) variants[T] {
	if floor {
		return variants[T]{
			vv: func(dst, a, b []T) bool {
				a, b = a[:len(dst)], b[:len(dst)]
				for i := range dst {
					if signedFault(a[i], b[i]) {
						return true
					}
					dst[i] = floorDiv(a[i], b[i])
				}
				return false
			},
			vs: func(dst, a, b []T) bool {
				a, s := a[:len(dst)], b[0]
				for i := range dst {
					if signedFault(a[i], s) {
						return true
					}
					dst[i] = floorDiv(a[i], s)
				}
				return false
			},
			sv: func(dst, a, b []T) bool {
				s, b := a[0], b[:len(dst)]
				for i := range dst {
					if signedFault(s, b[i]) {
						return true
					}
					dst[i] = floorDiv(s, b[i])
				}
				return false
			},
		}
	}
	return variants[T]{
		vv: func(dst, a, b []T) bool {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				if signedFault(a[i], b[i]) {
					return true
				}
				dst[i] = a[i] / b[i]
			}
			return false
		},
		vs: func(dst, a, b []T) bool {
			a, s := a[:len(dst)], b[0]
			for i := range dst {
				if signedFault(a[i], s) {
					return true
				}
				dst[i] = a[i] / s
			}
			return false
		},
		sv: func(dst, a, b []T) bool {
			s, b := a[0], b[:len(dst)]
			for i := range dst {
				if signedFault(s, b[i]) {
					return true
				}
				dst[i] = s / b[i]
			}
			return false
		},
	}
}

// unsignedVariants: floor and truncation agree for unsigned types.
func unsignedVariants[T unsigned]() [2]variants[T] {
	v := variants[T]{
		vv: func(dst, a, b []T) bool {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				if b[i] == 0 {
					return true
				}
				dst[i] = a[i] / b[i]
			}
			return false
		},
		vs: func(dst, a, b []T) bool {
			a, s := a[:len(dst)], b[0]
			if s == 0 {
				return len(dst) > 0
			}
			for i := range dst {
				dst[i] = a[i] / s
			}
			return false
		},
		sv: func(dst, a, b []T) bool {
			s, b := a[0], b[:len(dst)]
			for i := range dst {
				if b[i] == 0 {
					return true
				}
				dst[i] = s / b[i]
			}
			return false
		},
	}
	return [2]variants[T]{v, v}
}
