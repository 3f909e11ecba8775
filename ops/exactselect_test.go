package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestExactSelect: y + Convert(c) * (x - y) is c ? x : y for i32 and i64
// values at the edges (the type's ends, 2^24 + 1, where float32 stops
// holding every integer) under OpenVINO's reference and under its CPU
// plugin, where the Select alone rounds them; c broadcast against x and y
// of another shape, so that the form's ops must align them as the Select
// did.
func TestExactSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	edges := []int64{math.MinInt32, math.MinInt32 + 1, -1<<24 - 1, -1 << 24, -1, 0, 1, 1<<24 - 1, 1<<24 + 1, 0x40000001, math.MaxInt32 - 1, math.MaxInt32}
	var xs, ys []int64
	for _, x := range edges {
		for _, y := range edges {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for range 500 {
		xs, ys = append(xs, int64(int32(rng.Uint32()))), append(ys, int64(int32(rng.Uint32())))
	}
	n := int64(len(xs))
	for _, typ := range []ir.ElementType{ir.I32, ir.I64} {
		m := &ir.Model{}
		// c is [2, 1]: row 0 false, row 1 true, against x and y of [n].
		c := m.AddParameter("c", ir.Boolean, shapeinfer.StaticShape(2, 1))
		x := m.AddParameter("x", typ, shapeinfer.StaticShape(n))
		y := m.AddParameter("y", typ, shapeinfer.StaticShape(n))
		l := m.AddLayer("Select", "opset1", "where", []ir.Attr{{Name: "auto_broadcast", Value: "numpy"}},
			[]ir.Output{{Layer: c}, {Layer: x}, {Layer: y}}, []*ir.Port{{Type: typ, Dims: []int64{2, n}}})
		m.AddResult("r", ir.Output{Layer: l})
		cond, err := ir.NewTensor(ir.Boolean, []int64{2, 1})
		if err != nil {
			t.Fatal(err)
		}
		cond.Data[1] = 1
		in := []*ir.Tensor{cond, intTensor(t, typ, xs), intTensor(t, typ, ys)}
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
			if got[0].Len() != int(2*n) {
				t.Fatalf("%s: %d elements, want %d", typ, got[0].Len(), 2*n)
			}
			wrong := 0
			for i := range xs {
				if intAt(got[0], i) != ys[i] || intAt(got[0], int(n)+i) != xs[i] {
					wrong++
					if !wantWrong {
						t.Fatalf("%s cpu=%v: element %d: %d, %d where y is %d and x %d", typ, cpu, i, intAt(got[0], i), intAt(got[0], int(n)+i), ys[i], xs[i])
					}
				}
			}
			if wantWrong && wrong == 0 {
				t.Fatalf("%s: the CPU plugin's Select alone is right everywhere", typ)
			}
		}
		plain, err := NewProgram(m)
		if err != nil {
			t.Fatal(err)
		}
		check(plain, true, true)
		if _, err := AddExactSelect(m, l); err != nil {
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
