package randmodel

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/irdiv/irdiv/ir"
)

// Sample is the inputs of one run, by input name.
type Sample struct {
	Inputs map[string]*ir.Tensor
	// Declared: every fixed dim has its declared size (otherwise the
	// run needs the Relaxed variant).
	Declared bool
}

// MaxDim is the largest size Samples gives a symbolic dim in a grid;
// random samples go a little beyond.
const MaxDim = 6

// Samples returns n runs' inputs, a pure function of the model and seed:
// symbolic dims over a grid of 0..MaxDim while it is small enough to
// cover in half the runs, then at random; with relaxed, a third of the
// runs give fixed dims other sizes too; integer elements small (-4..4),
// non-negative, all alike, or mixed with the edges of their type; float
// elements 0 (the models read only their shapes).
func (m *Model) Samples(seed uint64, n int, relaxed bool) []Sample {
	r := rand.New(rand.NewPCG(seed, m.Seed))
	var params []string
	seen := map[string]bool{}
	for _, in := range m.Inputs {
		for _, d := range in.Dims {
			if d.Param != "" && !seen[d.Param] {
				seen[d.Param] = true
				params = append(params, d.Param)
			}
		}
	}
	grid := 1
	for range params {
		grid *= MaxDim + 1
		if grid > n/2 {
			grid = 0
			break
		}
	}
	out := make([]Sample, n)
	for i := range out {
		size := map[string]int64{}
		for k, p := range params {
			if i < grid {
				size[p] = int64(i / pow(MaxDim+1, k) % (MaxDim + 1))
			} else {
				size[p] = []int64{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 12, 16}[r.IntN(18)]
			}
		}
		perturb := relaxed && i >= grid && r.IntN(3) == 0
		s := Sample{Inputs: map[string]*ir.Tensor{}, Declared: true}
		values := valueMode(r)
		for _, in := range m.Inputs {
			dims := make([]int64, len(in.Dims))
			for j, d := range in.Dims {
				dims[j] = d.Value
				if d.Param != "" {
					dims[j] = size[d.Param]
				} else if perturb && r.IntN(2) == 0 {
					dims[j] = r.Int64N(MaxDim + 1)
					s.Declared = s.Declared && dims[j] == d.Value
				}
			}
			t, err := ir.NewTensor(in.Type, dims)
			if err != nil {
				panic(err)
			}
			if in.Type.IsInteger() {
				for j := range t.Len() {
					setInt(t, j, values(in.Type))
				}
			}
			s.Inputs[in.Name] = t
		}
		out[i] = s
	}
	return out
}

func pow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

// valueMode chooses how one run's integer elements are drawn.
func valueMode(r *rand.Rand) func(ir.ElementType) int64 {
	small := func(ir.ElementType) int64 { return r.Int64N(9) - 4 }
	switch k := r.IntN(20); {
	case k < 9:
		return small
	case k < 12:
		return func(ir.ElementType) int64 { return r.Int64N(5) }
	case k < 15:
		var v *int64
		return func(t ir.ElementType) int64 {
			if v == nil {
				x := small(t)
				if r.IntN(3) == 0 {
					x = edge(r, t)
				}
				v = &x
			}
			return *v
		}
	}
	return func(t ir.ElementType) int64 {
		if r.IntN(10) < 7 {
			return small(t)
		}
		return edge(r, t)
	}
}

// edge is a value near a limit: of the type, of int32 in an int64, of
// float32's exact integers.
func edge(r *rand.Rand, t ir.ElementType) int64 {
	vs := []int64{math.MinInt32, math.MinInt32 + 1, math.MaxInt32, math.MaxInt32 - 1, 1<<24 + 1, -(1<<24 + 1), 100, -100, 1 << 20}
	if t == ir.I64 {
		vs = append(vs, math.MinInt64, math.MinInt64+1, math.MaxInt64, math.MaxInt64-1, 1<<31, -1<<31-1, 1<<53+1, 1<<62)
	}
	return vs[r.IntN(len(vs))]
}

func setInt(t *ir.Tensor, i int, v int64) {
	switch t.Type {
	case ir.I32:
		binary.LittleEndian.PutUint32(t.Data[4*i:], uint32(int32(v)))
	case ir.I64:
		binary.LittleEndian.PutUint64(t.Data[8*i:], uint64(v))
	}
}
