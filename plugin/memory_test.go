package plugin

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// reshapeChain is issue 28's model, scaled down: a Broadcast of a scalar
// to the shape given as input s (f32[s]), eleven Reshapes of it, and
// their sum. Every tensor is under the cap, and all twelve together are
// twelve times one.
func reshapeChain(t *testing.T) *ir.Model {
	m := &ir.Model{Name: "reshapes"}
	s := m.AddParameter("s", ir.I64, shapeinfer.StaticShape(1))
	zero, _ := ir.NewTensor(ir.F32, []int64{})
	flat := i64Tensor(t, []int64{1}, -1)
	prev := ir.Output{Layer: m.AddLayer("Broadcast", "opset3", "broadcast", []ir.Attr{{Name: "mode", Value: "numpy"}},
		[]ir.Output{{Layer: m.AddConst("zero", zero)}, {Layer: s}}, []*ir.Port{{Type: ir.F32, Dims: []int64{-1}}})}
	shape := ir.Output{Layer: m.AddConst("flat", flat)}
	for i := range 11 {
		prev = ir.Output{Layer: m.AddLayer("Reshape", "opset1", fmt.Sprintf("reshape%d", i), []ir.Attr{{Name: "special_zero", Value: "false"}},
			[]ir.Output{prev, shape}, []*ir.Port{{Type: ir.F32, Dims: []int64{-1}}})}
	}
	sum := m.AddLayer("ReduceSum", "opset1", "sum", []ir.Attr{{Name: "keep_dims", Value: "false"}},
		[]ir.Output{prev, {Layer: m.AddConst("axis", i64Tensor(t, []int64{1}, 0))}}, []*ir.Port{{Type: ir.F32}})
	m.AddResult("y", ir.Output{Layer: sum})
	return m
}

func i64Tensor(t *testing.T, shape []int64, v ...int64) *ir.Tensor {
	x, err := ir.TensorOf(ir.I64, shape, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestMemoryBudget: a request releases each tensor once the last layer
// that reads it has run, so that the chain of twelve 1 MiB tensors holds
// two at a time, within the default budget of 4 × the cap; a budget
// below two is refused with ErrMemory naming the layer, before the
// output is allocated.
func TestMemoryBudget(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		budget int64 // Config.MaxMemoryBytes; 0 for the default
		err    string
	}{
		{0, ""},
		{2 * mib, ""},
		{2*mib - 1, `layer "reshape0" (id 4): its output takes more than the 1048575 bytes left, which would take the tensors held at once (1048576 bytes) past the 2097151 allowed (Config.MaxMemoryBytes)`},
		{mib - 1, `layer "broadcast" (id 2)`},
	} {
		t.Run(fmt.Sprint(tc.budget), func(t *testing.T) {
			cm, err := NewCore().CompileModel(reshapeChain(t), Config{Options: ops.Options{MaxTensorBytes: mib}, MaxMemoryBytes: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			req := cm.NewInferRequest()
			if err := req.SetInputTensor(0, i64Tensor(t, []int64{1}, mib/4)); err != nil {
				t.Fatal(err)
			}
			for range 2 { // twice: the second starts from what the first left
				err := req.Infer()
				if tc.err != "" {
					if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("%v, want ErrMemory %q", err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if req.peak > 2*mib {
					t.Errorf("the request held %d bytes at once, more than two of the tensors", req.peak)
				}
			}
		})
	}
}

// TestDivideBuffersShared: a chain of Divides takes its outputs from
// buffers the request keeps and shares between steps (a step's buffer is
// free again once the next has read it): two buffers for twenty Divides,
// and once the shapes are stable an inference allocates nothing.
func TestDivideBuffersShared(t *testing.T) {
	m := &ir.Model{Name: "divides"}
	prev := ir.Output{Layer: m.AddParameter("x", ir.I32, shapeinfer.StaticShape(1024))}
	one := ir.Output{Layer: m.AddConst("one", i32(t, []int64{}, 1))}
	for i := range 20 {
		d, err := ops.AddDivide(m, fmt.Sprintf("d%d", i), prev, one, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
		if err != nil {
			t.Fatal(err)
		}
		prev = ir.Output{Layer: d}
	}
	m.AddResult("y", prev)
	cm, err := NewCore().CompileModel(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	req := cm.NewInferRequest()
	x, _ := ir.NewTensor(ir.I32, []int64{1024})
	if err := req.SetInputTensor(0, x); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := req.Infer(); err != nil {
			t.Fatal(err)
		}
	}
	if req.buffers != 2*4096 || req.peak != 2*4096 {
		t.Errorf("the request keeps %d bytes of buffers and held %d at once; two outputs are 8192", req.buffers, req.peak)
	}
	if allocs := testing.AllocsPerRun(50, func() { _ = req.Infer() }); allocs != 0 {
		t.Errorf("Infer allocates %v times per run", allocs)
	}
}
