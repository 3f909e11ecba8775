package ops

import (
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// FakeQuantize is FakeQuantize-1, which quantized models (NNCF, POT) put
// before convolutions: data and its input and output ranges, broadcast
// together (numpy by default); the output has the data's type and the
// broadcast shape. irdiv infers it and does not evaluate it.
type FakeQuantize struct {
	Levels    int64
	Broadcast shapeinfer.Broadcast
}

func registerFakeQuantize() {
	register("FakeQuantize", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		bc, err := a.broadcast(shapeinfer.Numpy)
		return &FakeQuantize{Levels: a.int("levels", 0), Broadcast: bc}, err
	}))
}

func (*FakeQuantize) OpType() (string, string) { return "FakeQuantize", "opset1" }

func (f *FakeQuantize) Attrs() []ir.Attr {
	return append([]ir.Attr{attr("levels", strconv.FormatInt(f.Levels, 10))}, broadcastAttrs(f.Broadcast)...)
}

// Infer merges the data's shape with each range's, as OpenVINO's
// fake_quantize shape inference does.
func (f *FakeQuantize) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 5, 5); err != nil {
		return nil, err
	}
	shape := in[0].Shape
	for _, r := range in[1:] {
		var err error
		if shape, err = shapeinfer.Elementwise(shape, r.Shape, f.Broadcast); err != nil {
			return nil, err
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
}
