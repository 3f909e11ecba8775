package ops

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers MatMul and does not evaluate it (Evaluate gives
// ErrUnsupportedOp).

// MatMul is MatMul-1 with TransposeA and TransposeB; 1D operands are
// promoted to matrices and their dimension removed again, batch
// dimensions broadcast as numpy does.
type MatMul struct{ TransposeA, TransposeB bool }

func registerMatMul() {
	register("MatMul", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		return &MatMul{TransposeA: a.bool("transpose_a", false), TransposeB: a.bool("transpose_b", false)}, nil
	}))
}

func (*MatMul) OpType() (string, string) { return "MatMul", "opset1" }

func (m *MatMul) Attrs() []ir.Attr {
	return []ir.Attr{attr("transpose_a", formatBool(m.TransposeA)), attr("transpose_b", formatBool(m.TransposeB))}
}

func (m *MatMul) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	t, ok := mergeTypes(in[0].Type, in[1].Type)
	if !ok {
		return nil, errorf("%w: Arguments do not have the same element type (arg0 element type: %s, arg1 element type: %s).", ErrType, in[0].Type, in[1].Type)
	}
	a, b := in[0].Shape, in[1].Shape
	if a.DynamicRank || b.DynamicRank {
		return []ValueInfo{{Type: t, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	if len(a.Dims) == 0 || len(b.Dims) == 0 {
		return nil, errorf("%w: Scalar input is not supported. Got: %s and %s", ErrShape, a, b)
	}
	ad, bd := slices.Clone(a.Dims), slices.Clone(b.Dims)
	aVec, bVec := len(ad) == 1, len(bd) == 1
	if aVec {
		ad = []shapeinfer.Dim{shapeinfer.Static(1), ad[0]}
	} else if m.TransposeA {
		ad[len(ad)-1], ad[len(ad)-2] = ad[len(ad)-2], ad[len(ad)-1]
	}
	if bVec {
		bd = []shapeinfer.Dim{bd[0], shapeinfer.Static(1)}
	} else if m.TransposeB {
		bd[len(bd)-1], bd[len(bd)-2] = bd[len(bd)-2], bd[len(bd)-1]
	}
	ka, kb := ad[len(ad)-1], bd[len(bd)-2]
	if _, ok := shapeinfer.Merge(ka, kb); !ok {
		return nil, errorf("%w: Incompatible MatMul matrix dimension. First input dimension=%s at COL_INDEX_DIM=%d doesn't match the second input dimension=%s at ROW_INDEX_DIM=%d", ErrShape, ka, len(ad)-1, kb, len(bd)-2)
	}
	batch, err := shapeinfer.Elementwise(shapeinfer.Shape{Dims: ad[:len(ad)-2]}, shapeinfer.Shape{Dims: bd[:len(bd)-2]}, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	if err != nil {
		return nil, errorf("%w: Incompatible MatMul batch dimension. Can't merge first input dimension with second input dimension (%s and %s)", ErrShape, a, b)
	}
	out := batch.Dims
	if !aVec {
		out = append(out, ad[len(ad)-2])
	}
	if !bVec {
		out = append(out, bd[len(bd)-1])
	}
	return []ValueInfo{{Type: t, Shape: shapeinfer.Shape{Dims: out}}}, nil
}
