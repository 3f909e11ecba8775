package ops

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The comparisons (a boolean output) and the logical ops (boolean inputs
// and output): binary element-wise ops, defined by binaryOp as the
// arithmetic ops are (binary.go).
type (
	// Equal is Equal-1: A == B, a boolean. A binary op, like Add.
	Equal = binaryOp[equal]

	// NotEqual is NotEqual-1: A != B, a boolean. A binary op, like Add.
	NotEqual = binaryOp[notEqual]

	// Less is Less-1: A < B, a boolean. A binary op, like Add.
	Less = binaryOp[less]

	// LessEqual is LessEqual-1: A <= B, a boolean. A binary op, like Add.
	LessEqual = binaryOp[lessEqual]

	// Greater is Greater-1: A > B, a boolean. A binary op, like Add.
	Greater = binaryOp[greater]

	// GreaterEqual is GreaterEqual-1: A >= B, a boolean. A binary op, like Add.
	GreaterEqual = binaryOp[greaterEqual]

	// LogicalAnd is LogicalAnd-1 on booleans. A binary op, like Add.
	LogicalAnd = binaryOp[logicalAnd]

	// LogicalOr is LogicalOr-1 on booleans. A binary op, like Add.
	LogicalOr = binaryOp[logicalOr]

	// LogicalXor is LogicalXor-1 on booleans. A binary op, like Add.
	LogicalXor = binaryOp[logicalXor]
)

// The kinds of the comparisons and logical ops.
type (
	equal        struct{}
	notEqual     struct{}
	less         struct{}
	lessEqual    struct{}
	greater      struct{}
	greaterEqual struct{}
	logicalAnd   struct{}
	logicalOr    struct{}
	logicalXor   struct{}
)

func (equal) def() *binaryDef        { return &equalDef }
func (notEqual) def() *binaryDef     { return &notEqualDef }
func (less) def() *binaryDef         { return &lessDef }
func (lessEqual) def() *binaryDef    { return &lessEqualDef }
func (greater) def() *binaryDef      { return &greaterDef }
func (greaterEqual) def() *binaryDef { return &greaterEqualDef }
func (logicalAnd) def() *binaryDef   { return &logicalAndDef }
func (logicalOr) def() *binaryDef    { return &logicalOrDef }
func (logicalXor) def() *binaryDef   { return &logicalXorDef }

// inferComparison is BinaryElementwiseComparison's: a boolean output.
func inferComparison(bc shapeinfer.Broadcast, in []ValueInfo) ([]ValueInfo, error) {
	_, shape, err := elementwiseArgs(bc, in)
	if err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: ir.Boolean, Shape: shape}}, nil
}

// inferLogical is BinaryElementwiseLogical's: boolean inputs and output.
func inferLogical(bc shapeinfer.Broadcast, in []ValueInfo) ([]ValueInfo, error) {
	t, shape, err := elementwiseArgs(bc, in)
	if err != nil {
		return nil, err
	}
	if t != ir.Dynamic && t != ir.Boolean {
		return nil, errorf("%w: Operands for logical operators must have boolean element type but have element type %s.", ErrType, t)
	}
	return []ValueInfo{{Type: ir.Boolean, Shape: shape}}, nil
}

// compare is the computation of a comparison: integers as intAt reads
// them (unsigned says to compare them as uint64), floats as float64 (every
// float widens exactly).
type compare struct {
	i func(a, b int64, unsigned bool) bool
	f func(a, b float64) bool
}

func evalCompare(bc shapeinfer.Broadcast, in, out []*ir.Tensor, f compare) error {
	a, b, dst := in[0], in[1], out[0]
	aDims, bDims := alignDims(bc, a.Shape, b.Shape, len(dst.Shape))
	t := a.Type
	walk(dst.Shape, [][]int64{aDims, bDims}, func(o int, idx []int) {
		var r bool
		if t.IsFloat() {
			r = f.f(a.Float64At(idx[0]), b.Float64At(idx[1]))
		} else {
			r = f.i(intAt(a, idx[0]), intAt(b, idx[1]), isU64(t))
		}
		dst.Data[o] = b2u(r)
	})
	return nil
}

func evalLogical(bc shapeinfer.Broadcast, in, out []*ir.Tensor, f func(a, b bool) bool) error {
	a, b, dst := in[0], in[1], out[0]
	aDims, bDims := alignDims(bc, a.Shape, b.Shape, len(dst.Shape))
	walk(dst.Shape, [][]int64{aDims, bDims}, func(o int, idx []int) {
		dst.Data[o] = b2u(f(a.Data[idx[0]] != 0, b.Data[idx[1]] != 0))
	})
	return nil
}

func ordered(a, b int64, unsigned bool) int {
	switch {
	case a == b:
		return 0
	case unsigned && uint64(a) < uint64(b), !unsigned && a < b:
		return -1
	}
	return 1
}

var (
	equalDef = binaryDef{name: "Equal", compare: &compare{
		i: func(a, b int64, _ bool) bool { return a == b },
		f: func(a, b float64) bool { return a == b },
	}}
	notEqualDef = binaryDef{name: "NotEqual", compare: &compare{
		i: func(a, b int64, _ bool) bool { return a != b },
		f: func(a, b float64) bool { return a != b },
	}}
	lessDef = binaryDef{name: "Less", compare: &compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) < 0 },
		f: func(a, b float64) bool { return a < b },
	}}
	lessEqualDef = binaryDef{name: "LessEqual", compare: &compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) <= 0 },
		f: func(a, b float64) bool { return a <= b },
	}}
	greaterDef = binaryDef{name: "Greater", compare: &compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) > 0 },
		f: func(a, b float64) bool { return a > b },
	}}
	greaterEqualDef = binaryDef{name: "GreaterEqual", compare: &compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) >= 0 },
		f: func(a, b float64) bool { return a >= b },
	}}
	logicalAndDef = binaryDef{name: "LogicalAnd", logical: func(a, b bool) bool { return a && b }}
	logicalOrDef  = binaryDef{name: "LogicalOr", logical: func(a, b bool) bool { return a || b }}
	logicalXorDef = binaryDef{name: "LogicalXor", logical: func(a, b bool) bool { return a != b }}
)

// Select is Select-1: cond ? then : else, element-wise with broadcasting
// (numpy by default).
type Select struct{ Broadcast shapeinfer.Broadcast }

// AutoBroadcast returns the op's auto_broadcast (Broadcaster).
func (s *Select) AutoBroadcast() shapeinfer.Broadcast { return s.Broadcast }

// registerSelect registers Select, with its auto_broadcast (numpy by
// default).
func registerSelect() {
	register("Select", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		bc, err := attrs{l}.broadcast(shapeinfer.Numpy)
		return &Select{bc}, err
	}))
}

// Select

func (*Select) OpType() (string, string) { return "Select", "opset1" }
func (s *Select) Attrs() []ir.Attr       { return broadcastAttrs(s.Broadcast) }

func (s *Select) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	if t := in[0].Type; t != ir.Dynamic && t != ir.Boolean {
		return nil, errorf("%w: Argument 0 must have boolean element type (element type: %s).", ErrType, t)
	}
	t, ok := mergeTypes(in[1].Type, in[2].Type)
	if !ok {
		return nil, errorf("%w: Argument 1 and 2 element types must match.", ErrType)
	}
	var shape shapeinfer.Shape
	var err error
	if s.Broadcast.Mode == shapeinfer.PDPD {
		if shape, err = shapeinfer.Elementwise(in[1].Shape, in[2].Shape, s.Broadcast); err != nil {
			return nil, errorf("%w: 'Else' tensor shape is not broadcastable.", ErrShape)
		}
	} else if shape, err = shapeinfer.Elementwise(in[2].Shape, in[1].Shape, s.Broadcast); err != nil {
		return nil, err
	}
	if shape, err = shapeinfer.Elementwise(shape, in[0].Shape, s.Broadcast); err != nil {
		if s.Broadcast.Mode == shapeinfer.None {
			return nil, err
		}
		return nil, errorf("%w: 'Cond' tensor shape is not broadcastable.", ErrShape)
	}
	return []ValueInfo{{Type: t, Shape: shape}}, nil
}

func (s *Select) evaluate(in, out []*ir.Tensor, _ Options) error {
	dst := out[0]
	rank := len(dst.Shape)
	align := func(dims []int64) []int64 {
		if s.Broadcast.Mode == shapeinfer.PDPD {
			axis := shapeinfer.PDPDAxis(rank, len(dims), s.Broadcast.Axis)
			return append(append(ones(axis), dims...), ones(rank-axis-len(dims))...)
		}
		return append(ones(rank-len(dims)), dims...)
	}
	size := dst.Type.Size()
	walk(dst.Shape, [][]int64{align(in[0].Shape), align(in[1].Shape), align(in[2].Shape)}, func(o int, idx []int) {
		if in[0].Data[idx[0]] != 0 {
			copyElems(dst, o, in[1], idx[1], 1, size)
		} else {
			copyElems(dst, o, in[2], idx[2], 1, size)
		}
	})
	return nil
}
