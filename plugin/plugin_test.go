package plugin

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

func i32(t testing.TB, shape []int64, vals ...int32) *ir.Tensor {
	t.Helper()
	x, err := ir.TensorOf(ir.I32, shape, vals)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// chainModel: q = a / c (numpy, floor); r = q / b (truncation); s = c / c2
// (folded at compile time); all three are outputs.
func chainModel(t testing.TB) *ir.Model {
	m := &ir.Model{Name: "chain"}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("?,3"))
	b := m.AddParameter("b", ir.I32, shapeinfer.MustParseShape("1..4,3"))
	c := m.AddConst("c", i32(t, []int64{3}, 2, -3, 4))
	c2 := m.AddConst("c2", i32(t, []int64{}, 2))
	q, err := ops.AddDivide(m, "q", ir.Output{Layer: a}, ir.Output{Layer: c}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ops.AddDivide(m, "r", ir.Output{Layer: q}, ir.Output{Layer: b}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, false))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ops.AddDivide(m, "s", ir.Output{Layer: c}, ir.Output{Layer: c2}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		t.Fatal(err)
	}
	m.AddResult("q_out", ir.Output{Layer: q})
	m.AddResult("r_out", ir.Output{Layer: r})
	m.AddResult("s_out", ir.Output{Layer: s})
	return m
}

func TestInferEndToEnd(t *testing.T) {
	// The model goes through the IR codec first, as a user's model would.
	x, bin, err := ir.Encode(chainModel(t))
	if err != nil {
		t.Fatal(err)
	}
	core := NewCore()
	m, err := core.ReadModelFromBytes(x, bin)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := core.CompileModel(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if in := cm.Inputs(); len(in) != 2 || in[0].Name != "a" || in[1].Shape.String() != "[1..4,3]" {
		t.Errorf("Inputs = %+v", in)
	}
	if out := cm.Outputs(); len(out) != 3 || out[0].Name != "q_out" || out[0].Names[0] != "q" || out[1].Shape.String() != "[?,3]" {
		t.Errorf("Outputs = %+v", out)
	}
	req := cm.NewInferRequest()
	// Two rows, then four: dynamic dimensions are resolved per Infer.
	for _, rows := range []int64{2, 4} {
		a := make([]int32, 3*rows)
		b := make([]int32, 3*rows)
		for i := range a {
			a[i], b[i] = int32(-7*i-1), int32(i%3+1)*int32(1-2*(i%2))
		}
		if err := req.SetTensor("a", i32(t, []int64{rows, 3}, a...)); err != nil {
			t.Fatal(err)
		}
		if err := req.SetInputTensor(1, i32(t, []int64{rows, 3}, b...)); err != nil {
			t.Fatal(err)
		}
		if err := req.Infer(); err != nil {
			t.Fatal(err)
		}
		q, _ := req.Tensor("q_out")
		r, _ := req.Tensor("r")
		s, _ := req.OutputTensor(2)
		for i := range a {
			wantQ := testutil.FloorDiv(a[i], []int32{2, -3, 4}[i%3])
			wantR := wantQ / b[i]
			if ir.View[int32](q)[i] != wantQ || ir.View[int32](r)[i] != wantR {
				t.Fatalf("rows=%d element %d: q=%d r=%d, want %d %d", rows, i, ir.View[int32](q)[i], ir.View[int32](r)[i], wantQ, wantR)
			}
		}
		if fmt.Sprint(ir.View[int32](s)) != "[1 -2 2]" {
			t.Errorf("folded constant = %v", ir.View[int32](s))
		}
	}
}

func TestInferErrors(t *testing.T) {
	core := NewCore()
	cm, err := core.CompileModel(chainModel(t), Config{})
	if err != nil {
		t.Fatal(err)
	}
	req := cm.NewInferRequest()
	if err := req.Infer(); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `input "a" is not set`) {
		t.Errorf("unset input: %v", err)
	}
	if err := req.SetTensor("b", i32(t, []int64{5, 3}, make([]int32, 15)...)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "[1..4,3]") {
		t.Errorf("interval violated: %v", err)
	}
	f32, _ := ir.TensorOf(ir.F32, []int64{1, 3}, []float32{1, 2, 3})
	if err := req.SetTensor("a", f32); !errors.Is(err, ErrInput) {
		t.Errorf("wrong type: %v", err)
	}
	if err := req.SetTensor("nope", f32); !errors.Is(err, ErrInput) {
		t.Errorf("unknown name: %v", err)
	}
	// A zero in b reaches the second Divide: the error names it and the index.
	req.SetTensor("a", i32(t, []int64{1, 3}, 1, 2, 3))
	req.SetTensor("b", i32(t, []int64{1, 3}, 1, 0, 1))
	err = req.Infer()
	if !errors.Is(err, ops.ErrDivideByZero) || !strings.Contains(err.Error(), `ops: layer "r" (id 5): integer division by zero at flat output index 1`) {
		t.Errorf("division by zero: %v", err)
	}
	if _, err := core.CompileModel(chainModel(t), Config{Options: ops.Options{SIMD: ops.SIMD(200)}}); err == nil {
		t.Error("unknown SIMD level accepted")
	}
}

func TestCompileFoldsConstantsWithErrorPolicy(t *testing.T) {
	m := &ir.Model{}
	c := m.AddConst("c", i32(t, []int64{2}, 1, 2))
	z := m.AddConst("z", i32(t, []int64{2}, 1, 0))
	d, _ := ops.AddDivide(m, "d", ir.Output{Layer: c}, ir.Output{Layer: z}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	m.AddResult("out", ir.Output{Layer: d})
	_, err := NewCore().CompileModel(m, Config{})
	if !errors.Is(err, ops.ErrDivideByZero) || !strings.Contains(err.Error(), `ops: layer "d" (id 2): integer division by zero at flat output index 1`) {
		t.Errorf("compile: %v", err)
	}
}

func TestSteadyStateInferDoesNotAllocate(t *testing.T) {
	for _, profiling := range []bool{false, true} {
		cm, err := NewCore().CompileModel(chainModel(t), Config{Profiling: profiling})
		if err != nil {
			t.Fatal(err)
		}
		req := chainRequest(t, cm)
		if err := req.Infer(); err != nil {
			t.Fatal(err)
		}
		if allocs := testing.AllocsPerRun(100, func() { _ = req.Infer() }); allocs != 0 {
			t.Errorf("profiling %v: Infer allocates %v times per run", profiling, allocs)
		}
	}
}

// chainRequest binds a [4,3] and b = 3s to a request of chainModel.
func chainRequest(t *testing.T, cm *CompiledModel) *InferRequest {
	t.Helper()
	req := cm.NewInferRequest()
	b := make([]int32, 12)
	for i := range b {
		b[i] = 3
	}
	if req.SetTensor("a", i32(t, []int64{4, 3}, make([]int32, 12)...)) != nil || req.SetTensor("b", i32(t, []int64{4, 3}, b...)) != nil {
		t.Fatal("binding the inputs failed")
	}
	return req
}

// TestProfilingInfo: with Config.Profiling every layer is listed as
// OpenVINO's get_profiling_info lists it, each Divide with its time, kernel
// level, type, elements and threads; without it the call fails.
func TestProfilingInfo(t *testing.T) {
	cm, err := NewCore().CompileModel(chainModel(t), Config{Profiling: true})
	if err != nil {
		t.Fatal(err)
	}
	req := chainRequest(t, cm)
	for range 3 {
		if err := req.Infer(); err != nil {
			t.Fatal(err)
		}
	}
	infos, err := req.ProfilingInfo()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range infos {
		got = append(got, fmt.Sprintf("%s %s %s %s %d %d %d", p.NodeName, p.NodeType, p.Status, p.ExecType, p.Elements, p.Threads, p.Runs))
		if p.Status == Executed && (p.RealTime <= 0 || p.CPUTime != p.RealTime || p.TotalTime < p.RealTime) {
			t.Errorf("%s: real %v cpu %v total %v", p.NodeName, p.RealTime, p.CPUTime, p.TotalTime)
		}
	}
	level := cm.SIMD().String()
	want := []string{
		"a Parameter NOT_RUN undef 0 0 0",
		"b Parameter NOT_RUN undef 0 0 0",
		"q Divide EXECUTED " + level + "_i32 12 1 3",
		"r Divide EXECUTED " + level + "_i32 12 1 3",
		"s Divide OPTIMIZED_OUT undef 0 0 0",
		"q_out Result NOT_RUN undef 0 0 0",
		"r_out Result NOT_RUN undef 0 0 0",
		"s_out Result NOT_RUN undef 0 0 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("profiling info:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	plain, err := NewCore().CompileModel(chainModel(t), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.NewInferRequest().ProfilingInfo(); err == nil || !strings.Contains(err.Error(), "Config.Profiling") {
		t.Errorf("ProfilingInfo without profiling: %v", err)
	}
}

// TestCompileRealModels: every model in ../shared/ir-models either compiles
// (only Parameter/Const/Divide/Result reachable) or fails listing the
// layers irdiv cannot execute; QueryModel marks every Divide.
func TestCompileRealModels(t *testing.T) {
	files := testutil.SharedFiles(t, "ir-models/div_*/*.xml")
	core := NewCore()
	for _, f := range files {
		m, err := core.ReadModel(f, "")
		if err != nil {
			t.Fatal(err)
		}
		supported := core.QueryModel(m)
		for _, l := range m.Layers {
			if l.Type == "Divide" && supported[l.Name] != DeviceName {
				t.Errorf("%s: Divide %q not supported", f, l.Name)
			}
		}
		// The error counts the layers irdiv cannot execute by type, on one
		// short line, and points at run --layer.
		dead := make(map[*ir.Layer]bool)
		for _, l := range m.Unreachable() {
			dead[l] = true
		}
		cannot := 0
		for _, l := range m.Layers {
			if op, err := ops.New(l); !dead[l] && (err != nil || !executable(op)) {
				cannot++
			}
		}
		_, err = core.CompileModel(m, Config{})
		want := fmt.Sprintf("irdiv cannot execute %d layers (", cannot) // every real model has several
		if !errors.Is(err, ErrUnsupportedOp) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "run --layer") || len(err.Error()) > 600 {
			t.Errorf("%s: compile error %v; want %q", f, err, want)
		}
	}
}

// BenchmarkInfer measures the fixed cost of one inference of a one-element
// model: Parameter / Const -> Divide -> Result.
func BenchmarkInfer(b *testing.B) {
	m := &ir.Model{Name: "one"}
	a := m.AddParameter("a", ir.F32, shapeinfer.MustParseShape("1"))
	c := m.AddConst("c", func() *ir.Tensor { t, _ := ir.TensorOf(ir.F32, []int64{1}, []float32{3}); return t }())
	d, _ := ops.AddDivide(m, "d", ir.Output{Layer: a}, ir.Output{Layer: c}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	m.AddResult("out", ir.Output{Layer: d})
	cm, err := NewCore().CompileModel(m, Config{})
	if err != nil {
		b.Fatal(err)
	}
	req := cm.NewInferRequest()
	x, _ := ir.TensorOf(ir.F32, []int64{1}, []float32{7})
	req.SetInputTensor(0, x)
	b.ReportAllocs()
	for b.Loop() {
		if err := req.Infer(); err != nil {
			b.Fatal(err)
		}
	}
}
