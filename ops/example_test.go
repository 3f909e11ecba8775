package ops_test

import (
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Floor and truncating division of i32 tensors, and the error for a zero
// divisor naming the first offending output element.
func ExampleDivide() {
	a, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{-10, -10, 10, 10})
	b, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{-3, 3, -3, 3})

	floor, _ := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(a, b)
	trunc, _ := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, false).Evaluate(a, b)
	fmt.Println(ir.View[int32](floor), ir.View[int32](trunc))

	zero, _ := ir.TensorOf(ir.I32, []int64{2}, []int32{1, 0})
	_, err := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(zero, zero)
	fmt.Println(err, errors.Is(err, ops.ErrDivideByZero))
	// Output:
	// [3 -4 -4 3] [3 -3 -3 3]
	// ops: integer division by zero at flat output index 1 true
}
