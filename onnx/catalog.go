package onnx

import (
	"maps"
	"slices"
)

// ImportedOps lists the ONNX ops of the default domain that the import
// maps onto OpenVINO ops, sorted; any other op stays an opaque layer.
func ImportedOps() []string {
	return slices.Sorted(maps.Keys(converters))
}
