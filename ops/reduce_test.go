package ops

import (
	"math"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// TestReduceEmptySet: OpenVINO's ReduceMax and ReduceMin of an empty set
// are the type's lowest and highest finite values
// (std::numeric_limits<T>::lowest() and max() in reduce_max.hpp and
// reduce_min.hpp), never an infinity, in every float type.
func TestReduceEmptySet(t *testing.T) {
	for _, tc := range []struct {
		kind string
		typ  ir.ElementType
		want float64
	}{
		{"ReduceMax", ir.F32, -math.MaxFloat32},
		{"ReduceMin", ir.F32, math.MaxFloat32},
		{"ReduceMax", ir.F64, -math.MaxFloat64},
		{"ReduceMin", ir.F16, 65504},
		{"ReduceMax", ir.F16, -65504},
		{"ReduceMin", ir.BF16, 3.3895313892515355e38},
		{"ReduceMax", ir.BF16, -3.3895313892515355e38},
		{"ReduceMax", ir.I8, -128},
		{"ReduceMin", ir.U16, 65535},
	} {
		x, err := ir.NewTensor(tc.typ, []int64{2, 0})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Evaluate(op(tc.kind, "opset1"), []*ir.Tensor{x, i64Tensor(t, []int64{1}, 1)}, Options{})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.kind, tc.typ, err)
		}
		for i := range out[0].Len() {
			if got := out[0].Float64At(i); got != tc.want {
				t.Errorf("%s %s: element %d is %g, want %g", tc.kind, tc.typ, i, got, tc.want)
			}
		}
	}
}
