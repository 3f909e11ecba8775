package ops

import (
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

func TestFakeQuantizeInfer(t *testing.T) {
	l := &ir.Layer{Type: "FakeQuantize", Version: "opset1", Data: []ir.Attr{{Name: "levels", Value: "256"}}}
	op, err := New(l)
	if err != nil {
		t.Fatal(err)
	}
	scalar := ValueInfo{Type: ir.F32, Shape: shapeinfer.StaticShape()}
	perChannel := ValueInfo{Type: ir.F32, Shape: shapeinfer.MustParseShape("[1,16,1,1]")}
	out, err := op.Infer([]ValueInfo{{Type: ir.F32, Shape: shapeinfer.MustParseShape("[?,16,1..512,512]")}, perChannel, perChannel, scalar, scalar})
	if err != nil || out[0].Shape.String() != "[?,16,1..512,512]" || out[0].Type != ir.F32 {
		t.Errorf("%v %v", out, err)
	}
	if _, err := op.Infer([]ValueInfo{{Type: ir.F32, Shape: shapeinfer.StaticShape(2, 3)}, {Type: ir.F32, Shape: shapeinfer.StaticShape(4)}, scalar, scalar, scalar}); err == nil {
		t.Error("ranges that do not broadcast were accepted")
	}
	if _, err := Evaluate(op, nil, Options{}); err == nil {
		t.Error("FakeQuantize evaluated")
	}
}
