package ops

import (
	"math"

	"github.com/irdiv/irdiv/ir"
)

// OpenVINO's CPU plugin computes some integer ops otherwise than its
// reference, and CPUPlugin evaluates them its way, so that a model can be
// checked under both. What it computes, read from openvinotoolkit/openvino
// (src/plugins/intel_cpu/src):
//
//   - it holds every i64 value as i32 (the plugin converts the model's
//     i64 to i32; #37766): an i64 operand here is cut to its low 32 bits;
//   - its Eltwise node runs a kernel of one execution precision, i32 only
//     where every op of the kernel has an i32 emitter and every input is
//     i32, f32 otherwise (eltwise_precision_helper::get_precision,
//     nodes/kernels/jit_eltwise_common.cpp); Add, Subtract, Multiply,
//     Maximum, Minimum and SquaredDifference have i32 emitters
//     (vpaddd, vpsubd, vpmulld, vpmaxsd, vpminsd: exact, wrapping), and
//     Eltwise::canFuse fuses Add, Subtract, Multiply, Divide (and MulAdd,
//     SquaredDifference) of i32 inputs only with each other, so those run
//     in i32 (Maximum and Minimum do too unless fused after an f32-only op:
//     CPUPlugin takes them as i32); this holds on the JIT path, x64 with
//     SSE4.1 and ranks up to MAX_ELTWISE_DIM_RANK, not in the reference
//     executor, which computes every non-bitwise op in f32;
//   - the snippets tokenizer leaves i32 element-wise ops to Eltwise
//     (has_supported_in_out, src/common/snippets/.../collapse_subgraph.cpp);
//   - Divide's i32 emitter divides in float32 (jit_divide_emitter:
//     vcvtdq2ps, vdivps, vroundps toward zero, vcvtps2dq), whatever
//     m_pythondiv says: CPUPluginDivide;
//   - the comparisons, Mod and FloorMod have f32 emitters only: their i32
//     operands are converted to float32 (round to nearest even) as they
//     are loaded, Mod and FloorMod compute a - trunc(a/b)*b and
//     a - floor(a/b)*b in float32, and the result is stored back with
//     vcvtps2dq.
//
//   - Select's emitter is f32 only too (jit_select_emitter): its i32 x
//     and y are converted to float32 as they are loaded, and the one
//     chosen is stored back with vcvtps2dq.
//
// The rest (the logical ops, Convert of a boolean) agree with the
// reference.

// CPUPlugin returns an op that computes what OpenVINO's x64 CPU plugin
// computes for op on i32 and i64 elements, where that differs from the
// reference: Divide, Mod, FloorMod, the comparisons and Select, and the
// arithmetic ops on i64, which it computes on i32. Other ops, and these
// on other element types, are op itself.
func CPUPlugin(op Op) Op {
	c := &cpuOp{Op: op}
	switch op := op.(type) {
	case *Divide:
		c.arith = func(a, b int32) int32 { return int32(CPUPluginDivide(ir.I32, int64(a), int64(b))) }
	case *Mod:
		c.arith = func(a, b int32) int32 { return cpuF32Mod(a, b, false) }
	case *FloorMod:
		c.arith = func(a, b int32) int32 { return cpuF32Mod(a, b, true) }
	case *Equal, *NotEqual, *Less, *LessEqual, *Greater, *GreaterEqual:
		c.compare = compareOf(op)
	case *Select:
		return &cpuSelect{op}
	case *Add, *Subtract, *Multiply, *Maximum, *Minimum, *SquaredDifference:
		// Exact on i32: only i64 differs, cut to i32.
		f := arithOf(op)
		c.arith = func(a, b int32) int32 {
			v, _ := f(ir.I32, int64(a), int64(b)) // these never fail
			return int32(v)
		}
	default:
		return op
	}
	return c
}

// arithOf and compareOf return the reference computation of a binary op.
func arithOf(op Op) func(ir.ElementType, int64, int64) (int64, error) {
	return op.(interface{ definition() *binaryDef }).definition().arith.i
}

func compareOf(op Op) func(a, b float64) bool {
	return op.(interface{ definition() *binaryDef }).definition().compare.f
}

func (*binaryOp[K]) definition() *binaryDef {
	var k K
	return k.def()
}

// cpuOp is an op as the CPU plugin computes it on i32 and i64: arith
// for an integer result, compare (on the operands made float32) for a
// boolean one.
type cpuOp struct {
	Op
	arith   func(a, b int32) int32
	compare func(a, b float64) bool
}

func (c *cpuOp) evaluate(in, out []*ir.Tensor, o Options) error {
	a, b, dst := in[0], in[1], out[0]
	if a.Type != ir.I32 && a.Type != ir.I64 {
		return c.Op.(evaluator).evaluate(in, out, o)
	}
	aDims, bDims := alignDims(c.Op.(Broadcaster).AutoBroadcast(), a.Shape, b.Shape, len(dst.Shape))
	walk(dst.Shape, [][]int64{aDims, bDims}, func(i int, idx []int) {
		// An i64 is held as i32: its low 32 bits.
		x, y := int32(intAt(a, idx[0])), int32(intAt(b, idx[1]))
		if c.compare != nil {
			dst.Data[i] = b2u(c.compare(float64(float32(x)), float64(float32(y))))
			return
		}
		dst.SetInt64(i, int64(c.arith(x, y)))
	})
	return nil
}

// cpuSelect is Select as the CPU plugin computes it on i32 and i64: the
// value chosen, an i64 cut to i32, through float32.
type cpuSelect struct{ *Select }

func (c *cpuSelect) evaluate(in, out []*ir.Tensor, o Options) error {
	if err := c.Select.evaluate(in, out, o); err != nil {
		return err
	}
	dst := out[0]
	if dst.Type != ir.I32 && dst.Type != ir.I64 {
		return nil
	}
	for i := range dst.Len() {
		dst.SetInt64(i, int64(cpuToI32(float32(int32(intAt(dst, i))))))
	}
	return nil
}

// CPUPluginDivide is an integer Divide of a by b as OpenVINO's x64 CPU
// plugin computes it (jit_divide_emitter's i32 execution, its
// m_pythondiv ignored): an i64 is cut to i32, both are converted to
// float32 (nearest even), divided in float32, truncated, and converted
// back, which gives 0x80000000 (-2^31) where the quotient is beyond the
// i32 range or not a number (a zero divisor: vcvtps2dq's "integer
// indefinite"). Exact where both operands are below 2^24 in magnitude.
// t is I32 or I64; the result is an i32 value.
func CPUPluginDivide(t ir.ElementType, a, b int64) int64 {
	if t == ir.I64 {
		a, b = int64(int32(a)), int64(int32(b))
	}
	q := float32(a) / float32(b)
	return int64(cpuToI32(float32(math.Trunc(float64(q)))))
}

// CPUPluginRemainder is an integer FloorMod (floor) or Mod of a by b as
// OpenVINO's x64 CPU plugin computes it (cpuF32Mod): an i64 is cut to
// i32 and the remainder computed in float32. t is I32 or I64; the result
// is an i32 value.
func CPUPluginRemainder(t ir.ElementType, a, b int64, floor bool) int64 {
	return int64(cpuF32Mod(int32(a), int32(b), floor))
}

// cpuF32Mod is Mod (floor false) or FloorMod of i32 operands as the CPU
// plugin's f32 emitters compute them: a - trunc(a/b)*b or
// a - floor(a/b)*b, one float32 operation at a time.
func cpuF32Mod(a, b int32, floor bool) int32 {
	x, y := float32(a), float32(b)
	q := float64(x / y)
	if floor {
		q = math.Floor(q)
	} else {
		q = math.Trunc(q)
	}
	p := float32(q) * y
	return cpuToI32(x - p)
}

// cpuToI32 is vcvtps2dq: nearest even, and -2^31 for a value beyond the
// i32 range or a NaN.
func cpuToI32(f float32) int32 {
	r := math.RoundToEven(float64(f))
	if math.IsNaN(r) || r < math.MinInt32 || r > math.MaxInt32 {
		return math.MinInt32
	}
	return int32(r)
}
