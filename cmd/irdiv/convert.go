package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate"
)

const convertHelp = `MODEL.onnx [-o OUT.xml]

Converts a whole ONNX model into IR v11 (.xml and .bin), op by op as
OpenVINO's ONNX frontend does, but faithfully for Div: ONNX's Div
truncates integers, so its Divides get m_pythondiv="false" (OpenVINO's
frontend writes "true", which floors); Div-1 and Div-6 keep their legacy
broadcast rule, checked first. docs/ops.md lists the ops it maps; ops
irdiv only types are written as OpenVINO's (HardSigmoid-1, NonZero-3,
TopK-11, ROIAlign, ScatterElementsUpdate, GatherND-8, NonMaxSuppression-9...).
A model holding an op of no OpenVINO opset is refused, as OpenVINO's reader
would refuse the IR. Dynamic dims are written <dim>-1</dim>, and a port of
dynamic rank without dims, as OpenVINO's serializer writes them.

A Resize whose scales are constants and give an output length OpenVINO's
Interpolate computes otherwise than ONNX is refused; one whose scales are
computed when the model runs is written as an Interpolate, and convert
says on stderr where OpenVINO's output may then be one element longer
than ONNX's (validate's onnx/resize-length, a warning; a note where it
is so on axes of 65536 elements or more only).`

func convertCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("convert", convertHelp, stdout)
	outPath := fs.String("o", "", "the IR to write, `OUT.xml` and OUT.bin (default: MODEL.xml beside MODEL.onnx)")
	maxTensor := byteSize(defaultMaxTensor)
	fs.Var(&maxTensor, "max-tensor", "largest `SIZE` of a tensor read from the model or its external data")
	var maxMemory memorySize
	maxMemory.register(fs, false, true)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one MODEL.onnx, got %d arguments", len(pos))
	}
	if !isONNX(pos[0]) {
		return usageErr("%s: want an .onnx model", pos[0])
	}
	defer watchMemory("convert", maxMemory.whole(int64(maxTensor)))()
	defer processing(pos[0])()
	m, err := onnx.ReadFile(pos[0], onnx.ReadOptions{MaxTensorBytes: int64(maxTensor)})
	if err != nil {
		return err
	}
	if err := checkOutputNames(m); err != nil {
		return err
	}
	model, err := onnx.Convert(m)
	if err != nil {
		return err
	}
	if err := openvinoOpsOnly(model); err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if err := readsBack(model); err != nil {
		return fmt.Errorf("%s: irdiv would write an IR it cannot read back, so it writes none: %w", pos[0], err)
	}
	out := *outPath
	if out == "" {
		out = strings.TrimSuffix(pos[0], filepath.Ext(pos[0])) + ".xml"
	}
	bin := strings.TrimSuffix(out, filepath.Ext(out)) + ".bin"
	inputs := append(inputFiles{pos[0]}, m.DataFiles...)
	for _, path := range []string{out, bin} {
		if err := inputs.checkOutput("-o "+out, path); err != nil {
			return err
		}
	}
	if err := ir.Write(model, out, bin); err != nil {
		return err
	}
	divides := 0
	for _, l := range model.Layers {
		if l.Type == "Divide" {
			divides++
		}
	}
	fmt.Fprintf(stdout, "wrote %s and %s: %d layers, %d Divide (opset %d, Div-%d)\n", out, bin, len(model.Layers), divides, m.Opset, onnx.DivVersion(m.Opset))
	for _, f := range validate.ResizeLengths(model) {
		fmt.Fprintf(stderr, "irdiv: convert: %s %s: %s: %s\n", f.Severity, f.Code, f.Layer, oneLine(f.Message))
	}
	return nil
}

// readsBack checks that the IR convert would write for model reads back
// as irdiv info reads it (the reader's default caps, the small constants)
// and infers as model does: convert writes nothing that irdiv cannot
// read. An IR past a cap of the reader (more than its 256Ki layers, from
// an ONNX model of more nodes than that) is refused here, as is any other
// way the import and the reader might part; a model whose inference
// fails anyway (a Mod of constants by zero) is written as it is.
func readsBack(model *ir.Model) error {
	x, bin, err := ir.Encode(model)
	if err != nil {
		return err
	}
	back, err := ir.ReadBytes(x, bin, ir.ReadOptions{MaxConstBytes: infoConstBytes})
	if err != nil {
		return err
	}
	if _, err := ops.InferModel(back); err != nil {
		if _, inMemory := ops.InferModel(model); inMemory == nil {
			return err
		}
	}
	return nil
}

// openvinoOpsOnly refuses a model holding a layer of no OpenVINO opset
// (version "opsetN"), bodies included: the ONNX ops that irdiv knows no
// OpenVINO counterpart for, or of another domain. OpenVINO's reader
// creates a layer only from its opsets (or an extension registered for
// it), and fails on any other version ("Cannot create Sin layer s id:3
// from unsupported opset: ai.onnx"), so convert writes no such IR. The
// error names the first such layer and counts the op types.
func openvinoOpsOnly(m *ir.Model) error {
	var first *ir.Layer
	count := map[string]int{}
	var walk func(m *ir.Model)
	walk = func(m *ir.Model) {
		for _, l := range m.Layers {
			if n, err := strconv.Atoi(strings.TrimPrefix(l.Version, "opset")); !strings.HasPrefix(l.Version, "opset") || err != nil || n < 1 {
				if first == nil {
					first = l
				}
				count[l.Type+" ("+l.Version+")"]++
			}
			for _, e := range l.Extra {
				if e.Body != nil {
					walk(e.Body)
				}
			}
		}
	}
	walk(m)
	if first == nil {
		return nil
	}
	var types []string
	for _, t := range slices.Sorted(maps.Keys(count)) {
		types = append(types, fmt.Sprintf("%s x%d", t, count[t]))
	}
	why := ""
	if v, _ := first.DataAttr("antialias"); first.Type == "Resize" && v == "1" {
		why = " (antialias=1: OpenVINO's Interpolate ignores antialias in modes linear_onnx and cubic, and its mode linear filters otherwise at the borders, so no Interpolate computes ONNX's Resize)"
	} else if first.Type == "Resize" || first.Type == "Upsample" {
		why = resizeScalesWhy(m, first)
	}
	return fmt.Errorf("layer %q (id %d) is ONNX's %s, which irdiv does not write as an OpenVINO op%s; OpenVINO's reader accepts only the ops of its opsets, so irdiv writes no IR (layers of no opset: %s)",
		first.Name, first.ID, first.Type, why, strings.Join(types, ", "))
}

// resizeScalesWhy says why the faithful import kept Resize (or Upsample)
// l by constant scales of every axis, on an input of static dims, where
// OpenVINO's import writes an Interpolate: on some axis Interpolate's
// length (ops' shape inference, OpenVINO's floor(n x (scale + 1e-6)))
// is not ONNX's (onnx.ResizeLength), or the scale keeps the length and
// Interpolate then maps the axis to itself where ONNX divides by the
// scale. "" where neither is so.
func resizeScalesWhy(m *ir.Model, l *ir.Layer) string {
	if len(l.Inputs) == 0 || l.Inputs[0].DynamicRank {
		return ""
	}
	x := l.Inputs[0].Dims
	if slices.Contains(x, -1) {
		return ""
	}
	// Kept for an attribute no Interpolate says: the scales are not why.
	coord, _ := l.DataAttr("coordinate_transformation_mode")
	exclude, _ := l.DataAttr("exclude_outside")
	policy, _ := l.DataAttr("keep_aspect_ratio_policy")
	if coord == "tf_crop_and_resize" || coord == "half_pixel_symmetric" || exclude != "" && exclude != "0" || policy != "" && policy != "stretch" {
		return ""
	}
	for k := 1; k < len(l.Inputs); k++ {
		src, ok := m.Input(l, k)
		c := src.Layer
		if !ok || c.Type != "Const" || c.Constant == nil || c.Constant.Type != ir.F32 || c.Constant.Len() != len(x) {
			continue
		}
		interp := &ops.Interpolate{Version: 11, Mode: "nearest", ShapeCalculationMode: "scales"}
		outs, err := interp.Infer([]ops.ValueInfo{{Type: ir.F32, Shape: shapeinfer.StaticShape(x...)}, {Type: ir.F32, Shape: shapeinfer.StaticShape(int64(len(x))), Value: c.Constant}})
		if err != nil {
			return ""
		}
		out, ok := outs[0].Shape.ToStatic()
		if !ok {
			return ""
		}
		for a, n := range x {
			scale := float32(c.Constant.Float64At(a))
			switch onnxLen := onnx.ResizeLength(n, scale); {
			case onnxLen != out[a]:
				return fmt.Sprintf(" (by scales: axis %d, %d x %v, is %d long in ONNX and %d in the Interpolate OpenVINO's import writes, whose length is floor(n x (scale + 1e-6)))", a, n, scale, onnxLen, out[a])
			case out[a] == n && scale != 1 && coord != "align_corners":
				return fmt.Sprintf(" (by scales: %v keeps axis %d %d long, and an Interpolate then maps it to itself, where ONNX divides its coordinates by the scale)", scale, a, n)
			}
		}
	}
	return ""
}

// checkOutputNames refuses graph outputs that the IR cannot name apart:
// an IR has one Result per graph output, named after it, and a Result
// of the same name as another Result or as a Parameter is an IR in
// which OpenVINO cannot tell which output is which (two outputs "z", or
// an output "x" that is the input "x" passed through).
func checkOutputNames(m *onnx.Model) error {
	inputs := make(map[string]bool, len(m.Graph.Inputs))
	for _, in := range m.Graph.Inputs {
		inputs[in.Name] = true
	}
	seen := make(map[string]int, len(m.Graph.Outputs))
	for i, out := range m.Graph.Outputs {
		if j, dup := seen[out.Name]; dup {
			return fmt.Errorf("%s: graph outputs %d and %d are both %q: the IR would hold two Results of one name; irdiv converts a graph whose outputs have names of their own", m.Path, j, i, out.Name)
		}
		seen[out.Name] = i
		if inputs[out.Name] {
			return fmt.Errorf("%s: graph output %d is graph input %q itself: the IR would hold a Parameter and a Result of one name; irdiv converts a graph whose outputs are computed by its nodes", m.Path, i, out.Name)
		}
	}
	return nil
}
