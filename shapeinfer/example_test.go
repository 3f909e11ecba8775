package shapeinfer_test

import (
	"fmt"

	"github.com/irdiv/irdiv/shapeinfer"
)

// Broadcasting the operands of an element-wise op as OpenVINO's shape
// inference does: numpy aligns the shapes on the right, and a dimension
// known only as an interval stays one.
func ExampleElementwise() {
	a := shapeinfer.MustParseShape("[?,3,1..10]")
	b := shapeinfer.MustParseShape("[3,1]")
	out, err := shapeinfer.Elementwise(a, b, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	fmt.Println(out, err)

	_, err = shapeinfer.Elementwise(shapeinfer.StaticShape(2, 3), shapeinfer.StaticShape(4), shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	fmt.Println(err)
	// Output:
	// [?,3,1..10] <nil>
	// shapeinfer: Argument shapes are inconsistent. ([2,3] and [4], auto_broadcast numpy)
}

// Dimensions are closed intervals, printed and parsed in OpenVINO's
// notation.
func ExampleParseDim() {
	for _, s := range []string{"4", "?", "1..10", "..8", "6.."} {
		d, _ := shapeinfer.ParseDim(s)
		fmt.Printf("%-5s static=%-5v contains 7: %v\n", d, d.IsStatic(), d.Contains(7))
	}
	// Output:
	// 4     static=true  contains 7: false
	// ?     static=false contains 7: true
	// 1..10 static=false contains 7: true
	// ..8   static=false contains 7: true
	// 6..   static=false contains 7: true
}
