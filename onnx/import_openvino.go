package onnx

import (
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// openvinoForm is how an ONNX node that irdiv keeps opaque (it infers no
// more than its output types and shapes) is written as the OpenVINO op
// that OpenVINO's ONNX frontend makes of it: its type and opset, its
// attributes as that op names them, its inputs (ONNX attributes that
// OpenVINO takes as inputs added as Consts), and the outputs the op has
// beyond ONNX's (NonMaxSuppression-9 has three where ONNX's has one).
type openvinoForm struct {
	typ, version string
	data         []ir.Attr
	ins          []tensor
	extra        []ops.ValueInfo
}

// openvinoForms map the ONNX ops irdiv keeps opaque to their OpenVINO
// counterparts, so that an IR convert writes holds only ops of OpenVINO's
// opsets, which OpenVINO's reader (and irdiv's) accepts; an op of no
// version="ai.onnx" opset exists there. Each returns false where the node
// does not fit the form (an input of unknown type for a Const of its
// type, a missing input): the node then stays of its ONNX type, which
// convert refuses to write.
var openvinoForms = map[string]func(im *importer, n *Node) (openvinoForm, bool){
	"HardSigmoid": func(im *importer, n *Node) (openvinoForm, bool) {
		x, ok := im.input(0)
		if !ok {
			return openvinoForm{}, false
		}
		alpha, ok1 := im.scalarOf("alpha", x.info.Type, attrFloat(n, "alpha", 0.2))
		beta, ok2 := im.scalarOf("beta", x.info.Type, attrFloat(n, "beta", 0.5))
		return openvinoForm{typ: "HardSigmoid", version: "opset1", ins: []tensor{x, alpha, beta}}, ok1 && ok2 && x.info.Type.IsFloat()
	},
	"HardSwish": sameInputs("HSwish", "opset4"),
	"Softplus":  sameInputs("SoftPlus", "opset4"),
	"Softsign":  sameInputs("SoftSign", "opset9"),
	"Mish":      sameInputs("Mish", "opset4"),
	"Erf":       sameInputs("Erf", "opset1"),
	"Sin":       sameInputs("Sin", "opset1"),
	"Cos":       sameInputs("Cos", "opset1"),
	"Tan":       sameInputs("Tan", "opset1"),
	"Asin":      sameInputs("Asin", "opset1"),
	"Acos":      sameInputs("Acos", "opset1"),
	"Atan":      sameInputs("Atan", "opset1"),
	"Sinh":      sameInputs("Sinh", "opset1"),
	"Cosh":      sameInputs("Cosh", "opset1"),
	"Asinh":     sameInputs("Asinh", "opset3"),
	"Acosh":     sameInputs("Acosh", "opset3"),
	"Atanh":     sameInputs("Atanh", "opset3"),
	"Elu": func(im *importer, n *Node) (openvinoForm, bool) {
		x, ok := im.input(0)
		return openvinoForm{typ: "Elu", version: "opset1", data: data("alpha", formatFloat32(attrFloat(n, "alpha", 1))), ins: []tensor{x}}, ok
	},
	"NonZero": func(im *importer, n *Node) (openvinoForm, bool) {
		x, ok := im.input(0)
		return openvinoForm{typ: "NonZero", version: "opset3", data: data("output_type", "i64"), ins: []tensor{x}}, ok
	},
	"TopK": func(im *importer, n *Node) (openvinoForm, bool) {
		x, ok := im.input(0)
		if !ok {
			return openvinoForm{}, false
		}
		// TopK-1 gives k as an attribute, TopK-10 and later as a
		// one-element input; OpenVINO's TopK takes a scalar.
		var k tensor
		if im.opset < 10 {
			k = im.ints("k", true, attrInt(n, "k", 0))
		} else if kIn, ok := im.input(1); !ok || rank(kIn) != 1 {
			return openvinoForm{}, false
		} else {
			var err error
			if k, err = im.one("Squeeze", "opset1", "k", nil, kIn); err != nil {
				return openvinoForm{}, false
			}
		}
		mode, sort := "max", "value"
		if attrInt(n, "largest", 1) == 0 {
			mode = "min"
		}
		if attrInt(n, "sorted", 1) == 0 {
			sort = "none"
		}
		// ONNX puts the lower index first among equal values: a stable
		// sort, which TopK-11 offers.
		return openvinoForm{typ: "TopK", version: "opset11", ins: []tensor{x, k},
			data: data("axis", strconv.FormatInt(attrInt(n, "axis", -1), 10), "mode", mode, "sort", sort, "index_element_type", "i64", "stable", "true")}, true
	},
	"ScatterElements": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 3)
		if !ok {
			return openvinoForm{}, false
		}
		ins = append(ins, im.ints("axis", true, attrInt(n, "axis", 0)))
		reduction := map[string]string{"add": "sum", "mul": "prod", "max": "max", "min": "min"}
		switch r := attrString(n, "reduction", "none"); {
		case r == "none":
			return openvinoForm{typ: "ScatterElementsUpdate", version: "opset3", ins: ins}, true
		case reduction[r] != "":
			// ONNX reduces into the data's values: use_init_val.
			return openvinoForm{typ: "ScatterElementsUpdate", version: "opset12", ins: ins,
				data: data("reduction", reduction[r], "use_init_val", "true")}, true
		}
		return openvinoForm{}, false
	},
	"RoiAlign": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 3)
		if !ok {
			return openvinoForm{}, false
		}
		attrs := data("pooled_h", strconv.FormatInt(attrInt(n, "output_height", 1), 10), "pooled_w", strconv.FormatInt(attrInt(n, "output_width", 1), 10),
			"sampling_ratio", strconv.FormatInt(attrInt(n, "sampling_ratio", 0), 10), "spatial_scale", formatFloat32(attrFloat(n, "spatial_scale", 1)),
			"mode", attrString(n, "mode", "avg"))
		// RoiAlign-10 has no half-pixel offset, as ROIAlign-3; RoiAlign-16
		// offsets by default, as ROIAlign-9's aligned_mode half_pixel.
		ctm := "output_half_pixel"
		if im.opset >= 16 {
			ctm = attrString(n, "coordinate_transformation_mode", "half_pixel")
		}
		switch ctm {
		case "output_half_pixel":
			return openvinoForm{typ: "ROIAlign", version: "opset3", ins: ins, data: attrs}, true
		case "half_pixel":
			return openvinoForm{typ: "ROIAlign", version: "opset9", ins: ins, data: append(attrs, ir.Attr{Name: "aligned_mode", Value: "half_pixel"})}, true
		}
		return openvinoForm{}, false
	},
	"GatherND": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 2)
		// GatherND-8 keeps the batch dims in its output, as ONNX's does
		// (GatherND-5 folds them into one).
		return openvinoForm{typ: "GatherND", version: "opset8", ins: ins, data: data("batch_dims", strconv.FormatInt(attrInt(n, "batch_dims", 0), 10))}, ok
	},
	"ScatterND": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 3)
		reduction := map[string]string{"add": "sum", "mul": "prod", "max": "max", "min": "min"}
		switch r := attrString(n, "reduction", "none"); {
		case r == "none":
			return openvinoForm{typ: "ScatterNDUpdate", version: "opset3", ins: ins}, ok
		case reduction[r] != "":
			return openvinoForm{typ: "ScatterNDUpdate", version: "opset15", ins: ins, data: data("reduction", reduction[r])}, ok
		}
		return openvinoForm{}, false
	},
	"GridSample": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 2)
		mode := attrString(n, "mode", "bilinear")
		// GridSample-20 renamed the modes bilinear and bicubic.
		if renamed, ok := map[string]string{"linear": "bilinear", "cubic": "bicubic"}[mode]; ok {
			mode = renamed
		}
		return openvinoForm{typ: "GridSample", version: "opset9", ins: ins,
			data: data("align_corners", strconv.FormatBool(attrInt(n, "align_corners", 0) != 0), "mode", mode, "padding_mode", attrString(n, "padding_mode", "zeros"))}, ok
	},
	"NonMaxSuppression": func(im *importer, n *Node) (openvinoForm, bool) {
		ins, ok := inputs(im, 2)
		if !ok {
			return openvinoForm{}, false
		}
		// The optional inputs are positional: one left out before one
		// given takes ONNX's default, 0.
		last := 1
		for i := 2; i < 5; i++ {
			if _, ok := im.input(i); ok {
				last = i
			}
		}
		for i := 2; i <= last; i++ {
			t, ok := im.input(i)
			if !ok {
				if i == 2 {
					t = im.ints("max_output_boxes_per_class", true, 0)
				} else {
					t, ok = im.scalarOf("threshold"+strconv.Itoa(i), ir.F32, 0)
					if !ok {
						return openvinoForm{}, false
					}
				}
			}
			ins = append(ins, t)
		}
		encoding := "corner"
		if attrInt(n, "center_point_box", 0) == 1 {
			encoding = "center"
		}
		// selected_indices, then the selected scores and the count of
		// valid outputs, which ONNX's op does not give.
		return openvinoForm{typ: "NonMaxSuppression", version: "opset9", ins: ins, extra: []ops.ValueInfo{
			{Type: ir.F32, Shape: dims(shapeinfer.Dynamic(), shapeinfer.Static(3))}, {Type: ir.I64, Shape: dims(shapeinfer.Static(1))}},
			data: data("box_encoding", encoding, "sort_result_descending", "false", "output_type", "i64")}, true
	},
}

// inputs returns the node's first count inputs, false when one is
// missing.
func inputs(im *importer, count int) ([]tensor, bool) {
	ins := make([]tensor, count)
	for i := range ins {
		t, ok := im.input(i)
		if !ok {
			return nil, false
		}
		ins[i] = t
	}
	return ins, true
}

// sameInputs is the form of an op that OpenVINO has under another name
// or opset, with the same inputs and no attributes.
func sameInputs(typ, version string) func(im *importer, n *Node) (openvinoForm, bool) {
	return func(im *importer, n *Node) (openvinoForm, bool) {
		x, ok := im.input(0)
		return openvinoForm{typ: typ, version: version, ins: []tensor{x}}, ok && len(n.Inputs) == 1
	}
}

// formatFloat32 writes a float32 attribute by its shortest decimal form.
func formatFloat32(f float64) string { return strconv.FormatFloat(f, 'g', -1, 32) }

// importArgReduce writes ArgMax and ArgMin as OpenVINO's frontend does: a
// TopK-11 of k = 1 (mode max or min, stable, so that the first of equal
// values wins, as ONNX's default select_last_index=0 says) whose index
// output, squeezed at the axis unless keepdims, is the result. It gives up
// (the node stays opaque, which convert refuses) on select_last_index=1
// or an input of unknown rank.
func importArgReduce(im *importer, n *Node) ([]tensor, error) {
	x, ok := im.input(0)
	out := argReduce(n, []tensor{x})
	if !ok || rank(x) < 0 || attrInt(n, "select_last_index", 0) != 0 || out == nil || out[0].Shape.DynamicRank {
		return nil, nil
	}
	axis, _ := normAxis(attrInt(n, "axis", 0), rank(x))
	mode := "max"
	if n.OpType == "ArgMin" {
		mode = "min"
	}
	k := im.ints("k", true, 1)
	kept := x.info.Shape
	kept.Dims = append([]shapeinfer.Dim(nil), kept.Dims...)
	kept.Dims[axis] = shapeinfer.Static(1)
	l := im.m.AddLayer("TopK", "opset11", "", data("axis", strconv.Itoa(axis), "mode", mode, "sort", "none", "index_element_type", "i64", "stable", "true"),
		[]ir.Output{x.out, k.out}, nil)
	keepdims := attrInt(n, "keepdims", 1) != 0
	name := nodeName(n) // the node's main layer is named after it
	if !keepdims {
		name += "/topk"
	}
	im.name(l, name)
	for i, t := range []ir.ElementType{x.info.Type, ir.I64} {
		l.Outputs = append(l.Outputs, &ir.Port{ID: uint64(2 + i), Type: t, Precision: t.Precision(), Dims: ir.PortDims(kept)})
	}
	indices := tensor{ir.Output{Layer: l, Index: 1}, ops.ValueInfo{Type: ir.I64, Shape: kept}}
	if keepdims {
		return []tensor{indices}, nil
	}
	squeezed, err := im.one("Squeeze", "opset1", "", nil, indices, im.ints("axis", false, int64(axis)))
	return []tensor{squeezed}, err
}
