// Package baseline holds the plain Go loops that irdiv's kernels are
// compared with in bench/run.sh: what a Go programmer writes without
// irdiv, with the same data and names as ops.BenchmarkDivide.
package baseline

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/x448/float16"
)

var sizes = []struct {
	name string
	n    int
}{{"1Ki", 1 << 10}, {"64Ki", 64 << 10}, {"1Mi", 1 << 20}, {"16Mi", 16 << 20}}

// settle collects earlier cases' garbage and writes the output once
// before the timed loop, so that it times no page faults (ops.benchDivide
// and the C loops warm up too).
func settle[T any](b *testing.B, out []T) {
	clear(out)
	runtime.GC()
	b.ResetTimer()
}

func report(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

func floatData(n int, divisor bool) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]float32, n)
	for i := range v {
		if divisor {
			v[i] = float32(1 + r.Float64())
		} else {
			v[i] = float32(r.Float64()*200 - 100)
		}
	}
	return v
}

func intData(n int, divisor bool, bits int) []int64 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]int64, n)
	for i := range v {
		if divisor {
			v[i] = int64(1 + r.IntN(1000))
			if r.IntN(2) == 0 {
				v[i] = -v[i]
			}
		} else {
			v[i] = int64(r.Uint64()) >> (64 - bits + 2)
		}
	}
	return v
}

// uintData holds unsigned dividends over the whole range, or divisors in
// [1, 255], as ops.BenchmarkDivide's.
func uintData(n int, divisor bool) []uint64 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]uint64, n)
	for i := range v {
		if divisor {
			v[i] = uint64(1 + r.IntN(255))
		} else {
			v[i] = r.Uint64()
		}
	}
	return v
}

func floorDiv[T int32 | int64](a, b T) T {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// BenchmarkPlain/<case>/<layout>/<N>, as ops.BenchmarkDivide.
func BenchmarkPlain(b *testing.B) {
	for _, size := range sizes {
		n := size.n
		b.Run(fmt.Sprintf("f32/same/%s", size.name), func(b *testing.B) {
			x, y, c := floatData(n, false), floatData(n, true), make([]float32, n)
			settle(b, c)
			for b.Loop() {
				for i := range c {
					c[i] = x[i] / y[i]
				}
			}
			report(b, n)
		})
		b.Run(fmt.Sprintf("f16/same/%s", size.name), func(b *testing.B) {
			xf, yf := floatData(n, false), floatData(n, true)
			x, y, c := make([]float16.Float16, n), make([]float16.Float16, n), make([]float16.Float16, n)
			for i := range x {
				x[i], y[i] = float16.Fromfloat32(xf[i]), float16.Fromfloat32(yf[i])
			}
			settle(b, c)
			for b.Loop() {
				for i := range c {
					c[i] = float16.Fromfloat32(x[i].Float32() / y[i].Float32())
				}
			}
			report(b, n)
		})
		b.Run(fmt.Sprintf("u64/same/%s", size.name), func(b *testing.B) {
			x, y, c := uintData(n, false), uintData(n, true), make([]uint64, n)
			settle(b, c)
			for b.Loop() {
				for i := range c {
					c[i] = x[i] / y[i]
				}
			}
			report(b, n)
		})
		for _, mode := range []string{"trunc", "floor"} {
			b.Run(fmt.Sprintf("i32-%s/same/%s", mode, size.name), func(b *testing.B) {
				x64, y64 := intData(n, false, 32), intData(n, true, 32)
				x, y, c := make([]int32, n), make([]int32, n), make([]int32, n)
				for i := range x {
					x[i], y[i] = int32(x64[i]), int32(y64[i])
				}
				settle(b, c)
				for b.Loop() {
					if mode == "floor" {
						for i := range c {
							c[i] = floorDiv(x[i], y[i])
						}
					} else {
						for i := range c {
							c[i] = x[i] / y[i]
						}
					}
				}
				report(b, n)
			})
			for _, layout := range []string{"same", "scalar"} {
				b.Run(fmt.Sprintf("i64-%s/%s/%s", mode, layout, size.name), func(b *testing.B) {
					x, y, c := intData(n, false, 64), intData(n, true, 64), make([]int64, n)
					settle(b, c)
					for b.Loop() {
						switch {
						case layout == "scalar" && mode == "floor":
							s := y[0]
							for i := range c {
								c[i] = floorDiv(x[i], s)
							}
						case layout == "scalar":
							s := y[0]
							for i := range c {
								c[i] = x[i] / s
							}
						case mode == "floor":
							for i := range c {
								c[i] = floorDiv(x[i], y[i])
							}
						default:
							for i := range c {
								c[i] = x[i] / y[i]
							}
						}
					}
					report(b, n)
				})
			}
		}
	}
}
