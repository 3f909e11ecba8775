package ops

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

var benchSizes = []struct {
	name string
	n    int64
}{{"1Ki", 1 << 10}, {"64Ki", 64 << 10}, {"1Mi", 1 << 20}, {"16Mi", 16 << 20}}

// benchCases are the types of BenchmarkDivide; integers run in both modes.
var benchCases = []struct {
	name  string
	typ   ir.ElementType
	floor bool
}{
	{"f32", ir.F32, true}, {"f64", ir.F64, true}, {"f16", ir.F16, true}, {"bf16", ir.BF16, true},
	{"i8-floor", ir.I8, true}, {"i8-trunc", ir.I8, false}, {"u8", ir.U8, true},
	{"i16-floor", ir.I16, true}, {"i16-trunc", ir.I16, false}, {"u16", ir.U16, true},
	{"i32-floor", ir.I32, true}, {"i32-trunc", ir.I32, false}, {"u32", ir.U32, true},
	{"i64-floor", ir.I64, true}, {"i64-trunc", ir.I64, false}, {"u64", ir.U64, true},
}

// benchData fills a tensor as perf-baseline.md does: floats A in
// [-100,100) and B in [1,2); signed A over most of the range and B in
// ±[1,1000] with random signs; unsigned A over the range and B in [1,255].
func benchData(typ ir.ElementType, shape []int64, divisor bool, r *rand.Rand) *ir.Tensor {
	t, err := ir.NewTensor(typ, shape)
	if err != nil {
		panic(err)
	}
	bits := typ.Bits()
	for i := range t.Len() {
		var f float64
		switch {
		case typ.IsFloat() && divisor:
			f = 1 + r.Float64()
		case typ.IsFloat():
			f = r.Float64()*200 - 100
		case divisor && typ.IsSigned():
			f = float64(1 + r.IntN(min(1000, 1<<(bits-1)-1)))
			if r.IntN(2) == 0 {
				f = -f
			}
		case divisor:
			f = float64(1 + r.IntN(255))
		}
		switch {
		case typ.IsFloat() || divisor:
			t.SetFloat64(i, f)
		case typ.IsSigned():
			t.SetInt64(i, int64(r.Uint64())>>(64-bits+2)) // |A| < MAX/2
		default:
			t.SetInt64(i, int64(r.Uint64()>>(64-bits)))
		}
	}
	return t
}

// layoutShapes returns A's and B's shapes: same shape, a scalar divisor,
// a row of 256 broadcast over N/256 rows, and the short broadcasts of
// BenchmarkShortRows: a row of 4 or of 12 (rows4, rows12: [N/4, 4] / [4],
// [N/12, 12] / [12], N/12 rounded down), and one divisor per channel
// over 4x4 images (chan: [N/1024, 64, 4, 4] / [1, 64, 1, 1]).
func layoutShapes(layout string, n int64) (a, b []int64) {
	switch layout {
	case "scalar":
		return []int64{n}, []int64{}
	case "row":
		return []int64{n / 256, 256}, []int64{256}
	case "rows4":
		return []int64{n / 4, 4}, []int64{4}
	case "rows12":
		return []int64{n / 12, 12}, []int64{12}
	case "chan":
		return []int64{n / 1024, 64, 4, 4}, []int64{1, 64, 1, 1}
	}
	return []int64{n}, []int64{n}
}

func benchDivide(b *testing.B, typ ir.ElementType, floor bool, layout string, n int64, threads int) {
	r := rand.New(rand.NewPCG(1, 2))
	aShape, bShape := layoutShapes(layout, n)
	n = 1
	for _, d := range aShape {
		n *= d
	}
	x, y := benchData(typ, aShape, false, r), benchData(typ, bShape, true, r)
	call, err := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, floor).Prepare(x, y, Options{Threads: threads})
	if err != nil {
		b.Fatal(err)
	}
	out, _ := ir.NewTensor(typ, call.OutShape())
	b.SetBytes(n * int64(typ.Size()))
	if err := call.Run(out, x, y); err != nil { // fault the output's pages in untimed
		b.Fatal(err)
	}
	runtime.GC() // the garbage of earlier 16Mi cases must not be collected while timing
	b.ResetTimer()
	for b.Loop() {
		if err := call.Run(out, x, y); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

// BenchmarkDivide/<type>/<layout>/<N>: one thread, the best SIMD level
// (GODEBUG=cpu.avx2=off or -tags purego for the generic one).
func BenchmarkDivide(b *testing.B) {
	for _, c := range benchCases {
		for _, layout := range []string{"same", "scalar", "row"} {
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("%s/%s/%s", c.name, layout, size.name), func(b *testing.B) {
					benchDivide(b, c.typ, c.floor, layout, size.n, 1)
				})
			}
		}
	}
}

// BenchmarkShortRows/<type>/<layout>/<N>: broadcasts whose rows of B are
// shorter than a vector (rows4, rows12, chan; see layoutShapes), one
// thread, the best level; bench/run.sh compares them with same-shape.
func BenchmarkShortRows(b *testing.B) {
	for _, c := range benchCases {
		for _, layout := range []string{"rows4", "rows12", "chan"} {
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("%s/%s/%s", c.name, layout, size.name), func(b *testing.B) {
					benchDivide(b, c.typ, c.floor, layout, size.n, 1)
				})
			}
		}
	}
}

// BenchmarkDivideThreads/<type>/<N>/threads=<T>: same-shape division split
// across goroutines.
func BenchmarkDivideThreads(b *testing.B) {
	for _, c := range []struct {
		name  string
		typ   ir.ElementType
		floor bool
	}{{"f16", ir.F16, true}, {"i32-floor", ir.I32, true}, {"i64-floor", ir.I64, true}, {"f32", ir.F32, true}} {
		for _, size := range benchSizes[2:] {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", c.name, size.name, threads), func(b *testing.B) {
					benchDivide(b, c.typ, c.floor, "same", size.n, threads)
				})
			}
		}
	}
}
