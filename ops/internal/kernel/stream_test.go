package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// byteKernel returns the vv (or stream) kernel of a type and mode of t on
// raw element bytes, nil where the table has none.
func byteKernel(t *Table, typ Type, mode int, stream bool) func(dst, a, b []byte) bool {
	switch typ {
	case F32:
		return onBytes(t.f32, stream)
	case F64:
		return onBytes(t.f64, stream)
	case F16:
		return onBytes(t.f16, stream)
	case BF16:
		return onBytes(t.bf16, stream)
	case I8:
		return onBytes(t.i8[mode], stream)
	case I16:
		return onBytes(t.i16[mode], stream)
	case I32:
		return onBytes(t.i32[mode], stream)
	case I64:
		return onBytes(t.i64[mode], stream)
	case U8:
		return onBytes(t.u8[mode], stream)
	case U16:
		return onBytes(t.u16[mode], stream)
	case U32:
		return onBytes(t.u32[mode], stream)
	}
	return onBytes(t.u64[mode], stream)
}

func onBytes[T any](v variants[T], stream bool) func(dst, a, b []byte) bool {
	k := v.vv
	if stream {
		k = v.stream
	}
	if k == nil {
		return nil
	}
	return func(dst, a, b []byte) bool { return k(view[T](dst), view[T](a), view[T](b)) }
}

// aligned64 returns n bytes starting off bytes past a 64-byte boundary,
// with 64 guard bytes on each side, and the whole buffer.
func aligned64(n, off int) (all, inner []byte) {
	all = bytes.Repeat([]byte{guard}, n+256)
	start := 64 + int(-uintptr(unsafe.Pointer(&all[0]))&63) + off
	return all, all[start : start+n : start+n]
}

func intactAround(all, inner []byte) bool {
	start := int(uintptr(unsafe.Pointer(unsafe.SliceData(inner))) - uintptr(unsafe.Pointer(&all[0])))
	for i, b := range all {
		if (i < start || i >= start+len(inner)) && b != guard {
			return false
		}
	}
	return true
}

// TestStreamKernels runs every level's streaming kernels, which need dst
// aligned to 64 bytes and divide the elements before the first aligned one
// with vv, at every element offset within 64 bytes and on lengths that
// end in the head, the vector body and the tail. Results must equal the
// generic level's and no byte outside dst may change; a zero divisor or
// MIN / -1 anywhere is reported, and a 64-bit divisor the vector kernel
// refuses (2^62) still gives the exact quotients.
func TestStreamKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	gen := genericTable()
	tested := 0
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for typ := range NumTypes {
			size := typ.Size()
			for mode := range 2 {
				stream := byteKernel(table, typ, mode, true)
				if stream == nil {
					continue
				}
				tested++
				want := byteKernel(gen, typ, mode, false)
				for _, n := range []int{0, 1, 7, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 333} {
					for off := 0; off < 64; off += size {
						name := fmt.Sprintf("%s/%s/mode=%d/n=%d/off=%d", level, typ, mode, n, off)
						a, b := make([]byte, n*size), make([]byte, n*size)
						for i := range a {
							a[i], b[i] = byte(r.Uint32()), byte(r.Uint32())|1
						}
						if isSigned(typ) {
							avoidPairwiseMinByMinusOne(a, b, typ)
						}
						dstAll, dst := aligned64(n*size, off)
						expect := make([]byte, n*size)
						if stream(dst, a, b) || want(expect, a, b) {
							t.Fatalf("%s: unexpected fault", name)
						}
						if !bytes.Equal(dst, expect) {
							t.Fatalf("%s: differs from generic", name)
						}
						if !intactAround(dstAll, dst) {
							t.Fatalf("%s: wrote outside dst", name)
						}
						if n == 0 || typ <= BF16 {
							continue
						}
						pos := r.IntN(n)
						if size == 8 {
							saved := bytes.Clone(b)
							put(b, typ, pos, 1<<62)
							if stream(dst, a, b) || want(expect, a, b) || !bytes.Equal(dst, expect) {
								t.Fatalf("%s: divisor 2^62 at %d: differs from generic", name, pos)
							}
							copy(b, saved)
						}
						put(b, typ, pos, 0)
						if !stream(dst, a, b) {
							t.Fatalf("%s: zero divisor at %d not reported", name, pos)
						}
						if isSigned(typ) {
							put(b, typ, pos, -1)
							put(a, typ, pos, minValue(typ))
							if !stream(dst, a, b) {
								t.Fatalf("%s: MIN / -1 at %d not reported", name, pos)
							}
						}
					}
				}
			}
		}
	}
	if tested == 0 {
		t.Logf("no level with streaming kernels on this machine or build (levels %v)", Levels())
	}
}

// avoidPairwiseMinByMinusOne makes b[i] = 1 where a[i] is MIN and b[i] is -1.
func avoidPairwiseMinByMinusOne(a, b []byte, typ Type) {
	size := typ.Size()
	for i := 0; i+size <= len(a); i += size {
		avoidMinByMinusOne(a[i:i+size], b[i:i+size], size)
	}
}

// TestStreamChoice: same-shape divisions use the stream kernel from
// StreamMin bytes of output on, and vv below; broadcasts never stream.
func TestStreamChoice(t *testing.T) {
	var used string
	k := variants[float32]{
		vv:     func(dst, a, b []float32) bool { used = "vv"; return false },
		vs:     func(dst, a, b []float32) bool { used = "vs"; return false },
		stream: func(dst, a, b []float32) bool { used = "stream"; return false },
	}
	n := int64(StreamMin / 4)
	for _, tc := range []struct {
		out, bDims []int64
		want       string
	}{
		{[]int64{n}, []int64{n}, "stream"},
		{[]int64{n - 1}, []int64{n - 1}, "vv"},
		{[]int64{n}, []int64{1}, "vs"},
	} {
		p, err := NewPlan(tc.out, tc.out, tc.bDims)
		if err != nil {
			t.Fatal(err)
		}
		used = ""
		buf := make([]float32, tc.out[0])
		runRange(p, k, nil, buf, buf, buf[:tc.bDims[0]], 0, p.total)
		if used != tc.want {
			t.Errorf("output %v / %v: ran %q, want %q", tc.out, tc.bDims, used, tc.want)
		}
	}
}

// TestStreamingDivide divides StreamMin bytes and a few elements more
// through Divide, into a dst that starts one element past a 64-byte
// boundary, at every level: the result equals the generic level's, and a
// zero divisor near the end is found at its index.
func TestStreamingDivide(t *testing.T) {
	if testing.Short() {
		t.Skip("divides 8 MiB per type and level; -short leaves it out")
	}
	r := rand.New(rand.NewPCG(23, 24))
	gen := genericTable()
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for _, typ := range []Type{F32, BF16, I8, U8, I16, I32, I64, U64} {
			size := typ.Size()
			n := StreamMin/size + 5
			plan, err := NewPlan([]int64{int64(n)}, []int64{int64(n)}, []int64{int64(n)})
			if err != nil {
				t.Fatal(err)
			}
			a, b := make([]byte, n*size), make([]byte, n*size)
			for i := range a {
				a[i], b[i] = byte(r.Uint32()), byte(r.Uint32())|1
			}
			if isSigned(typ) {
				avoidPairwiseMinByMinusOne(a, b, typ)
			}
			_, dst := aligned64(n*size, size)
			want := make([]byte, n*size)
			name := fmt.Sprintf("%s/%s", level, typ)
			for _, floor := range []bool{false, true} {
				if f := table.Divide(typ, floor, plan, dst, a, b, 1, 0); f != NoFault {
					t.Fatalf("%s: fault %+v", name, f)
				}
				gen.Divide(typ, floor, plan, want, a, b, 1, 0)
				if !bytes.Equal(dst, want) {
					t.Fatalf("%s floor=%v: differs from generic", name, floor)
				}
			}
			if typ <= BF16 {
				continue
			}
			at := n - 70
			put(b, typ, at, 0)
			if f := table.Divide(typ, true, plan, dst, a, b, 1, 0); f != (Fault{Index: at}) {
				t.Fatalf("%s: zero divisor at %d: %+v", name, at, f)
			}
		}
	}
}
