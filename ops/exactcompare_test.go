package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestExactCompare: Subtract(x, y) op 0 is x op y for each comparison of
// i32 and i64 operands at the edges (2^24 and its neighbours, where
// float32 stops holding every integer, the type's ends) and random ones,
// wherever x - y is an i32, under OpenVINO's reference and under its CPU
// plugin, where the comparison alone rounds its operands to float32 and
// calls 2^24 + 1 and 2^24 equal; auto_broadcast none too, whose layer
// then compares with a scalar 0 under numpy.
func TestExactCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	edges := []int64{math.MinInt32, math.MinInt32 + 1, math.MinInt32 + 64, -1<<24 - 2, -1<<24 - 1, -1 << 24, -1<<24 + 1, -1, 0, 1,
		1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<24 + 2, 1<<24 + 3, 0x40000000, 0x40000001, math.MaxInt32 - 128, math.MaxInt32 - 64, math.MaxInt32 - 1, math.MaxInt32}
	var xs, ys []int64
	add := func(x, y int64) {
		if d := x - y; d >= math.MinInt32 && d <= math.MaxInt32 {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for _, x := range edges {
		for _, y := range edges {
			add(x, y)
		}
	}
	for range 2000 {
		x := int64(int32(rng.Uint32()))
		add(x, x+rng.Int64N(513)-256)
		add(int64(int32(rng.Uint32())), int64(int32(rng.Uint32())))
	}
	n := int64(len(xs))
	want := map[string]func(x, y int64) bool{
		"Equal": func(x, y int64) bool { return x == y }, "NotEqual": func(x, y int64) bool { return x != y },
		"Less": func(x, y int64) bool { return x < y }, "LessEqual": func(x, y int64) bool { return x <= y },
		"Greater": func(x, y int64) bool { return x > y }, "GreaterEqual": func(x, y int64) bool { return x >= y },
	}
	for _, typ := range []ir.ElementType{ir.I32, ir.I64} {
		for _, bc := range []string{"numpy", "none"} {
			for _, op := range comparisons {
				m := &ir.Model{}
				x := m.AddParameter("x", typ, shapeinfer.StaticShape(n))
				y := m.AddParameter("y", typ, shapeinfer.StaticShape(n))
				l := m.AddLayer(op, "opset1", "cmp", []ir.Attr{{Name: "auto_broadcast", Value: bc}},
					[]ir.Output{{Layer: x}, {Layer: y}}, []*ir.Port{{Type: ir.Boolean, Dims: []int64{n}}})
				m.AddResult("r", ir.Output{Layer: l})
				in := []*ir.Tensor{intTensor(t, typ, xs), intTensor(t, typ, ys)}
				check := func(p *Program, cpu, wantWrong bool) {
					t.Helper()
					var got []*ir.Tensor
					var err error
					if cpu {
						got, err = cpuPluginRun(p, in)
					} else {
						got, err = p.Run(in, Options{})
					}
					if err != nil {
						t.Fatal(err)
					}
					wrong := 0
					for i := range xs {
						if (got[0].Data[i] != 0) != want[op](xs[i], ys[i]) {
							wrong++
							if !wantWrong {
								t.Fatalf("%s %s %s cpu=%v: %d vs %d gives %v", typ, bc, op, cpu, xs[i], ys[i], got[0].Data[i] != 0)
							}
						}
					}
					if wantWrong && wrong == 0 {
						t.Fatalf("%s %s: the CPU plugin's comparison alone is right everywhere", typ, op)
					}
				}
				plain, err := NewProgram(m)
				if err != nil {
					t.Fatal(err)
				}
				check(plain, true, true)
				if _, err := AddExactCompare(m, l); err != nil {
					t.Fatal(err)
				}
				if err := m.Check(); err != nil {
					t.Fatal(err)
				}
				fixed, err := NewProgram(m)
				if err != nil {
					t.Fatal(err)
				}
				check(fixed, false, false)
				check(fixed, true, false)
			}
		}
	}
}
