package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

func edge64() []int64 {
	vals := []int64{0, 1, -1, 2, -2, 3, -3, 5, 7, 9, 10, 11, 641, 1000, -1000, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1}
	for k := 1; k < 63; k++ {
		vals = append(vals, 1<<k, 1<<k-1, 1<<k+1, -(1 << k), -(1<<k - 1), -(1<<k + 1))
	}
	return vals
}

func TestMagicDividers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	numerators := edge64()
	for range 2000 {
		numerators = append(numerators, int64(r.Uint64()), int64(r.Uint64()>>r.IntN(64)))
	}
	divisors := edge64()
	for range 300 {
		divisors = append(divisors, int64(r.Uint64()>>r.IntN(64)), -int64(r.Uint64()>>r.IntN(64)))
	}
	dst, udst := make([]int64, len(numerators)), make([]uint64, len(numerators))
	un := make([]uint64, len(numerators))
	for i, n := range numerators {
		un[i] = uint64(n)
	}
	for _, d := range divisors {
		if d != 0 && d != -1 {
			divS64ByScalar(dst, numerators, d, false)
			for i, n := range numerators {
				if dst[i] != n/d {
					t.Fatalf("s64 %d / %d = %d, want %d", n, d, dst[i], n/d)
				}
			}
			divS64ByScalar(dst, numerators, d, true)
			for i, n := range numerators {
				if want := floorDiv(n, d); dst[i] != want {
					t.Fatalf("floor %d / %d = %d, want %d", n, d, dst[i], want)
				}
			}
		}
		if ud := uint64(d); ud != 0 {
			divU64ByScalar(udst, un, ud)
			for i, n := range un {
				if udst[i] != n/ud {
					t.Fatalf("u64 %d / %d = %d, want %d", n, ud, udst[i], n/ud)
				}
			}
		}
	}
}

// TestMagicVectorAtEveryLevel: the scalar-divisor kernels of every level
// agree with Go's / (and the floor oracle) for every edge divisor, on
// lengths that exercise vector bodies and tails.
func TestMagicVectorAtEveryLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	n := append(edge64(), 0)
	for range 61 {
		n = append(n, int64(r.Uint64()), int64(r.Uint64()>>r.IntN(64)))
	}
	un := make([]uint64, len(n))
	for i, v := range n {
		un[i] = uint64(v)
	}
	dst, udst := make([]int64, len(n)), make([]uint64, len(n))
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for _, d := range append(edge64(), 641, -641, 1000003, -99999989) {
			if d == 0 || d == -1 {
				continue
			}
			for mode, floor := range []bool{false, true} {
				for _, length := range []int{len(n), len(n) - 1, 5, 4, 3} {
					as := n[:length]
					table.i64[mode].vs(dst[:length], as, []int64{d})
					for i, x := range as {
						want := x / d
						if floor {
							want = floorDiv(x, d)
						}
						if dst[i] != want {
							t.Fatalf("%s: %d / %d (floor=%v, len %d) = %d, want %d", level, x, d, floor, length, dst[i], want)
						}
					}
				}
			}
			ud := uint64(d)
			table.u64[0].vs(udst, un, []uint64{ud})
			for i, x := range un {
				if udst[i] != x/ud {
					t.Fatalf("%s: u64 %d / %d = %d, want %d", level, x, ud, udst[i], x/ud)
				}
			}
		}
	}
}

// TestVector64AtEveryLevel: the two-operand 64-bit kernels of every level
// (f64 estimates with an integer correction on AVX-512) agree with Go's /
// and the floor oracle on every pair of edge values, on random pairs of
// every magnitude and sign, and up to the 2^61 divisor limit above which the
// AVX-512 kernels hand a call to the generic one. Calls of 24 elements
// keep most calls within the vector kernels' proof.
func TestVector64AtEveryLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	var as, bs []int64
	add := func(x, d int64) {
		if d != 0 && !(x == math.MinInt64 && d == -1) {
			as, bs = append(as, x), append(bs, d)
		}
	}
	edges := edge64()
	for _, x := range edges {
		for _, d := range edges {
			add(x, d)
		}
	}
	signed := func(v int64) int64 {
		if r.IntN(2) == 0 {
			return -v
		}
		return v
	}
	for range 1 << 20 {
		x := signed(int64(r.Uint64() >> r.IntN(64)))
		d := signed(int64(r.Uint64() >> (3 + r.IntN(61)))) // |d| < 2^61
		if r.IntN(64) == 0 {
			d = signed(1<<61 - int64(r.IntN(4))) // up to the largest the vector path takes
		}
		add(x, d)
	}
	const call = 24
	dst, udst := make([]int64, len(as)), make([]uint64, len(as))
	ua, ub := make([]uint64, len(as)), make([]uint64, len(as))
	for i := range as {
		ua[i], ub[i] = uint64(as[i]), uint64(bs[i])
		if bs[i] < 0 && bs[i] > -1<<61 {
			ub[i] = uint64(-bs[i])
		}
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for mode, floor := range []bool{false, true} {
			for lo := 0; lo < len(as); lo += call {
				hi := min(lo+call, len(as))
				if table.i64[mode].vv(dst[lo:hi], as[lo:hi], bs[lo:hi]) {
					t.Fatalf("%s floor=%v: fault reported on valid pairs", level, floor)
				}
			}
			for i, x := range as {
				want := x / bs[i]
				if floor {
					want = floorDiv(x, bs[i])
				}
				if dst[i] != want {
					t.Fatalf("%s floor=%v: %d / %d = %d, want %d", level, floor, x, bs[i], dst[i], want)
				}
			}
			// a broadcast dividend
			for _, x := range []int64{math.MaxInt64, math.MinInt64 + 1, 1 << 62, -12345678901234, 7, 0} {
				n := 1000
				table.i64[mode].sv(dst[:n], []int64{x}, bs[len(bs)-n:])
				for i, d := range bs[len(bs)-n:] {
					want := x / d
					if floor {
						want = floorDiv(x, d)
					}
					if dst[i] != want {
						t.Fatalf("%s floor=%v sv: %d / %d = %d, want %d", level, floor, x, d, dst[i], want)
					}
				}
			}
		}
		for lo := 0; lo < len(ua); lo += call {
			hi := min(lo+call, len(ua))
			if table.u64[0].vv(udst[lo:hi], ua[lo:hi], ub[lo:hi]) {
				t.Fatalf("%s u64: fault reported on non-zero divisors", level)
			}
		}
		for i, x := range ua {
			if udst[i] != x/ub[i] {
				t.Fatalf("%s u64: %d / %d = %d, want %d", level, x, ub[i], udst[i], x/ub[i])
			}
		}
	}
}
