package kernel

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// i32Oracle divides in 64 bits, where neither MIN / -1 nor the floor
// correction can go wrong.
func i32Oracle(a, b int32, floor bool) int32 {
	q, r := int64(a)/int64(b), int64(a)%int64(b)
	if floor && r != 0 && (r < 0) != (b < 0) {
		q--
	}
	return int32(q)
}

// i32Cases returns dividend/divisor pairs that stress the correction
// steps of the f32 method (see _gen/i32.go): exact multiples and their
// neighbours for divisors of every bit length and both signs, quotients
// near 2^31, and the extreme values.
func i32Cases(r *rand.Rand) (as, bs []int32) {
	add := func(a, b int64) {
		if b == 0 || a < math.MinInt32 || a > math.MaxInt32 || (a == math.MinInt32 && b == -1) {
			return
		}
		as, bs = append(as, int32(a)), append(bs, int32(b))
	}
	var divisors []int64
	for k := 0; k <= 31; k++ {
		for _, d := range []int64{1 << k, 1<<k - 1, 1<<k + 1, r.Int64N(1<<k) + 1<<k} {
			divisors = append(divisors, d, -d)
		}
	}
	divisors = append(divisors, math.MinInt32, 3, 7, 641, 46341, 16777217)
	for _, d := range divisors {
		for range 40 {
			q := int64(r.Int32()) >> r.IntN(32)
			if r.IntN(2) == 0 {
				q = -q
			}
			for delta := int64(-1); delta <= 1; delta++ {
				add(q*d+delta, d)
			}
		}
		for _, a := range []int64{0, 1, -1, math.MaxInt32, math.MinInt32, math.MinInt32 + 1, math.MaxInt32 - 1, d, -d, d - 1, d + 1} {
			add(a, d)
		}
	}
	for range 20000 {
		add(int64(r.Int32())>>r.IntN(32)*int64(1-2*r.IntN(2)), int64(r.Int32())>>r.IntN(32)*int64(1-2*r.IntN(2)))
	}
	return as, bs
}

// TestI32AgainstOracle checks every i32 variant at every level on the
// pairs of i32Cases, shifted so that each pair meets both the f32 and the
// f64 lanes of the mixed AVX2 blocks.
func TestI32AgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 33))
	as, bs := i32Cases(r)
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for mode, floor := range []bool{false, true} {
			k := table.i32[mode]
			name := fmt.Sprintf("%s floor=%v", level, floor)
			for shift := 0; shift < 24; shift += 4 {
				a, b := as[shift:], bs[shift:]
				dst := make([]int32, len(a))
				if k.vv(dst, a, b) {
					t.Fatalf("%s: vv reported a fault", name)
				}
				for i := range dst {
					if want := i32Oracle(a[i], b[i], floor); dst[i] != want {
						t.Fatalf("%s vv: %d / %d = %d, want %d", name, a[i], b[i], dst[i], want)
					}
				}
			}
			// One divisor or one dividend for the whole vector.
			for i := 0; i < len(as); i += 997 {
				a, b := as[:min(len(as), 4000)], bs[:min(len(bs), 4000)]
				dst := make([]int32, len(a))
				if s := bs[i]; s != -1 {
					k.vs(dst, a, []int32{s})
					for j := range dst {
						if want := i32Oracle(a[j], s, floor); dst[j] != want {
							t.Fatalf("%s vs: %d / %d = %d, want %d", name, a[j], s, dst[j], want)
						}
					}
				}
				if s := as[i]; s != math.MinInt32 {
					if k.sv(dst, []int32{s}, b) {
						t.Fatalf("%s: sv reported a fault", name)
					}
					for j := range dst {
						if want := i32Oracle(s, b[j], floor); dst[j] != want {
							t.Fatalf("%s sv: %d / %d = %d, want %d", name, s, b[j], dst[j], want)
						}
					}
				}
			}
			// Rows: 256-element rows of a divided by one row of divisors.
			row := bs[:256]
			a := append([]int32(nil), as[:256*16]...)
			for i := range a {
				if a[i] == math.MinInt32 && row[i%256] == -1 {
					a[i] = 0
				}
			}
			dst := make([]int32, len(a))
			if k.rows(dst, a, row) {
				t.Fatalf("%s: rows reported a fault", name)
			}
			for i := range dst {
				if want := i32Oracle(a[i], row[i%256], floor); dst[i] != want {
					t.Fatalf("%s rows: %d / %d = %d, want %d", name, a[i], row[i%256], dst[i], want)
				}
			}
		}
	}
}

var i32All = flag.Bool("i32.all", false, "TestI32AllDividends: check every int32 dividend (minutes)")

// TestI32AllDividends divides all 2^32 dividends by divisors chosen to
// reach the ends of the error bounds in _gen/i32.go (the extremes, ±1,
// powers of two and their neighbours, a large prime) in both modes, as
// vectors on both operands so that every value meets the f32 and the f64
// lanes, and as a broadcast divisor (its magic number). It takes minutes,
// so it runs only with -i32.all:
//
//	go test ./ops/internal/kernel -run TestI32AllDividends -i32.all -v
func TestI32AllDividends(t *testing.T) {
	if !*i32All {
		t.Skip("runs with -i32.all")
	}
	table := Default()
	const chunk = 1 << 20
	a, b, dst := make([]int32, chunk+12), make([]int32, chunk+12), make([]int32, chunk+12)
	byScalar := make([]int32, chunk+12)
	for _, d := range []int32{1, -1, 2, -3, 7, 641, 1000, -65537, 1<<24 + 1, 715827883, 2147483629, math.MaxInt32, math.MinInt32} {
		for mode, floor := range []bool{false, true} {
			for start := int64(math.MinInt32); start <= math.MaxInt32; start += chunk {
				// A 4-element shift per chunk moves each value between the
				// f32 and f64 lanes of the 24-element blocks.
				shift := 4 * (int(start/chunk) & 3)
				n := chunk + shift
				for i := range n {
					a[i], b[i] = int32(start+int64(i-shift)), d
					if d == -1 && a[i] == math.MinInt32 {
						a[i] = 0
					}
				}
				if table.i32[mode].vv(dst[:n], a[:n], b[:n]) {
					t.Fatalf("%d: fault reported near %d", d, start)
				}
				if table.i32[mode].vs(byScalar[:n], a[:n], b[:1]) {
					t.Fatalf("%d: fault reported near %d by a scalar", d, start)
				}
				for i := range n {
					want := i32Oracle(a[i], d, floor)
					if dst[i] != want {
						t.Fatalf("%s floor=%v: %d / %d = %d, want %d", table.Level(), floor, a[i], d, dst[i], want)
					}
					if byScalar[i] != want {
						t.Fatalf("%s floor=%v: %d / scalar %d = %d, want %d", table.Level(), floor, a[i], d, byScalar[i], want)
					}
				}
			}
			t.Logf("%s floor=%v: all dividends by %d agree", table.Level(), floor, d)
		}
	}
}

var i16All = flag.Bool("i16.all", false, "TestI16AllPairs: check every pair of 16-bit operands (minutes)")

// TestI16AllPairs divides every int16 and uint16 dividend by every divisor,
// as vectors on both operands and as a broadcast divisor, in both modes at
// every level. It runs only with -i16.all:
//
//	go test ./ops/internal/kernel -run TestI16AllPairs -i16.all -v
func TestI16AllPairs(t *testing.T) {
	if !*i16All {
		t.Skip("runs with -i16.all")
	}
	a, b := make([]int16, 1<<16), make([]int16, 1<<16)
	ua, ub := make([]uint16, 1<<16), make([]uint16, 1<<16)
	dst, udst := make([]int16, 1<<16), make([]uint16, 1<<16)
	for i := range a {
		a[i], ua[i] = int16(i), uint16(i)
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for d := range 1 << 16 {
			for i := range b {
				b[i], ub[i] = int16(d), uint16(d)
			}
			if d != 0 {
				for name, kern := range map[string]func(dst, a, b []uint16) bool{"vv": table.u16[0].vv, "vs": table.u16[0].vs} {
					if kern(udst, ua, ub) {
						t.Fatalf("%s u16 %s: fault reported dividing by %d", level, name, d)
					}
					for i, x := range ua {
						if udst[i] != x/uint16(d) {
							t.Fatalf("%s u16 %s: %d / %d = %d, want %d", level, name, x, d, udst[i], x/uint16(d))
						}
					}
				}
			}
			if d == 0 || int16(d) == -1 {
				continue
			}
			for mode, floor := range []bool{false, true} {
				for name, kern := range map[string]func(dst, a, b []int16) bool{"vv": table.i16[mode].vv, "vs": table.i16[mode].vs} {
					if kern(dst, a, b) {
						t.Fatalf("%s i16 %s floor=%v: fault reported dividing by %d", level, name, floor, d)
					}
					for i, x := range a {
						want := x / int16(d)
						if floor {
							want = floorDiv(x, int16(d))
						}
						if dst[i] != want {
							t.Fatalf("%s i16 %s floor=%v: %d / %d = %d, want %d", level, name, floor, x, d, dst[i], want)
						}
					}
				}
			}
		}
		t.Logf("%s: every 16-bit pair agrees, by vectors and by a scalar", level)
	}
}
