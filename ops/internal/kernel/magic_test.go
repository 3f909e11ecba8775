package kernel

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// checkVS compares the scalar-divisor kernel of every level with the
// generic one for each divisor, on numerators of a length with a tail.
func checkVS[T signed | unsigned](t *testing.T, name string, pick func(*Table) [2]variants[T], numerators, divisors []T) {
	t.Helper()
	gen := pick(genericTable())
	want, got := make([]T, len(numerators)), make([]T, len(numerators))
	for _, level := range Levels() {
		table, _ := Lookup(level)
		v := pick(table)
		for mode := range 2 {
			for _, d := range divisors {
				b := []T{d}
				wantBad := gen[mode].vs(want, numerators, b)
				bad := v[mode].vs(got, numerators, b)
				if bad != wantBad || !wantBad && !slices.Equal(got, want) {
					i := 0
					for i < len(got) && got[i] == want[i] {
						i++
					}
					t.Fatalf("%s %s mode %d: / %d: fault %v (want %v); first difference at %d", level, name, mode, d, bad, wantBad, i)
				}
			}
		}
	}
}

// TestMagicSmallAtEveryLevel: division of 8-, 16- and 32-bit integers by a
// broadcast divisor (magic numbers at the AVX-512 level) agrees with the
// generic kernels for every 8-bit pair, every 16-bit divisor with edge and
// random numerators, and edge and random 32-bit divisors.
func TestMagicSmallAtEveryLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var i8s []int8
	var u8s []uint8
	for x := range 256 {
		i8s, u8s = append(i8s, int8(x)), append(u8s, uint8(x))
	}
	// 256 numerators plus a tail of 7.
	checkVS(t, "i8", func(t *Table) [2]variants[int8] { return t.i8 }, append(i8s, i8s[:7]...), i8s)
	checkVS(t, "u8", func(t *Table) [2]variants[uint8] { return t.u8 }, append(u8s, u8s[:7]...), u8s)

	var i16n, i16d []int16
	var u16n, u16d []uint16
	for _, x := range []int{0, 1, 2, 3, 127, 128, 255, 256, 32767, 32766, 16384, 12345} {
		i16n = append(i16n, int16(x), int16(-x), int16(-x-1))
		u16n = append(u16n, uint16(x), uint16(65535-x))
	}
	for range 70 {
		i16n, u16n = append(i16n, int16(r.Uint32())), append(u16n, uint16(r.Uint32()))
	}
	for d := range 65536 {
		i16d, u16d = append(i16d, int16(d)), append(u16d, uint16(d))
	}
	checkVS(t, "i16", func(t *Table) [2]variants[int16] { return t.i16 }, i16n, i16d)
	checkVS(t, "u16", func(t *Table) [2]variants[uint16] { return t.u16 }, u16n, u16d)
	// Every 16-bit numerator for the small divisors, the powers of two
	// and their neighbours, and random ones.
	i16n, u16n, i16d, u16d = i16n[:0], u16n[:0], i16d[:0], u16d[:0]
	for x := range 65536 {
		i16n, u16n = append(i16n, int16(x)), append(u16n, uint16(x))
	}
	for d := 1; d < 200; d++ {
		i16d, u16d = append(i16d, int16(d), int16(-d)), append(u16d, uint16(d), uint16(65536-d))
	}
	for k := 8; k < 16; k++ {
		for _, d := range []int{1<<k - 1, 1 << k, 1<<k + 1} {
			i16d, u16d = append(i16d, int16(d), int16(-d)), append(u16d, uint16(d))
		}
	}
	for range 50 {
		i16d, u16d = append(i16d, int16(r.Uint32())), append(u16d, uint16(r.Uint32()))
	}
	checkVS(t, "i16", func(t *Table) [2]variants[int16] { return t.i16 }, i16n, i16d)
	checkVS(t, "u16", func(t *Table) [2]variants[uint16] { return t.u16 }, u16n, u16d)

	var i32n, i32d []int32
	var u32n, u32d []uint32
	edge := []int64{0, 1, 2, 3, 5, 7, 10, 641, 1000, 65535, 65536, 65537, 1<<31 - 1, 1<<31 - 2, 1 << 30, 1<<30 + 1, 6700417}
	for k := 2; k < 32; k++ {
		edge = append(edge, 1<<k-1, 1<<k+1)
	}
	for _, x := range edge {
		i32n = append(i32n, int32(x), int32(-x), int32(-x-1))
		u32n = append(u32n, uint32(x), uint32(1<<32-1-x), uint32(1<<31+x))
		i32d = append(i32d, int32(x), int32(-x), int32(-x-1))
		u32d = append(u32d, uint32(x), uint32(1<<32-1-x), uint32(1<<31+x))
	}
	for range 300 {
		i32n, u32n = append(i32n, int32(r.Uint32())), append(u32n, r.Uint32())
		i32d, u32d = append(i32d, int32(r.Uint32()>>r.IntN(32))), append(u32d, r.Uint32()>>r.IntN(32))
	}
	checkVS(t, "i32", func(t *Table) [2]variants[int32] { return t.i32 }, i32n, i32d)
	checkVS(t, "u32", func(t *Table) [2]variants[uint32] { return t.u32 }, u32n, u32d)
}
