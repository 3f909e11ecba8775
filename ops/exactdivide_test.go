package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// cpuPluginRun evaluates p as OpenVINO's CPU plugin computes it.
func cpuPluginRun(p *Program, in []*ir.Tensor) ([]*ir.Tensor, error) {
	return p.Run(in, Options{BodyLayer: func(_ *ir.Layer, op Op, _ []*ir.Tensor) (Op, error) { return CPUPlugin(op), nil }})
}

// exactDivideCases are operand pairs at the edges: the type's ends, ±1,
// 2^24 ± 1 (where float32 stops holding every integer), divisors up to
// ExactDivideMaxDivisor, and random ones; i32 values, which an i64 must be
// for the CPU plugin.
func exactDivideCases(rng *rand.Rand) (as, bs []int64) {
	edgesA := []int64{math.MinInt32, math.MinInt32 + 1, math.MinInt32 + 64, -1<<30 - 1, -1<<24 - 1, -1 << 24, -1<<24 + 1, -7, -1, 0, 1, 7,
		1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<24 + 3, 0x40000001, 1<<31 - 65, 1<<31 - 64, 1<<31 - 2, math.MaxInt32}
	edgesB := []int64{1, -1, 2, -2, 3, -3, 5, 7, -11, 255, 4096, 1<<22 - 1, -(1<<22 - 1), 1 << 22, -1 << 22, 12345}
	for _, a := range edgesA {
		for _, b := range edgesB {
			// MIN / -1 is 2^31, no i32: the reference's error, and for
			// i64, a value the CPU plugin cannot hold.
			if a != math.MinInt32 || b != -1 {
				as, bs = append(as, a), append(bs, b)
			}
		}
	}
	for range 4000 {
		a := int64(int32(rng.Uint32()))
		b := rng.Int64N(2*ExactDivideMaxDivisor+1) - ExactDivideMaxDivisor
		if rng.IntN(2) == 0 {
			b = rng.Int64N(64) - 32
		}
		if b != 0 && (a != math.MinInt32 || b != -1) {
			as, bs = append(as, a), append(bs, b)
		}
	}
	return as, bs
}

// TestExactDivide: the exact form of a Divide of i32 or i64 operands gives
// the floor or the truncation of A / B, whichever it was asked for and
// whatever the Divide's m_pythondiv, under OpenVINO's reference and under
// its CPU plugin (CPUPlugin), where the Divide alone is wrong beyond 2^24;
// and ExactDivides finds the form, for the Divide and for its own
// Divides.
func TestExactDivide(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	as, bs := exactDivideCases(rng)
	for _, typ := range []ir.ElementType{ir.I32, ir.I64} {
		for _, floor := range []bool{true, false} {
			for _, pythonDiv := range []bool{true, false} {
				m := &ir.Model{}
				n := int64(len(as))
				a := m.AddParameter("a", typ, shapeinfer.StaticShape(n))
				b := m.AddParameter("b", typ, shapeinfer.StaticShape(n))
				d, err := AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, pythonDiv))
				if err != nil {
					t.Fatal(err)
				}
				m.AddResult("q", ir.Output{Layer: d})
				plain, err := NewProgram(m)
				if err != nil {
					t.Fatal(err)
				}
				in := []*ir.Tensor{intTensor(t, typ, as), intTensor(t, typ, bs)}
				// The Divide alone: wrong under the CPU plugin somewhere.
				got, err := cpuPluginRun(plain, in)
				if err != nil {
					t.Fatal(err)
				}
				wrong := 0
				for i := range as {
					if intAt(got[0], i) != divTrunc(as[i], bs[i]) {
						wrong++
					}
				}
				if wrong == 0 {
					t.Fatalf("%s: the CPU plugin's Divide alone is right everywhere", typ)
				}

				last, err := AddExactDivide(m, d, floor)
				if err != nil {
					t.Fatal(err)
				}
				forms := ExactDivides(m)
				if f, ok := forms[d]; !ok || f.Divide != d || f.Floor != floor {
					t.Fatalf("ExactDivides: the Divide's form is %+v, %v", f, ok)
				}
				for _, l := range m.Layers {
					if l.Type == "Divide" {
						if f, ok := forms[l]; !ok || f.Divide != d {
							t.Errorf("ExactDivides: %s has the form %+v, %v", l, f, ok)
						}
					}
				}
				if err := m.Check(); err != nil {
					t.Fatal(err)
				}
				fixed, err := NewProgram(m)
				if err != nil {
					t.Fatal(err)
				}
				ref, err := fixed.Run(in, Options{})
				if err != nil {
					t.Fatal(err)
				}
				cpu, err := cpuPluginRun(fixed, in)
				if err != nil {
					t.Fatal(err)
				}
				for i, x := range as {
					y := bs[i]
					want := divTrunc(x, y)
					if floor && x%y != 0 && (x < 0) != (y < 0) {
						want--
					}
					if r, c := intAt(ref[0], i), intAt(cpu[0], i); r != want || c != want {
						t.Fatalf("%s floor=%v pythondiv=%v: %d / %d: reference %d, CPU plugin %d, want %d (form's result %s)", typ, floor, pythonDiv, x, y, r, c, want, last)
					}
				}
			}
		}
	}
}

// TestExactDividesRejects: a form one layer of which reads another
// input, or whose Divide is also read by a layer of the model, is not
// taken for the exact form.
func TestExactDividesRejects(t *testing.T) {
	build := func() (*ir.Model, *ir.Layer, *ir.Layer) {
		m := &ir.Model{}
		a := m.AddParameter("a", ir.I32, shapeinfer.StaticShape(2))
		b := m.AddParameter("b", ir.I32, shapeinfer.StaticShape(2))
		d, err := AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, false))
		if err != nil {
			t.Fatal(err)
		}
		m.AddResult("q", ir.Output{Layer: d})
		if _, err := AddExactDivide(m, d, false); err != nil {
			t.Fatal(err)
		}
		return m, d, a
	}
	found := func(m *ir.Model, d *ir.Layer) bool { _, ok := ExactDivides(m)[d]; return ok }
	m, d, _ := build()
	if !found(m, d) {
		t.Fatal("the form is not found")
	}
	// Another reader of the Divide's uncorrected quotient.
	m.AddResult("raw", ir.Output{Layer: d})
	if found(m, d) {
		t.Error("a form whose Divide a Result also reads is taken")
	}
	// A step that reads A where it should read B.
	m, d, a := build()
	for i, e := range m.Edges {
		if l := layerByID(m, e.ToLayer); l != nil && l.Name == "div/irdiv_exact/sign_low" && e.ToPort == 0 {
			m.Edges[i].FromLayer = a.ID
		}
	}
	if found(m, d) {
		t.Error("a form whose sign reads A is taken")
	}
	// A constant of another value.
	m, d, _ = build()
	for _, l := range m.Layers {
		if l.Name == "div/irdiv_exact/slack" {
			l.Constant.SetInt64(0, 100)
		}
	}
	if found(m, d) {
		t.Error("a form whose slack is 100 is taken")
	}
}

func layerByID(m *ir.Model, id uint64) *ir.Layer {
	i := slices.IndexFunc(m.Layers, func(l *ir.Layer) bool { return l.ID == id })
	if i < 0 {
		return nil
	}
	return m.Layers[i]
}

func intTensor(t *testing.T, typ ir.ElementType, vs []int64) *ir.Tensor {
	x, err := ir.NewTensor(typ, []int64{int64(len(vs))})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		x.SetInt64(i, v)
	}
	return x
}

func divTrunc(a, b int64) int64 { return a / b }

// TestCPUPluginDivide: the CPU plugin's division at the examples of
// divide-spec.md (C.1, K.4), at 2^24 + 1, and where float32 rounds the
// quotient to 2^31 (vcvtps2dq's -2^31).
func TestCPUPluginDivide(t *testing.T) {
	for _, c := range []struct {
		t          ir.ElementType
		a, b, want int64
	}{
		{ir.I32, 0x40000001, 5, 214748368},
		{ir.I32, 1<<24 + 1, 1, 1 << 24},
		{ir.I32, 1<<24 + 1, 3, 5592405},
		{ir.I32, 7, -2, -3},
		{ir.I32, math.MaxInt32, 1, math.MinInt32},
		{ir.I32, 5, 0, math.MinInt32},
		{ir.I32, math.MinInt32, -1, math.MinInt32},
		{ir.I64, 1 << 31, 11, -195225792},
	} {
		if got := CPUPluginDivide(c.t, c.a, c.b); got != c.want {
			t.Errorf("%s %d / %d = %d, want %d", c.t, c.a, c.b, got, c.want)
		}
	}
}

// TestExactRemainder: the exact form of a FloorMod or Mod of i32 or i64
// operands (a - F*B, a - T*B) gives the remainder of floor or truncated
// division under OpenVINO's reference and under its CPU plugin, where
// the op alone, computed in float32, is wrong beyond 2^24; ExactDivides
// finds it as a remainder form, and not one whose last step reads the
// other quotient.
func TestExactRemainder(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	as, bs := exactDivideCases(rng)
	for _, typ := range []ir.ElementType{ir.I32, ir.I64} {
		for _, opType := range []string{"FloorMod", "Mod"} {
			floor := opType == "FloorMod"
			m := &ir.Model{}
			n := int64(len(as))
			a := m.AddParameter("a", typ, shapeinfer.StaticShape(n))
			b := m.AddParameter("b", typ, shapeinfer.StaticShape(n))
			l := m.AddLayer(opType, "opset1", "rem", []ir.Attr{{Name: "auto_broadcast", Value: "numpy"}},
				[]ir.Output{{Layer: a}, {Layer: b}}, []*ir.Port{{Type: typ, Dims: []int64{n}}})
			m.AddResult("r", ir.Output{Layer: l})
			in := []*ir.Tensor{intTensor(t, typ, as), intTensor(t, typ, bs)}
			want := func(x, y int64) int64 {
				r := x % y
				if floor && r != 0 && (r < 0) != (y < 0) {
					r += y
				}
				return r
			}
			plain, err := NewProgram(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cpuPluginRun(plain, in)
			if err != nil {
				t.Fatal(err)
			}
			wrong := 0
			for i := range as {
				if intAt(got[0], i) != want(as[i], bs[i]) {
					wrong++
				}
			}
			if wrong == 0 {
				t.Fatalf("%s %s: the CPU plugin's op alone is right everywhere", typ, opType)
			}
			last, err := AddExactRemainder(m, l)
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := ExactDivides(m)[l]; !ok || f.Divide != l || f.Floor != floor || !f.Remainder {
				t.Fatalf("%s %s: ExactDivides: the form is %+v, %v", typ, opType, f, ok)
			}
			if err := m.Check(); err != nil {
				t.Fatal(err)
			}
			fixed, err := NewProgram(m)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := fixed.Run(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			cpu, err := cpuPluginRun(fixed, in)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range as {
				w := want(x, bs[i])
				if r, c := intAt(ref[0], i), intAt(cpu[0], i); r != w || c != w {
					t.Fatalf("%s %s: %d %% %d: reference %d, CPU plugin %d, want %d (form's result %s)", typ, opType, x, bs[i], r, c, w, last)
				}
			}
			// The remainder's product reading the other quotient is not the form.
			other := "rem" + exactMarker + quotientStep(!floor)
			if o := slices.IndexFunc(m.Layers, func(x *ir.Layer) bool { return x.Name == other }); o >= 0 {
				for i, e := range m.Edges {
					if x := layerByID(m, e.ToLayer); x != nil && x.Name == "rem"+exactMarker+"mod_product" && e.ToPort == 0 {
						m.Edges[i].FromLayer, m.Edges[i].FromPort = m.Layers[o].ID, m.Layers[o].Outputs[0].ID
					}
				}
				if _, ok := ExactDivides(m)[l]; ok {
					t.Errorf("%s %s: a remainder of the other quotient is taken for the form", typ, opType)
				}
			}
		}
	}
}
