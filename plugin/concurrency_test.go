package plugin

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// quotientModel: q = a / [2, -3, 4] (floor), a of shape [?,3].
func quotientModel(t testing.TB) *CompiledModel {
	m := &ir.Model{Name: "q"}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("?,3"))
	c := m.AddConst("c", i32(t, []int64{3}, 2, -3, 4))
	q, err := ops.AddDivide(m, "q", ir.Output{Layer: a}, ir.Output{Layer: c}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		t.Fatal(err)
	}
	m.AddResult("q_out", ir.Output{Layer: q})
	cm, err := NewCore().CompileModel(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// caseFor returns goroutine g's input, of g+1 rows, and its exact quotient.
func caseFor(t testing.TB, g int) (*ir.Tensor, []int32) {
	rows := g%7 + 1
	a := make([]int32, 3*rows)
	want := make([]int32, len(a))
	for i := range a {
		a[i] = int32((g+1)*1000 - 37*i)
		want[i] = testutil.FloorDiv(a[i], []int32{2, -3, 4}[i%3])
	}
	return i32(t, []int64{int64(rows), 3}, a...), want
}

// TestRequestBusyIsRefused: while a call runs, every other call on the
// same request answers ErrRequestBusy and changes nothing.
func TestRequestBusyIsRefused(t *testing.T) {
	cm := quotientModel(t)
	req := cm.NewInferRequest()
	a, want := caseFor(t, 0)
	if err := req.SetInputTensor(0, a); err != nil {
		t.Fatal(err)
	}
	if err := req.Infer(); err != nil {
		t.Fatal(err)
	}
	other, _ := caseFor(t, 3)
	req.busy.Store(true) // as if another goroutine were inside a call
	calls := map[string]func() error{
		"SetTensor":      func() error { return req.SetTensor("a", other) },
		"SetInputTensor": func() error { return req.SetInputTensor(0, other) },
		"Infer":          func() error { return req.Infer() },
		"Tensor(output)": func() error { _, err := req.Tensor("q_out"); return err },
		"Tensor(input)":  func() error { _, err := req.Tensor("a"); return err },
		"OutputTensor":   func() error { _, err := req.OutputTensor(0); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ErrRequestBusy) {
			t.Errorf("%s on a busy request: %v", name, err)
		}
	}
	req.busy.Store(false)
	out, err := req.OutputTensor(0)
	if err != nil || !slices.Equal(ir.View[int32](out), want) {
		t.Errorf("after the refused calls: %v %v, want %v", err, out, want)
	}
}

// TestRequestHammered: several goroutines use one request at once. Each
// call either works or answers ErrRequestBusy; no call sees a half-updated
// request (an output whose shape belongs to no input, a wrong result
// afterwards), and the race detector sees no race.
func TestRequestHammered(t *testing.T) {
	cm := quotientModel(t)
	req := cm.NewInferRequest()
	const goroutines = 8
	inputs := make([]*ir.Tensor, goroutines)
	wants := make([][]int32, goroutines)
	shapes := make(map[string]bool)
	for g := range inputs {
		inputs[g], wants[g] = caseFor(t, g)
		shapes[fmt.Sprint(inputs[g].Shape)] = true
	}
	req.SetInputTensor(0, inputs[0])
	if err := req.Infer(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	busy, done := 0, 0
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		t.Errorf(format, args...)
	}
	for g := range goroutines {
		wg.Go(func() {
			for range 300 {
				errs := []error{req.SetInputTensor(0, inputs[g]), req.Infer()}
				out, err := req.OutputTensor(0)
				errs = append(errs, err)
				for _, err := range errs {
					if err != nil && !errors.Is(err, ErrRequestBusy) {
						fail("goroutine %d: %v", g, err)
					}
				}
				if out != nil && (!shapes[fmt.Sprint(out.Shape)] || len(out.Data) != 4*out.Len()) {
					fail("goroutine %d: output of shape %v with %d bytes", g, out.Shape, len(out.Data))
				}
				mu.Lock()
				for _, err := range errs {
					if err != nil {
						busy++
					} else {
						done++
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("%d calls done, %d refused as busy", done, busy)
	for g := range goroutines {
		req.SetInputTensor(0, inputs[g])
		if err := req.Infer(); err != nil {
			t.Fatal(err)
		}
		out, _ := req.OutputTensor(0)
		if !slices.Equal(ir.View[int32](out), wants[g]) {
			t.Fatalf("after the hammering, input %d gives %v, want %v", g, ir.View[int32](out), wants[g])
		}
	}
}

// TestCompiledModelSharedByManyRequests: one CompiledModel serves many
// goroutines, each with its own request; results are exact and the inputs
// are never written.
func TestCompiledModelSharedByManyRequests(t *testing.T) {
	cm := quotientModel(t)
	const goroutines, inferences = 64, 500
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			a, want := caseFor(t, g)
			before := slices.Clone(a.Data)
			req := cm.NewInferRequest()
			for i := range inferences {
				if err := req.SetInputTensor(0, a); err != nil {
					errs <- err
					return
				}
				if err := req.Infer(); err != nil {
					errs <- err
					return
				}
				out, err := req.OutputTensor(0)
				if err != nil || !slices.Equal(ir.View[int32](out), want) {
					errs <- fmt.Errorf("goroutine %d, inference %d: %v %v, want %v", g, i, err, out, want)
					return
				}
			}
			if !slices.Equal(before, a.Data) {
				errs <- fmt.Errorf("goroutine %d: the input was modified", g)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestOutputCap: an output larger than Config.MaxTensorBytes fails with
// ir.ErrTooLarge before anything is allocated, at Infer and when folding.
func TestOutputCap(t *testing.T) {
	m := &ir.Model{Name: "cap"}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("?,1"))
	row := m.AddConst("row", i32(t, []int64{1, 4}, 1, 2, 3, 4))
	col := m.AddConst("col", i32(t, []int64{4, 1}, 1, 2, 3, 4))
	q, _ := ops.AddDivide(m, "q", ir.Output{Layer: a}, ir.Output{Layer: row}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	m.AddResult("q_out", ir.Output{Layer: q})
	cm, err := NewCore().CompileModel(m, Config{Options: ops.Options{MaxTensorBytes: 64}})
	if err != nil {
		t.Fatal(err)
	}
	req := cm.NewInferRequest()
	req.SetInputTensor(0, i32(t, []int64{4, 1}, 1, 2, 3, 4)) // [4,4] i32: 64 bytes
	if err := req.Infer(); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	req.SetInputTensor(0, i32(t, []int64{5, 1}, 1, 2, 3, 4, 5)) // 80 bytes
	if err := req.Infer(); !errors.Is(err, ir.ErrTooLarge) {
		t.Errorf("above the cap: %v", err)
	}
	// The request still works with the earlier shape.
	req.SetInputTensor(0, i32(t, []int64{4, 1}, 1, 2, 3, 4))
	if err := req.Infer(); err != nil {
		t.Errorf("after a refused call: %v", err)
	}
	folded, _ := ops.AddDivide(m, "f", ir.Output{Layer: col}, ir.Output{Layer: row}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	m.AddResult("f_out", ir.Output{Layer: folded})
	if _, err := NewCore().CompileModel(m, Config{Options: ops.Options{MaxTensorBytes: 63}}); !errors.Is(err, ir.ErrTooLarge) {
		t.Errorf("folding above the cap: %v", err)
	}
	if err := req.SetInputTensor(0, nil); !errors.Is(err, ErrInput) {
		t.Errorf("nil tensor: %v", err)
	}
}
