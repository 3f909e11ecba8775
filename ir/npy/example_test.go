package npy_test

import (
	"bytes"
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
)

// A tensor goes to .npy and back, as NumPy's np.save and np.load see it.
func Example() {
	t, _ := ir.TensorOf(ir.I32, []int64{2, 2}, []int32{-7, 7, 3, -3})
	var buf bytes.Buffer
	if err := npy.Write(&buf, t); err != nil {
		fmt.Println(err)
		return
	}
	descr, _ := npy.Descr(t.Type)
	fmt.Println("dtype", descr, "bytes", buf.Len())

	back, err := npy.Read(&buf, 1<<20)
	fmt.Println(back.Type, back.Shape, ir.View[int32](back), err)
	// Output:
	// dtype <i4 bytes 144
	// i32 [2 2] [-7 7 3 -3] <nil>
}
