package ir_test

import (
	"fmt"

	"github.com/irdiv/irdiv/ir"
)

// Reading an IR model and looking at its layers and constant weights.
func ExampleReadFile() {
	m, err := ir.ReadFile("../examples/floordiv/model.xml", ir.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Name, "IR version", m.Version)
	for _, l := range m.Layers {
		fmt.Printf("%d %s %s %v\n", l.ID, l.Type, l.Name, l.Data)
	}
	b := m.LayerByID(1)
	fmt.Println("divisor:", ir.View[int32](b.Constant))
	// Output:
	// floordiv IR version 11
	// 0 Parameter a [{shape ?,4} {element_type i32}]
	// 1 Const b [{element_type i32} {shape 4} {offset 0} {size 16}]
	// 2 Divide div [{auto_broadcast numpy} {m_pythondiv true}]
	// 3 Result q []
	// divisor: [3 -3 4 -7]
}
