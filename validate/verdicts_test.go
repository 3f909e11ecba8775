package validate

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// importONNX imports an ONNX model of the given graph as OpenVINO does.
func importONNX(t *testing.T, graph []byte) (*onnx.Model, *ir.Model) {
	t.Helper()
	om, err := onnx.Read(onnxwire.Model(14, graph), onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return om, m
}

func i32s(vs ...int32) []byte {
	out := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(v))
	}
	return out
}

// TestVerdicts: what the analysis concludes in cases where intervals
// alone conclude wrongly.
func TestVerdicts(t *testing.T) {
	t.Run("an empty output divides nothing", func(t *testing.T) {
		// No zero divisor: a note that nothing is divided, so that the
		// Divide is not passed over in silence.
		b := newBuilder(t, "onnx")
		b.divide("d", b.ints(ir.I32, []int64{0}), b.ints(ir.I32, []int64{0}), true)
		for _, f := range Model(b.m, "t", Options{}).Findings {
			if strings.HasPrefix(string(f.Code), "divide/") && (f.Code != FloorTruncAgree || !strings.Contains(f.Message, "nothing is divided")) {
				t.Errorf("%s: %s", f.Code, f.Message)
			}
		}
	})
	t.Run("MIN / -1 of constants is an error", func(t *testing.T) {
		b := newBuilder(t, "")
		b.divide("d", b.ints(ir.I32, []int64{2}, 7, -1<<31), b.ints(ir.I32, []int64{2}, 2, -1), false)
		fs := findings(Model(b.m, "t", Options{}))
		if f := fs[Overflow]; len(f) != 1 || f[0].Severity != Error || f[0].Evidence.Get("index") != 1 {
			t.Errorf("%+v", fs)
		}
	})
	t.Run("chained Divides each get a counter-example of their own", func(t *testing.T) {
		// x / 3 / 3 / 3 / 3: the third Divide differs for x = -9, which
		// the two before it divide exactly, so that the ONNX model
		// reaches it with -1 too; x = -1 reaches it as 0 there.
		fs := findings(Model(chain(t, 4, 4), "t", Options{}))
		if got := len(fs[FloorTrunc]); got != 4 {
			t.Errorf("%d floor-trunc errors, want 4: %+v", got, fs[FloorTruncPossible])
		}
		for _, f := range fs[FloorTrunc] {
			if f.CounterExample == nil {
				t.Errorf("%s: no counter-example", f.Layer.Name)
			}
		}
	})
	t.Run("a wrapping subtraction is searched, not given up", func(t *testing.T) {
		// 10 - x wraps for x near MIN, so its range is the whole type; x = 15
		// still gives -5 / 4.
		_, m := importONNX(t, onnxwire.Graph("g",
			[][]byte{onnxwire.Node("Sub", "sub", []string{"ten", "x"}, []string{"s"}), onnxwire.Node("Div", "div", []string{"s", "four"}, []string{"z"})},
			[][]byte{onnxwire.Tensor("ten", onnxwire.Int32, []int64{}, i32s(10)), onnxwire.Tensor("four", onnxwire.Int32, []int64{}, i32s(4))},
			[][]byte{onnxwire.Value("x", onnxwire.Int32)}, [][]byte{onnxwire.Value("z", onnxwire.Int32)}))
		f := findings(Model(m, "t", Options{}))[FloorTrunc]
		if len(f) != 1 || f[0].CounterExample == nil || f[0].Evidence.Get("confirmed") != "outputs" {
			t.Fatalf("%+v", f)
		}
		x := ir.View[int32](f[0].CounterExample.Inputs["x"])[0]
		if a := 10 - x; a >= 0 || a%4 == 0 {
			t.Errorf("x = %d gives %d / 4, where floor and truncation agree", x, a)
		}
	})
	t.Run("shape sub-graphs that cannot run are structure errors", func(t *testing.T) {
		b := newBuilder(t, "")
		four := b.ints(ir.I64, []int64{4}, 1, 2, 3, 4)
		b.m.AddResult("r1", b.op("Reshape", "opset1", attrs("special_zero", "false"), ir.I64, []int64{1 << 40}, four, b.ints(ir.I64, []int64{1}, 1<<40)))
		b.m.AddResult("r2", b.op("Gather", "opset8", attrs("batch_dims", "0"), ir.I64, []int64{}, four, b.ints(ir.I64, []int64{}, -1<<63), b.ints(ir.I64, []int64{}, 0)))
		b.m.AddResult("r3", b.op("Concat", "opset1", attrs("axis", "99"), ir.I64, []int64{8}, four, four))
		fs := findings(Model(b.m, "t", Options{}))
		var got []string
		for code, list := range fs {
			if strings.HasPrefix(string(code), "structure/") {
				for _, f := range list {
					if f.Severity == Error {
						got = append(got, f.Layer.Type)
					}
				}
			}
		}
		if !strings.Contains(strings.Join(got, " "), "Reshape") || !strings.Contains(strings.Join(got, " "), "Gather") || !strings.Contains(strings.Join(got, " "), "Concat") {
			t.Errorf("structure errors on %v: %+v", got, fs)
		}
		if f := fs[StructureGatherIndex]; len(f) != 1 || !strings.Contains(f[0].Message, "index -9223372036854775808 is outside [-4, 3]") {
			t.Errorf("%+v", f)
		}
	})
	t.Run("one notation for ranges", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		b.divide("d", b.param("x", ir.I64, "4"), b.ints(ir.I64, []int64{}, 3), true)
		for _, f := range Model(b.m, "t", Options{}).Findings {
			if strings.Contains(f.Message, "[[") || strings.Contains(f.Message, "9223372036854775807") {
				t.Errorf("%s: %s", f.Code, f.Message)
			}
		}
	})
}

// TestONNXPairing: --onnx compares each Div with the values that reach it
// in the ONNX model, holds Constant nodes fixed, reports operands that
// cannot be the same Div's before anything else, and never materialises
// operands beyond its cap.
func TestONNXPairing(t *testing.T) {
	byConstantOne := onnxwire.Graph("g",
		[][]byte{onnxwire.NodeAttrs("Constant", "one", nil, []string{"c"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int32, []int64{}, i32s(1)))),
			onnxwire.Node("Div", "div", []string{"x", "c"}, []string{"z"})},
		nil, [][]byte{onnxwire.Value("x", onnxwire.Int32, 4)}, [][]byte{onnxwire.Value("z", onnxwire.Int32, 4)})
	t.Run("a Constant node is a fixed value", func(t *testing.T) {
		om, m := importONNX(t, byConstantOne)
		fs := findings(Model(m, "ov.xml", Options{ONNX: om}))
		if len(fs[ONNXSemantics]) != 0 || len(fs[ONNXAgree]) != 1 || len(fs[FloorTruncAgree]) != 1 {
			t.Errorf("a Div by the Constant 1 floors like it truncates: %v", fs)
		}
	})
	t.Run("an unrelated ONNX model is a mismatch", func(t *testing.T) {
		om, _ := importONNX(t, byConstantOne)
		b := newBuilder(t, "")
		div := b.divide("div", b.param("x", ir.F32, "3,4,5"), b.param("y", ir.F32, "3,4,5"), true)
		div.Outputs[0].Names = []string{"z"}
		fs := findings(Model(b.m, "other.xml", Options{ONNX: om}))
		f := fs[ONNXMismatch]
		if len(f) != 1 || f[0].Severity != Error || len(fs[ONNXSemantics])+len(fs[ONNXAgree]) != 0 {
			t.Errorf("%+v", fs)
		}
	})
	t.Run("operands beyond the cap are not materialised", func(t *testing.T) {
		graph := onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{"x", "y"}, []string{"z"})}, nil,
			[][]byte{onnxwire.Value("x", onnxwire.Int32, 65536, 1), onnxwire.Value("y", onnxwire.Int32, 1, 65536)},
			[][]byte{onnxwire.Value("z", onnxwire.Int32, 65536, 65536)})
		om, m := importONNX(t, graph)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		fs := findings(Model(m, "big.xml", Options{ONNX: om, MaxTensorBytes: 1 << 20}))
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
			t.Errorf("validation allocated %d MiB for a 16 GiB output", grown>>20)
		}
		if len(fs[ONNXNotCompared]) != 1 {
			t.Errorf("%v", fs)
		}
	})
}

// TestEmptyAtTheDeclaredShapes: x: i64[0] / -3 divides nothing at its
// declared shape, and 1 / -3 where a reshape gives x an element: a
// warning whose counter-example has that element (its elements were
// tracked as none, and the proof read A = 0; the search kept the
// declared 0 and found nothing).
func TestEmptyAtTheDeclaredShapes(t *testing.T) {
	m := new(graph).input("x", onnxwire.Int64, fixed(0)).i64("minus3", []int64{}, -3).
		node("Div", []string{"x", "minus3"}, "x_third").output("x_third", onnxwire.Int64).imported(t)
	var got []string
	for _, f := range Model(m, "m.onnx", Options{}).Findings {
		if strings.HasPrefix(string(f.Code), "divide/") {
			got = append(got, string(f.Code)+": "+f.Message)
			if f.Code != FloorTruncReshape || !strings.Contains(f.Message, "nothing is divided there") || !strings.HasSuffix(f.Message, "with other input shapes: 1 / -3: ONNX gives 0, this IR gives -1") {
				t.Errorf("%s: %s", f.Code, f.Message)
			}
		}
	}
	if len(got) != 1 {
		t.Errorf("want one divide/ finding, got %q", got)
	}
}
