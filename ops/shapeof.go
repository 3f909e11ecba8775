package ops

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// ShapeOf is ShapeOf-1 (always i64) or ShapeOf-3 (OutputType i32 or i64).
type ShapeOf struct {
	Version    int
	OutputType ir.ElementType
}

func registerShapeOf() {
	register("ShapeOf", []int{1, 3}, func(l *ir.Layer, v int) (Op, error) {
		s := &ShapeOf{Version: v, OutputType: ir.I64}
		if v == 3 {
			t, err := attrs{l}.elementType("output_type", ir.I64)
			if err != nil {
				return nil, err
			}
			s.OutputType = t
		}
		return s, nil
	})
}

func (s *ShapeOf) OpType() (string, string) { return "ShapeOf", opset(s.Version) }

func (s *ShapeOf) Attrs() []ir.Attr {
	if s.Version == 3 {
		return []ir.Attr{attr("output_type", s.OutputType.String())}
	}
	return nil
}

func (s *ShapeOf) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	t := ir.I64
	if s.Version == 3 {
		if s.OutputType != ir.I32 && s.OutputType != ir.I64 {
			return nil, errorf("%w: Output type must be i32 or i64", ErrType)
		}
		t = s.OutputType
	}
	if rank, ok := rankOf(in[0].Shape); ok {
		return []ValueInfo{{Type: t, Shape: shapeinfer.StaticShape(int64(rank))}}, nil
	}
	return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
}

func (*ShapeOf) ignoresData(int) bool { return true }

func (s *ShapeOf) evaluate(in, out []*ir.Tensor, _ Options) error {
	for i, d := range in[0].Shape {
		out[0].SetInt64(i, d)
	}
	return nil
}

// foldShape computes the output of a ShapeOf whose input shape is static,
// whatever its data, as OpenVINO's constant folding does.
func (s *ShapeOf) foldShape(in []ValueInfo) []*ir.Tensor {
	dims, ok := in[0].Shape.ToStatic()
	if len(in) != 1 || !ok {
		return nil
	}
	out, err := s.Infer(in)
	if err != nil {
		return nil
	}
	t, err := ir.NewTensor(out[0].Type, []int64{int64(len(dims))})
	if err != nil {
		return nil
	}
	for i, d := range dims {
		t.SetInt64(i, d)
	}
	return []*ir.Tensor{t}
}
