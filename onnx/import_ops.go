package onnx

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// converter imports one node of the default domain as OpenVINO's ONNX
// frontend does, returning the tensors of its outputs in order; nil
// results with no error keep the node opaque.
type converter func(im *importer, n *Node) ([]tensor, error)

var converters map[string]converter

func init() {
	converters = map[string]converter{
		"Constant":              importConstant,
		"Identity":              passThrough,
		"Dropout":               importDropout,
		"Shape":                 importShape,
		"Size":                  importSize,
		"Gather":                importGather,
		"Slice":                 importSlice,
		"Concat":                importConcat,
		"Unsqueeze":             axesOp("Unsqueeze", true),
		"Squeeze":               axesOp("Squeeze", false),
		"Reshape":               importReshape,
		"Flatten":               importFlatten,
		"Cast":                  importCast,
		"CastLike":              importCastLike,
		"Add":                   binaryOp("Add"),
		"Sub":                   binaryOp("Subtract"),
		"Mul":                   binaryOp("Multiply"),
		"Div":                   importDiv,
		"Pow":                   importPow,
		"Equal":                 binaryOp("Equal"),
		"Less":                  binaryOp("Less"),
		"Greater":               binaryOp("Greater"),
		"LessOrEqual":           binaryOp("LessEqual"),
		"GreaterOrEqual":        binaryOp("GreaterEqual"),
		"And":                   binaryOp("LogicalAnd"),
		"Or":                    binaryOp("LogicalOr"),
		"Xor":                   binaryOp("LogicalXor"),
		"Mod":                   importMod,
		"Min":                   variadic("Minimum"),
		"Max":                   variadic("Maximum"),
		"Sum":                   variadic("Add"),
		"Where":                 importWhere,
		"Not":                   unary("LogicalNot", "opset1"),
		"Abs":                   unary("Abs", "opset1"),
		"Neg":                   unary("Negative", "opset1"),
		"Floor":                 unary("Floor", "opset1"),
		"Ceil":                  unary("Ceiling", "opset1"),
		"Sign":                  unary("Sign", "opset1"),
		"Relu":                  unary("Relu", "opset1"),
		"Sqrt":                  unary("Sqrt", "opset1"),
		"Exp":                   unary("Exp", "opset1"),
		"Log":                   unary("Log", "opset1"),
		"Sigmoid":               unary("Sigmoid", "opset1"),
		"Tanh":                  unary("Tanh", "opset1"),
		"Round":                 importRound,
		"Reciprocal":            importReciprocal,
		"Clip":                  importClip,
		"ConstantOfShape":       importConstantOfShape,
		"Range":                 importRange,
		"Expand":                importExpand,
		"Transpose":             importTranspose,
		"Tile":                  importTile,
		"Split":                 importSplit,
		"ReduceProd":            reduce("ReduceProd"),
		"ReduceSum":             reduce("ReduceSum"),
		"ReduceMin":             reduce("ReduceMin"),
		"ReduceMax":             reduce("ReduceMax"),
		"ReduceMean":            reduce("ReduceMean"),
		"ReduceL1":              composedReduce("Abs", ""),
		"ReduceL2":              composedReduce("Square", "Sqrt"),
		"ReduceLogSum":          composedReduce("", "Log"),
		"ReduceLogSumExp":       composedReduce("Exp", "Log"),
		"ReduceSumSquare":       composedReduce("Square", ""),
		"GlobalAveragePool":     globalPool("ReduceMean"),
		"GlobalMaxPool":         globalPool("ReduceMax"),
		"Conv":                  importConv,
		"ConvTranspose":         importConvTranspose,
		"MaxPool":               importMaxPool,
		"AveragePool":           importAvgPool,
		"MatMul":                importMatMul,
		"Gemm":                  importGemm,
		"BatchNormalization":    importBatchNorm,
		"InstanceNormalization": importInstanceNorm,
		"Softmax":               importSoftmax,
		"Resize":                importResize,
		"Upsample":              importResize,
		"Pad":                   importPad,
		"ArgMax":                importArgReduce,
		"ArgMin":                importArgReduce,
	}
}

// Attribute readers with ONNX's defaults.

func attrInt(n *Node, name string, def int64) int64 {
	if a := n.Attrs[name]; a != nil && a.Kind == "INT" {
		return a.Int
	}
	return def
}

func attrInts(n *Node, name string) ([]int64, bool) {
	if a := n.Attrs[name]; a != nil && a.Kind == "INTS" {
		return a.Ints, true
	}
	return nil, false
}

func attrFloat(n *Node, name string, def float64) float64 {
	if a := n.Attrs[name]; a != nil && a.Kind == "FLOAT" {
		return float64(a.Float)
	}
	return def
}

func attrString(n *Node, name, def string) string {
	if a := n.Attrs[name]; a != nil && a.Kind == "STRING" {
		return a.String
	}
	return def
}

func data(kv ...string) []ir.Attr {
	out := make([]ir.Attr, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ir.Attr{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

func bc(mode shapeinfer.Broadcast) []ir.Attr {
	out := data("auto_broadcast", mode.Mode.String())
	if mode.Mode == shapeinfer.PDPD {
		out = append(out, ir.Attr{Name: ops.AxisAttr, Value: strconv.FormatInt(mode.Axis, 10)})
	}
	return out
}

var numpy = shapeinfer.Broadcast{Mode: shapeinfer.Numpy}

// rank returns the static rank of a tensor, or -1.
func rank(t tensor) int {
	if t.info.Shape.DynamicRank {
		return -1
	}
	return len(t.info.Shape.Dims)
}

// constInts reads a known integer tensor (a Const or a folded value).
func constInts(t tensor) ([]int64, bool) {
	v := t.info.Value
	if v == nil || !v.Type.IsInteger() {
		return nil, false
	}
	out := make([]int64, v.Len())
	for i := range out {
		out[i] = int64(v.Float64At(i))
		if v.Type == ir.I64 {
			out[i] = ir.View[int64](v)[i]
		}
	}
	return out, true
}

// known reports whether ops has the OpenVINO op, so that a node is mapped
// only where irdiv can infer what it maps to.
func (im *importer) known(typ, opset string) bool {
	_, err := ops.New(&ir.Layer{Type: typ, Version: opset})
	return err == nil || !isUnsupported(err)
}

func first(im *importer, n *Node) (tensor, error) {
	t, ok := im.input(0)
	if !ok {
		return tensor{}, im.ruleErr("input 0 is missing")
	}
	return t, nil
}

func importConstant(im *importer, n *Node) ([]tensor, error) {
	t, err := constantValue(n)
	if err != nil {
		return nil, err
	}
	return []tensor{im.constant(nodeName(n), "", t)}, nil
}

// constantValue is the tensor of a Constant node.
func constantValue(n *Node) (*ir.Tensor, error) {
	for _, name := range sortedKeys(n.Attrs) {
		a := n.Attrs[name]
		switch name {
		case "value":
			if a.Tensor != nil {
				return a.Tensor, nil
			}
		case "value_float":
			return ir.TensorOf(ir.F32, []int64{}, []float32{a.Float})
		case "value_floats":
			return ir.TensorOf(ir.F32, []int64{int64(len(a.Floats))}, a.Floats)
		case "value_int":
			return ir.TensorOf(ir.I64, []int64{}, []int64{a.Int})
		case "value_ints":
			return ir.TensorOf(ir.I64, []int64{int64(len(a.Ints))}, a.Ints)
		}
	}
	return nil, errorf("%w: %s has no value irdiv reads (value, value_float(s), value_int(s))", ErrUnsupported, n)
}

func passThrough(im *importer, n *Node) ([]tensor, error) {
	t, err := first(im, n)
	return []tensor{t}, err
}

// importDropout imports Dropout in inference mode as the identity, with a
// mask of all true (opset 12 and later, as ONNX's reference computes it;
// before 12 the mask is kept opaque). In training mode (opset 12's third
// input) with a ratio above 0 its output is random: irdiv refuses it, as
// ONNX Runtime's tests exclude such cases; with a ratio of 0 it is the
// identity again. Where training_mode or the ratio is known only at run
// time, the identity goes through a guard that fails there, dividing by
// zero in a layer named for the reason, unless training_mode is false or
// the ratio 0.
func importDropout(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	wantMask := len(n.Outputs) > 1 && n.Outputs[1] != ""
	if im.opset < 12 {
		if wantMask {
			return nil, nil // keep the node (its rule types both outputs)
		}
		return []tensor{x}, nil
	}
	mode, haveMode := im.input(2)
	ratio, haveRatio := im.input(1)
	scalarValue := func(t tensor, what string) (float64, bool, error) {
		v := t.info.Value
		if v == nil {
			return 0, false, nil
		}
		if v.Len() != 1 {
			return 0, false, im.ruleErr("%s must hold one value, it has %d", what, v.Len())
		}
		return v.Float64At(0), true, nil
	}
	training, trainingKnown := 0.0, true
	if haveMode {
		if training, trainingKnown, err = scalarValue(mode, "training_mode"); err != nil {
			return nil, err
		}
	}
	rate, rateKnown := 0.5, true
	if haveRatio {
		if rate, rateKnown, err = scalarValue(ratio, "ratio"); err != nil {
			return nil, err
		}
	}
	var guard *tensor // 1 of x's type, computed only where Dropout is deterministic
	switch {
	case trainingKnown && training == 0, rateKnown && rate == 0:
	case trainingKnown && rateKnown:
		return nil, errorf("%w: %s: opset %d: Dropout in training mode with ratio %g drops elements at random; irdiv runs only deterministic models", ErrUnsupported, n, im.opset, rate)
	case !hasValues(x.info.Type) || !rateKnown && !hasValues(ratio.info.Type):
		// The guard needs constants of these types, which an op irdiv
		// does not know leaves unknown: keep the node.
		return nil, nil
	default:
		g, err := im.dropoutGuard(x, mode, ratio, trainingKnown, rateKnown)
		if err != nil {
			return nil, err
		}
		guard = &g
	}
	y := x
	if guard != nil {
		if y, err = im.one("Multiply", "opset1", "guarded", bc(numpy), x, *guard); err != nil {
			return nil, err
		}
	}
	if !wantMask {
		return []tensor{y}, nil
	}
	var one tensor
	if guard != nil {
		if one, err = im.one("Convert", "opset1", "true", data("destination_type", "boolean"), *guard); err != nil {
			return nil, err
		}
	} else {
		t, _ := ir.NewTensor(ir.Boolean, []int64{})
		t.Data[0] = 1
		one = im.constant(nodeName(n)+"/true", "", t)
	}
	shape, err := im.one("ShapeOf", "opset3", "shape", data("output_type", "i64"), x)
	if err != nil {
		return nil, err
	}
	mask, err := im.one("Broadcast", "opset3", "mask", data("mode", "numpy"), one, shape)
	return []tensor{y, mask}, err
}

// dropoutGuard is a scalar 1 of x's type when training_mode is false or
// the ratio is 0 at run time, and a division by zero otherwise (in a
// layer whose name says why), so that a random Dropout fails rather than
// passes its input on.
func (im *importer) dropoutGuard(x, mode, ratio tensor, trainingKnown, rateKnown bool) (tensor, error) {
	var safe []tensor
	if !trainingKnown {
		off, err := im.one("LogicalNot", "opset1", "not_training", nil, mode)
		if err != nil {
			return tensor{}, err
		}
		safe = append(safe, off)
	}
	if !rateKnown {
		z, _ := im.scalarOf("zero", ratio.info.Type, 0) // importDropout checked the type
		zero, err := im.one("Equal", "opset1", "ratio_zero", bc(numpy), ratio, z)
		if err != nil {
			return tensor{}, err
		}
		safe = append(safe, zero)
	}
	ok := safe[0]
	if len(safe) == 2 {
		var err error
		if ok, err = im.one("LogicalOr", "opset1", "deterministic", bc(numpy), safe[0], safe[1]); err != nil {
			return tensor{}, err
		}
	}
	ok, err := im.one("Reshape", "opset1", "deterministic_scalar", data("special_zero", "false"), ok, im.ints("scalar_shape", false))
	if err != nil {
		return tensor{}, err
	}
	divisor, err := im.one("Convert", "opset1", "divisor", data("destination_type", "i32"), ok)
	if err != nil {
		return tensor{}, err
	}
	one, _ := im.scalarOf("one", ir.I32, 1)
	g, err := im.one("Divide", "opset1", "random_in_training_mode_unless_ratio_is_0", data("auto_broadcast", "numpy", "m_pythondiv", im.helperPythonDiv()), one, divisor)
	if err != nil {
		return tensor{}, err
	}
	return im.one("Convert", "opset1", "guard", data("destination_type", x.info.Type.String()), g)
}

func importShape(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	shape, err := im.one("ShapeOf", "opset3", "", data("output_type", "i64"), x)
	if err != nil {
		return nil, err
	}
	start, end := attrInt(n, "start", 0), attrInt(n, "end", math.MaxInt64)
	if im.opset < 15 || start == 0 && end == math.MaxInt64 {
		return []tensor{shape}, nil
	}
	out, err := im.one("Slice", "opset8", "slice", nil, shape, im.ints("start", false, start), im.ints("end", false, end), im.ints("step", false, 1))
	return []tensor{out}, err
}

func importSize(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	shape, err := im.one("ShapeOf", "opset3", "shape", data("output_type", "i64"), x)
	if err != nil {
		return nil, err
	}
	out, err := im.one("ReduceProd", "opset1", "", data("keep_dims", "false"), shape, im.ints("axis", true, 0))
	return []tensor{out}, err
}

func importGather(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	idx, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Gather takes data and indices")
	}
	out, err := im.one("Gather", "opset8", "", data("batch_dims", "0"), x, idx, im.ints("axis", true, attrInt(n, "axis", 0)))
	return []tensor{out}, err
}

func importSlice(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	var starts, ends, axes, steps tensor
	haveAxes, haveSteps := false, false
	if im.opset < 10 {
		s, ok1 := attrInts(n, "starts")
		e, ok2 := attrInts(n, "ends")
		if !ok1 || !ok2 {
			return nil, im.ruleErr("Slice-1 needs the starts and ends attributes")
		}
		starts, ends = im.ints("starts", false, s...), im.ints("ends", false, e...)
		if a, ok := attrInts(n, "axes"); ok {
			axes, haveAxes = im.ints("axes", false, a...), true
		}
		ones := make([]int64, len(s))
		for i := range ones {
			ones[i] = 1
		}
		steps, haveSteps = im.ints("steps", false, ones...), true
	} else {
		var ok1, ok2 bool
		starts, ok1 = im.input(1)
		ends, ok2 = im.input(2)
		if !ok1 || !ok2 {
			return nil, im.ruleErr("Slice needs starts and ends")
		}
		axes, haveAxes = im.input(3)
		steps, haveSteps = im.input(4)
	}
	if !haveSteps {
		// OpenVINO broadcasts a 1 of starts' type to starts' shape.
		if !hasValues(starts.info.Type) {
			return nil, nil // starts of a type irdiv does not know: keep the node
		}
		shape, err := im.one("ShapeOf", "opset3", "steps_shape", data("output_type", "i64"), starts)
		if err != nil {
			return nil, err
		}
		one, _ := im.scalarOf("one", starts.info.Type, 1)
		if steps, err = im.one("Broadcast", "opset3", "steps", data("mode", "numpy"), one, shape); err != nil {
			return nil, err
		}
	}
	// An end of INT64_MAX with a negative step means "through the first
	// element": OpenVINO makes it INT64_MIN.
	if e, ok := constInts(ends); ok {
		if st, ok := constInts(steps); ok && len(st) == len(e) {
			fixed := slices.Clone(e)
			changed := false
			for i := range fixed {
				if fixed[i] == math.MaxInt64 && st[i] < 0 {
					fixed[i], changed = math.MinInt64, true
				}
			}
			if changed {
				ends = im.ints("ends", false, fixed...)
			}
		}
	}
	ins := []tensor{x, starts, ends, steps}
	if haveAxes {
		ins = append(ins, axes)
	}
	out, err := im.one("Slice", "opset8", "", nil, ins...)
	return []tensor{out}, err
}

func importConcat(im *importer, n *Node) ([]tensor, error) {
	var ins []tensor
	for i := range n.Inputs {
		if t, ok := im.input(i); ok {
			ins = append(ins, t)
		}
	}
	if _, ok := n.Attrs["axis"]; !ok {
		return nil, im.ruleErr("Concat needs the axis attribute")
	}
	out, err := im.one("Concat", "opset1", "", data("axis", strconv.FormatInt(attrInt(n, "axis", 0), 10)), ins...)
	return []tensor{out}, err
}

// axesOp imports Unsqueeze and Squeeze: axes from the attribute before
// opset 13, from the second input from 13.
func axesOp(typ string, required bool) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		x, err := first(im, n)
		if err != nil {
			return nil, err
		}
		ins := []tensor{x}
		if im.opset < 13 {
			if a, ok := attrInts(n, "axes"); ok && len(a) > 0 {
				ins = append(ins, im.ints("axes", false, a...))
			}
		} else if axes, ok := im.input(1); ok {
			ins = append(ins, axes)
		}
		if required && len(ins) == 1 {
			return nil, im.ruleErr("%s needs axes", n.OpType)
		}
		out, err := im.one(typ, "opset1", "", nil, ins...)
		return []tensor{out}, err
	}
}

func importReshape(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	shape, ok := im.input(1)
	// ONNX's 0 copies the input's dim unless allowzero=1 (opset 14), when
	// it is a dim of 0: OpenVINO's special_zero, as its frontend sets it.
	specialZero := strconv.FormatBool(im.opset < 14 || attrInt(n, "allowzero", 0) == 0)
	if im.opset < 5 {
		s, have := attrInts(n, "shape")
		if !have {
			return nil, im.ruleErr("Reshape-1 needs the shape attribute")
		}
		shape, ok = im.ints("shape", false, s...), true
	}
	if !ok {
		return nil, im.ruleErr("Reshape needs a shape")
	}
	out, err := im.one("Reshape", "opset1", "", data("special_zero", specialZero), x, shape)
	return []tensor{out}, err
}

func importFlatten(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	r := rank(x)
	axis := attrInt(n, "axis", 1)
	if r < 0 {
		if axis == 0 || axis == 1 {
			r = int(axis)
		} else {
			return nil, nil
		}
	}
	if axis < 0 {
		axis += int64(r)
	}
	if axis < 0 || axis > int64(r) {
		return nil, im.ruleErr("axis %d is outside [-%d, %d]", attrInt(n, "axis", 1), r, r)
	}
	var pattern tensor
	lead := x.info.Shape.Dims[:min(int(axis), len(x.info.Shape.Dims))]
	prod, static := int64(1), true
	for _, d := range lead {
		static = static && d.IsStatic()
		prod *= d.Min
	}
	switch {
	case axis == 0:
		pattern = im.ints("shape", false, 1, -1)
	case axis == 1:
		pattern = im.ints("shape", false, 0, -1)
	case static:
		pattern = im.ints("shape", false, prod, -1)
	default:
		shape, err := im.one("ShapeOf", "opset3", "shape", data("output_type", "i64"), x)
		if err != nil {
			return nil, err
		}
		leadDims, err := im.one("Slice", "opset8", "lead", nil, shape, im.ints("begin", false, 0), im.ints("end", false, axis), im.ints("step", false, 1))
		if err != nil {
			return nil, err
		}
		p, err := im.one("ReduceProd", "opset1", "prod", data("keep_dims", "true"), leadDims, im.ints("axis", true, 0))
		if err != nil {
			return nil, err
		}
		if pattern, err = im.one("Concat", "opset1", "pattern", data("axis", "0"), p, im.ints("rest", false, -1)); err != nil {
			return nil, err
		}
	}
	out, err := im.one("Reshape", "opset1", "", data("special_zero", "true"), x, pattern)
	return []tensor{out}, err
}

// castType is the element type of Cast's "to".
func castType(to int64) (ir.ElementType, bool) {
	t, ok := elementTypes[onnxType(to)]
	return t, ok
}

func importCast(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	t, ok := castType(attrInt(n, "to", 0))
	if !ok {
		return nil, nil
	}
	out, err := im.one("Convert", "opset1", "", data("destination_type", t.String()), x)
	return []tensor{out}, err
}

func importCastLike(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	like, ok := im.input(1)
	if err != nil || !ok || like.info.Type == ir.Dynamic {
		return nil, nil
	}
	out, err := im.one("Convert", "opset1", "", data("destination_type", like.info.Type.String()), x)
	return []tensor{out}, err
}

// binaryOp imports an element-wise op of two inputs: numpy broadcasting
// from opset 7, the legacy broadcast attribute before.
func binaryOp(typ string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		a, err := first(im, n)
		b, ok := im.input(1)
		if err != nil || !ok {
			return nil, im.ruleErr("%s takes 2 inputs", n.OpType)
		}
		mode := numpy
		if im.opset < 7 && n.Attrs["broadcast"] != nil {
			if mode, err = legacyBroadcast(n, a.info.Shape, b.info.Shape); err != nil {
				return nil, im.ruleErr("%v", err)
			}
		}
		out, err := im.one(typ, "opset1", "", bc(mode), a, b)
		return []tensor{out}, err
	}
}

// importPow imports Pow, whose exponent may have another type than its
// base from opset 12 (the result has the base's type), as OpenVINO's
// frontend does: an integer exponent, or a float one no wider than a
// float base, is converted to the base's type; otherwise (an integer base
// with a float exponent, or a narrower float base) the base is converted
// to the exponent's type and the power converted back.
func importPow(im *importer, n *Node) ([]tensor, error) {
	base, err := first(im, n)
	exp, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Pow takes 2 inputs")
	}
	bt, et := base.info.Type, exp.info.Type
	if bt == et || bt == ir.Dynamic || et == ir.Dynamic || im.opset < 7 && n.Attrs["broadcast"] != nil {
		return binaryOp("Power")(im, n)
	}
	if et.IsInteger() || bt.IsFloat() && bt.Bits() >= et.Bits() {
		if exp, err = im.one("Convert", "opset1", "exponent", data("destination_type", bt.String()), exp); err != nil {
			return nil, err
		}
		out, err := im.one("Power", "opset1", "", bc(numpy), base, exp)
		return []tensor{out}, err
	}
	if base, err = im.one("Convert", "opset1", "base", data("destination_type", et.String()), base); err != nil {
		return nil, err
	}
	p, err := im.one("Power", "opset1", "power", bc(numpy), base, exp)
	if err != nil {
		return nil, err
	}
	out, err := im.one("Convert", "opset1", "", data("destination_type", bt.String()), p)
	return []tensor{out}, err
}

func importDiv(im *importer, n *Node) ([]tensor, error) {
	version := DivVersion(im.opset)
	fail := func(format string, args ...any) ([]tensor, error) {
		return nil, errorf("%w: %s: opset %d, Div-%d: %s", ErrRule, n, im.opset, version, fmt.Sprintf(format, args...))
	}
	if len(n.Inputs) != 2 {
		return fail("Div takes 2 inputs, the node has %d", len(n.Inputs))
	}
	a, okA := im.input(0)
	b, okB := im.input(1)
	if !okA || !okB {
		return fail("Div takes A and B, the node leaves one out (an empty input name)")
	}
	if a.info.Type != ir.Dynamic && b.info.Type != ir.Dynamic {
		if a.info.Type != b.info.Type {
			return fail("A is %s and B is %s; Div takes one type T for both", DataTypeName(a.info.Type), DataTypeName(b.info.Type))
		}
		if !slices.Contains(divTypes[version], a.info.Type) {
			var names []string
			for _, t := range divTypes[version] {
				names = append(names, DataTypeName(t))
			}
			return fail("type %s is not allowed (T is one of %s)", DataTypeName(a.info.Type), strings.Join(names, ", "))
		}
	}
	d, err := divideFor(n, version, a.info, b.info)
	if err != nil {
		return fail("%v", err)
	}
	// OpenVINO floors every Div; ONNX truncates integers.
	d.PythonDiv = !(im.opts.Faithful && a.info.Type.IsInteger())
	out, err := im.one("Divide", "opset1", "", d.Attrs(), a, b)
	return []tensor{out}, err
}

func importMod(im *importer, n *Node) ([]tensor, error) {
	a, err := first(im, n)
	b, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Mod takes 2 inputs")
	}
	typ := "FloorMod"
	switch attrInt(n, "fmod", 0) {
	case 0:
		if a.info.Type.IsFloat() {
			return nil, im.ruleErr("If the input type is floating point, then `fmod` attribute must be set to 1.")
		}
	case 1:
		typ = "Mod"
	default:
		return nil, im.ruleErr("Unsupported value of 'fmod' attribute (should be: 0 or 1)")
	}
	out, err := im.one(typ, "opset1", "", bc(numpy), a, b)
	return []tensor{out}, err
}

// variadic imports Min, Max and Sum as a left fold of the binary op;
// before opset 8, Min and Max do not broadcast.
func variadic(typ string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		var ins []tensor
		for i := range n.Inputs {
			if t, ok := im.input(i); ok {
				ins = append(ins, t)
			}
		}
		if len(ins) == 0 {
			return nil, im.ruleErr("%s needs an input", n.OpType)
		}
		mode := numpy
		if im.opset < 8 {
			mode = shapeinfer.Broadcast{Mode: shapeinfer.None}
		}
		acc := ins[0]
		for i, t := range ins[1:] {
			suffix := ""
			if i < len(ins)-2 {
				suffix = strconv.Itoa(i)
			}
			var err error
			if acc, err = im.one(typ, "opset1", suffix, bc(mode), acc, t); err != nil {
				return nil, err
			}
		}
		return []tensor{acc}, nil
	}
}

func importWhere(im *importer, n *Node) ([]tensor, error) {
	c, err := first(im, n)
	x, ok1 := im.input(1)
	y, ok2 := im.input(2)
	if err != nil || !ok1 || !ok2 {
		return nil, im.ruleErr("Where takes 3 inputs")
	}
	out, err := im.one("Select", "opset1", "", data("auto_broadcast", "numpy"), c, x, y)
	return []tensor{out}, err
}

func unary(typ, opset string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		x, err := first(im, n)
		if err != nil {
			return nil, err
		}
		out, err := im.one(typ, opset, "", nil, x)
		return []tensor{out}, err
	}
}

// importReciprocal is 1 / x, as OpenVINO's frontend writes it.
func importReciprocal(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil || !x.info.Type.IsFloat() {
		return nil, err
	}
	one, _ := im.scalarOf("one", x.info.Type, 1) // a float type
	out, err := im.one("Divide", "opset1", "", data("auto_broadcast", "numpy", "m_pythondiv", "true"), one, x)
	return []tensor{out}, err
}

func importRound(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	out, err := im.one("Round", "opset5", "", data("mode", "half_to_even"), x)
	return []tensor{out}, err
}

// hasValues reports whether constants of t can be made: a numeric type
// or boolean. The type of a tensor an unknown op computes is dynamic,
// and a converter that needs a constant of its type keeps the node
// opaque.
func hasValues(t ir.ElementType) bool { return t.IsNumeric() || t == ir.Boolean }

// scalarOf makes a one-element constant of type t; ok is false for a type
// that has no values (hasValues), when nothing is added.
func (im *importer) scalarOf(suffix string, t ir.ElementType, v float64) (tensor, bool) {
	if !hasValues(t) {
		return tensor{}, false
	}
	s, _ := ir.NewTensor(t, []int64{})
	if t.IsFloat() {
		s.SetFloat64(0, v)
	} else {
		s.SetInt64(0, int64(v))
	}
	return im.constant(nodeName(im.node)+"/"+suffix, "", s), true
}

// limitOf makes a one-element constant of t's lowest (high false) or
// highest value, ONNX's defaults for Clip's omitted bounds
// (numeric_limits<T>::lowest() and max()). The integer limits are written
// exactly: through a float64, 2^63-1 becomes 2^63, which int64() turns
// into MIN on amd64, so Clip(x, min=0) with no max was all MIN. ok is
// false for a type without values (hasValues), when nothing is added.
func (im *importer) limitOf(suffix string, t ir.ElementType, high bool) (tensor, bool) {
	if !hasValues(t) {
		return tensor{}, false
	}
	s, _ := ir.NewTensor(t, []int64{})
	switch t {
	case ir.F16:
		s.SetFloat64(0, 65504)
	case ir.BF16:
		s.SetFloat64(0, float64(math.Float32frombits(0x7f7f0000)))
	case ir.F32:
		s.SetFloat64(0, math.MaxFloat32)
	case ir.F64:
		s.SetFloat64(0, math.MaxFloat64)
	default:
		// Integers: all ones is the highest unsigned value and -1 signed;
		// the signed limits drop or keep the top bit.
		bits := uint(t.Bits())
		v := uint64(1)<<bits - 1
		if bits == 64 {
			v = math.MaxUint64
		}
		if t.IsSigned() {
			v >>= 1 // MAX
			if !high {
				v = ^v // MIN, sign-extended
			}
		} else if !high {
			v = 0
		}
		s.SetInt64(0, int64(v))
		return im.constant(nodeName(im.node)+"/"+suffix, "", s), true
	}
	if !high && s.Type.IsFloat() {
		s.SetFloat64(0, -s.Float64At(0))
	}
	return im.constant(nodeName(im.node)+"/"+suffix, "", s), true
}

func importClip(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	if im.opset < 11 {
		out, err := im.one("Clamp", "opset1", "", data("min", formatFloat(attrFloat(n, "min", -math.MaxFloat64)), "max", formatFloat(attrFloat(n, "max", math.MaxFloat64))), x)
		return []tensor{out}, err
	}
	minT, ok := im.input(1)
	if !ok {
		if minT, ok = im.limitOf("min", x.info.Type, false); !ok {
			return nil, nil // of a type irdiv does not know: keep the node
		}
	}
	maxT, ok := im.input(2)
	if !ok {
		if maxT, ok = im.limitOf("max", x.info.Type, true); !ok {
			return nil, nil
		}
	}
	low, err := im.one("Maximum", "opset1", "max", bc(numpy), minT, x)
	if err != nil {
		return nil, err
	}
	out, err := im.one("Minimum", "opset1", "", bc(numpy), maxT, low)
	return []tensor{out}, err
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func importConstantOfShape(im *importer, n *Node) ([]tensor, error) {
	value, _ := ir.NewTensor(ir.F32, []int64{})
	if a := n.Attrs["value"]; a != nil && a.Tensor != nil {
		if a.Tensor.Len() != 1 {
			return nil, im.ruleErr("ConstantOfShape's value must hold one element, it has %d", a.Tensor.Len())
		}
		value = &ir.Tensor{Type: a.Tensor.Type, Shape: []int64{}, Data: a.Tensor.Data}
	}
	v := im.constant(nodeName(n)+"/value", "", value)
	shape, ok := im.input(0)
	if !ok {
		return []tensor{v}, nil
	}
	out, err := im.one("Broadcast", "opset3", "", data("mode", "numpy"), v, shape)
	return []tensor{out}, err
}

func importRange(im *importer, n *Node) ([]tensor, error) {
	var ins []tensor
	for i := range 3 {
		t, ok := im.input(i)
		if !ok {
			return nil, im.ruleErr("Range takes start, limit and delta")
		}
		if rank(t) == 1 {
			var err error
			if t, err = im.one("Squeeze", "opset1", "scalar"+strconv.Itoa(i), nil, t); err != nil {
				return nil, err
			}
		}
		// Checked here, not left to Range's inference: the faithful
		// conversion's length guard hides delta's rank when start or
		// limit has none, and the two ways then disagreed.
		if r := rank(t); r > 0 {
			return nil, im.ruleErr("Range's %s has rank %d; it must be a scalar", []string{"start", "limit", "delta"}[i], r)
		}
		ins = append(ins, t)
	}
	typ := ins[0].info.Type
	if !hasValues(typ) {
		return nil, nil // of a type irdiv does not know: keep the node
	}
	// OpenVINO's Range keeps the low 32 bits of its length (2^32 + 3
	// elements make 3), computed as ceil((limit - start) / delta) in
	// double precision; ONNX's Range has no such bound. A length of 2^32
	// or more, which only ONNX's i64, f32 and f64 reach and no tensor cap
	// admits (an f32 one holds 16 GiB), is refused: now when start, limit
	// and delta are known, and at run time otherwise, by a guard in the
	// faithful conversion (OpenVINO's import keeps OpenVINO's wrap).
	if n, ok := rangeLength(ins); ok && n >= 1<<32 {
		return nil, errorf("%w: %s: opset %d: Range of %.0f elements: OpenVINO's Range holds its length in 32 bits (it would make %d), and no tensor of that many elements is within the caps",
			ir.ErrLimit, im.node, im.opset, n, uint32(uint64(n)))
	} else if !ok && im.opts.Faithful && (typ == ir.I64 || typ == ir.F32 || typ == ir.F64) {
		var err error
		if ins[2], err = im.rangeGuard(ins[0], ins[1], ins[2]); err != nil {
			return nil, err
		}
	}
	out, err := im.one("Range", "opset4", "", data("output_type", typ.String()), ins...)
	return []tensor{out}, err
}

// rangeLength is the length of a Range whose start, limit and delta are
// known: ceil((limit - start) / delta) in double precision, as OpenVINO
// computes it, 0 when delta points away from limit.
func rangeLength(ins []tensor) (float64, bool) {
	var v [3]float64
	for i, t := range ins {
		if t.info.Value == nil || t.info.Value.Len() != 1 {
			return 0, false
		}
		v[i] = t.info.Value.Float64At(0)
	}
	q := (v[1] - v[0]) / v[2]
	if !(q > 0) { // NaN (0 / 0) too
		return 0, true
	}
	return math.Ceil(q), true
}

// rangeGuard is delta passed through a guard that fails at run time (an
// integer division by zero, in a layer named for the reason) when the
// Range's length, computed as rangeLength does, is 2^32 or more.
func (im *importer) rangeGuard(start, limit, delta tensor) (tensor, error) {
	var f [3]tensor
	for i, t := range []tensor{start, limit, delta} {
		var err error
		if f[i], err = im.one("Convert", "opset1", "length_f64_"+strconv.Itoa(i), data("destination_type", "f64"), t); err != nil {
			return tensor{}, err
		}
	}
	span, err := im.one("Subtract", "opset1", "length_span", bc(numpy), f[1], f[0])
	if err != nil {
		return tensor{}, err
	}
	q, err := im.one("Divide", "opset1", "length", data("auto_broadcast", "numpy", "m_pythondiv", "true"), span, f[2])
	if err != nil {
		return tensor{}, err
	}
	// ceil(q) >= 2^32 exactly when q > 2^32 - 1, an integer a double holds.
	most, _ := im.scalarOf("length_max", ir.F64, math.MaxUint32)
	past, err := im.one("Greater", "opset1", "length_past_32_bits", bc(numpy), q, most)
	if err != nil {
		return tensor{}, err
	}
	within, err := im.one("LogicalNot", "opset1", "length_within_32_bits", nil, past)
	if err != nil {
		return tensor{}, err
	}
	// Select rather than Convert of the boolean: validate follows Select,
	// so it knows the divisor is 0 or 1 and reports nothing of a guard
	// the model does not have.
	one, _ := im.scalarOf("length_one", ir.I32, 1)
	zero, _ := im.scalarOf("length_zero", ir.I32, 0)
	divisor, err := im.one("Select", "opset1", "length_divisor", data("auto_broadcast", "numpy"), within, one, zero)
	if err != nil {
		return tensor{}, err
	}
	g, err := im.one("Divide", "opset1", "length_of_2^32_or_more_past_every_cap", data("auto_broadcast", "numpy", "m_pythondiv", im.helperPythonDiv()), one, divisor)
	if err != nil {
		return tensor{}, err
	}
	if g, err = im.one("Convert", "opset1", "length_guard", data("destination_type", delta.info.Type.String()), g); err != nil {
		return tensor{}, err
	}
	return im.one("Multiply", "opset1", "guarded_delta", bc(numpy), delta, g)
}

// helperPythonDiv is the m_pythondiv of an integer Divide that the import
// builds itself, not from a Div, on operands whose signs never differ:
// "false" in the faithful conversion, whose integer Divides all truncate
// as ONNX's Div does, so that validate of the IR finds no flooring Divide
// there that the model does not have; OpenVINO's default "true" otherwise.
func (im *importer) helperPythonDiv() string {
	return strconv.FormatBool(!im.opts.Faithful)
}

func importExpand(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	shape, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Expand takes input and shape")
	}
	out, err := im.one("Broadcast", "opset3", "", data("mode", "bidirectional"), x, shape)
	return []tensor{out}, err
}

func importTranspose(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	perm, ok := attrInts(n, "perm")
	if !ok {
		r := rank(x)
		if r < 0 {
			return nil, nil
		}
		for i := r - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	out, err := im.one("Transpose", "opset1", "", nil, x, im.ints("perm", false, perm...))
	return []tensor{out}, err
}

func importTile(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	repeats, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Tile takes input and repeats")
	}
	if repeats.info.Type != ir.I64 {
		if repeats, err = im.one("Convert", "opset1", "repeats", data("destination_type", "i64"), repeats); err != nil {
			return nil, err
		}
	}
	out, err := im.one("Tile", "opset1", "", nil, x, repeats)
	return []tensor{out}, err
}

// importSplit imports Split: VariadicSplit for given lengths (which ONNX
// wants non-negative, where OpenVINO reads -1 as "the rest"), Split for
// equal parts. Split-18's num_outputs may not divide the axis: ONNX then
// makes parts of ceil(d/n) and a smaller last one, which OpenVINO's Split
// refuses, so those are a VariadicSplit of the lengths computed here, or
// from the shape at run time when the axis is not static.
func importSplit(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	axisValue := attrInt(n, "axis", 0)
	axis := im.ints("axis", true, axisValue)
	var lengths tensor
	haveLengths := false
	if im.opset < 13 {
		if s, ok := attrInts(n, "split"); ok {
			lengths, haveLengths = im.ints("lengths", false, s...), true
		}
	} else {
		lengths, haveLengths = im.input(1)
	}
	if haveLengths {
		if ls, ok := constInts(lengths); ok {
			if len(ls) != len(n.Outputs) {
				return nil, im.ruleErr("Mismatch between number of splits (%d) and outputs (%d)", len(ls), len(n.Outputs))
			}
			for i, l := range ls {
				if l < 0 {
					return nil, im.ruleErr("split length %d is %d; the lengths must not be negative", i, l)
				}
			}
		}
		return im.add("VariadicSplit", "opset1", "", nil, x, axis, lengths)
	}
	parts := int64(len(n.Outputs))
	uneven := false
	if im.opset >= 18 && n.Attrs["num_outputs"] != nil {
		// Checked before anything is sized by it.
		parts = attrInt(n, "num_outputs", 0)
		if parts < 1 {
			return nil, im.ruleErr("Attribute `num_outputs` value cannot be lower than 1")
		}
		if parts != int64(len(n.Outputs)) {
			return nil, im.ruleErr("num_outputs is %d and the node has %d outputs", parts, len(n.Outputs))
		}
		uneven = true
	}
	var dim shapeinfer.Dim
	static := false
	if r := rank(x); r >= 0 {
		if a, ok := normAxis(axisValue, r); ok {
			dim = x.info.Shape.Dims[a]
			static = dim.IsStatic()
		}
	}
	if !uneven || parts == 1 || static && dim.Min%parts == 0 {
		return im.add("Split", "opset1", "", data("num_splits", strconv.FormatInt(parts, 10)), x, axis)
	}
	if static {
		chunk := dim.Min/parts + 1
		last := dim.Min - chunk*(parts-1)
		if last < 0 {
			// ONNX has no answer; nor has OpenVINO, whose make_split
			// (src/frontends/onnx/frontend/src/utils/split.cpp) asks
			// VariadicSplit for n-1 parts of ceil and a last of d mod
			// ceil, lengths whose sum passes d, which VariadicSplit's
			// shape inference refuses.
			ov := chunk*(parts-1) + dim.Min%chunk
			return nil, im.ruleErr("num_outputs %d does not split a dim of %d: parts of %d leave %d for the last; OpenVINO's ONNX frontend refuses it too: "+
				"it makes a VariadicSplit of %d parts of %d and a last of %d (%d mod %d), which fails with \"Total length of splits: %d must match the length of the chosen axis: %d\"",
				parts, dim.Min, chunk, last, parts-1, chunk, dim.Min%chunk, dim.Min, chunk, ov, dim.Min)
		}
		ls := make([]int64, parts)
		for i := range ls {
			ls[i] = chunk
		}
		ls[parts-1] = last
		return im.add("VariadicSplit", "opset1", "", nil, x, axis, im.ints("lengths", false, ls...))
	}
	// lengths = [chunk] * (parts-1) ++ [d - chunk*(parts-1)], chunk =
	// ceil(d / parts), from d at run time (a negative last length fails
	// there, in VariadicSplit).
	shape, err := im.one("ShapeOf", "opset3", "shape", data("output_type", "i64"), x)
	if err != nil {
		return nil, err
	}
	d, err := im.one("Gather", "opset8", "dim", data("batch_dims", "0"), shape, im.ints("dim_index", false, axisValue), im.ints("dim_axis", true, 0))
	if err != nil {
		return nil, err
	}
	up, err := im.one("Add", "opset1", "dim_up", bc(numpy), d, im.ints("parts_less_one", false, parts-1))
	if err != nil {
		return nil, err
	}
	chunk, err := im.one("Divide", "opset1", "chunk", data("auto_broadcast", "numpy", "m_pythondiv", im.helperPythonDiv()), up, im.ints("parts", false, parts))
	if err != nil {
		return nil, err
	}
	head, err := im.one("Multiply", "opset1", "head", bc(numpy), chunk, im.ints("head_parts", false, parts-1))
	if err != nil {
		return nil, err
	}
	last, err := im.one("Subtract", "opset1", "last", bc(numpy), d, head)
	if err != nil {
		return nil, err
	}
	chunks, err := im.one("Broadcast", "opset3", "chunks", data("mode", "numpy"), chunk, im.ints("chunks_shape", false, parts-1))
	if err != nil {
		return nil, err
	}
	ls, err := im.one("Concat", "opset1", "lengths", data("axis", "0"), chunks, last)
	if err != nil {
		return nil, err
	}
	return im.add("VariadicSplit", "opset1", "", nil, x, axis, ls)
}

// reduce imports ReduceX: axes from the attribute, or from the input
// where the version takes it (ReduceSum from 13, the others from 18).
// Empty axes (an empty attribute, an absent input, or an input that is
// empty, however it arrives) reduce every axis, unless
// noop_with_empty_axes is set, when the node is the identity. OpenVINO's
// ReduceX reduces nothing for empty axes, so the import hands it every
// axis instead.
func reduce(typ string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		if !im.known(typ, "opset1") {
			return nil, nil
		}
		x, err := first(im, n)
		if err != nil {
			return nil, err
		}
		out, err := im.reduceNode(n, typ, "", x)
		return []tensor{out}, err
	}
}

// composedReduce imports ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp and ReduceSumSquare as ReduceSum between element-wise
// ops, as ONNX's function bodies define them: pre (Abs, Multiply by
// itself, Exp, or nothing) before, post (Sqrt, Log, or nothing) after.
// OpenVINO's frontend writes the same for the last three and
// ReduceL1-4 and ReduceL2-4, which irdiv does not have, for the first
// two.
func composedReduce(pre, post string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		x, err := first(im, n)
		if err != nil {
			return nil, err
		}
		switch pre {
		case "Square":
			x, err = im.one("Multiply", "opset1", "square", bc(numpy), x, x)
		case "Abs", "Exp":
			x, err = im.one(pre, "opset1", strings.ToLower(pre), nil, x)
		}
		if err != nil {
			return nil, err
		}
		suffix := ""
		if post != "" {
			suffix = "sum"
		}
		y, err := im.reduceNode(n, "ReduceSum", suffix, x)
		if err != nil || post == "" {
			return []tensor{y}, err
		}
		out, err := im.one(post, "opset1", "", nil, y)
		return []tensor{out}, err
	}
}

// reduceNode reduces x as the ReduceX node n asks (its axes, keepdims and
// noop_with_empty_axes) with OpenVINO's typ, in a layer named with suffix.
func (im *importer) reduceNode(n *Node, typ, suffix string, x tensor) (tensor, error) {
	axes, err := im.reductionAxes(n, x)
	if err != nil {
		return tensor{}, err
	}
	if axes == nil {
		return x, nil // noop_with_empty_axes
	}
	keep := data("keep_dims", strconv.FormatBool(attrInt(n, "keepdims", 1) != 0))
	if x.info.Type == ir.Boolean && (typ == "ReduceMax" || typ == "ReduceMin") {
		// ReduceMax and ReduceMin of booleans (opset 20) are reduced
		// as u8 and converted back, as OpenVINO's frontend does.
		u8, err := im.one("Convert", "opset1", "u8", data("destination_type", "u8"), x)
		if err != nil {
			return tensor{}, err
		}
		y, err := im.one(typ, "opset1", "reduce", keep, u8, *axes)
		if err != nil {
			return tensor{}, err
		}
		return im.one("Convert", "opset1", suffix, data("destination_type", "boolean"), y)
	}
	out, err := im.one(typ, "opset1", suffix, keep, x, *axes)
	if err != nil {
		return tensor{}, err
	}
	if (typ == "ReduceMax" || typ == "ReduceMin") && x.info.Type.IsFloat() {
		out, err = im.emptyReduction(x, out, typ == "ReduceMax")
	}
	return out, err
}

// reductionAxes returns the axes a ReduceX node reduces, or nil for the
// identity (noop_with_empty_axes with empty axes). Axes that arrive at run time with a length not known
// here become axes ++ range(rank)[:rank*(len(axes) == 0)], which is the
// axes when there are some and every axis when there are none.
func (im *importer) reductionAxes(n *Node, x tensor) (*tensor, error) {
	noop := attrInt(n, "noop_with_empty_axes", 0) != 0
	if im.opset < 18 && !(im.opset >= 13 && n.OpType == "ReduceSum") {
		if a, ok := attrInts(n, "axes"); ok && len(a) > 0 {
			t := im.ints("axes", false, a...)
			return &t, nil
		}
		return im.allAxes(x)
	}
	axes, have := im.input(1)
	if !have || isEmptyVector(axes) {
		if noop {
			return nil, nil
		}
		return im.allAxes(x)
	}
	length := axes.info.Shape
	if length.Rank() == 0 || length.Rank() == 1 && length.Dims[0].Min > 0 || noop {
		// Some axes for sure, or noop_with_empty_axes: OpenVINO's
		// ReduceX reduces nothing for empty axes.
		return &axes, nil
	}
	all, err := im.allAxes(x)
	if err != nil {
		return nil, err
	}
	var flat tensor
	if flat, err = im.one("Reshape", "opset1", "axes_flat", data("special_zero", "false"), axes, im.ints("axes_flat_shape", false, -1)); err != nil {
		return nil, err
	}
	if flat.info.Type != ir.I64 {
		if flat, err = im.one("Convert", "opset1", "axes_i64", data("destination_type", "i64"), flat); err != nil {
			return nil, err
		}
	}
	count, err := im.one("ShapeOf", "opset3", "axes_count", data("output_type", "i64"), flat)
	if err != nil {
		return nil, err
	}
	none, err := im.one("Equal", "opset1", "axes_empty", bc(numpy), count, im.ints("zero", false, 0))
	if err != nil {
		return nil, err
	}
	noneI, err := im.one("Convert", "opset1", "axes_empty_i64", data("destination_type", "i64"), none)
	if err != nil {
		return nil, err
	}
	r, err := im.one("ShapeOf", "opset3", "all_axes_count", data("output_type", "i64"), *all)
	if err != nil {
		return nil, err
	}
	take, err := im.one("Multiply", "opset1", "all_axes_taken", bc(numpy), noneI, r)
	if err != nil {
		return nil, err
	}
	extra, err := im.one("Slice", "opset8", "all_axes_slice", nil, *all, im.ints("zero_begin", false, 0), take, im.ints("one_step", false, 1))
	if err != nil {
		return nil, err
	}
	out, err := im.one("Concat", "opset1", "axes_or_all", data("axis", "0"), flat, extra)
	return &out, err
}

// isEmptyVector reports whether t is known to hold no element.
func isEmptyVector(t tensor) bool {
	if t.info.Value != nil {
		return t.info.Value.Len() == 0
	}
	s := t.info.Shape
	return !s.DynamicRank && slices.ContainsFunc(s.Dims, func(d shapeinfer.Dim) bool { return d.IsStatic() && d.Min == 0 })
}

// allAxes is range(rank(x)): a constant for a static rank, computed from
// the shape otherwise.
func (im *importer) allAxes(x tensor) (*tensor, error) {
	if r := rank(x); r >= 0 {
		all := make([]int64, r)
		for i := range all {
			all[i] = int64(i)
		}
		t := im.ints("axes", false, all...)
		return &t, nil
	}
	shape, err := im.one("ShapeOf", "opset3", "shape", data("output_type", "i64"), x)
	if err != nil {
		return nil, err
	}
	r, err := im.one("ShapeOf", "opset3", "rank", data("output_type", "i64"), shape)
	if err != nil {
		return nil, err
	}
	if r, err = im.one("Squeeze", "opset1", "rank_scalar", nil, r); err != nil {
		return nil, err
	}
	all, err := im.one("Range", "opset4", "all_axes", data("output_type", "i64"), im.ints("range_start", true, 0), r, im.ints("range_step", true, 1))
	return &all, err
}

// emptyReduction gives ONNX's ReduceMax (-inf) or ReduceMin (+inf) of an
// empty set of floats where OpenVINO's gives the lowest (highest) finite
// value. A reduced set is empty only where x has no element at all (or
// the output has none), so the output is replaced when x is empty.
func (im *importer) emptyReduction(x, y tensor, isMax bool) (tensor, error) {
	if !x.info.Shape.DynamicRank && !slices.ContainsFunc(x.info.Shape.Dims, func(d shapeinfer.Dim) bool { return d.Min == 0 }) {
		return y, nil // x has elements
	}
	shape, err := im.one("ShapeOf", "opset3", "data_shape", data("output_type", "i64"), x)
	if err != nil {
		return tensor{}, err
	}
	size, err := im.one("ReduceProd", "opset1", "data_size", data("keep_dims", "false"), shape, im.ints("data_size_axis", true, 0))
	if err != nil {
		return tensor{}, err
	}
	empty, err := im.one("Equal", "opset1", "data_empty", bc(numpy), size, im.ints("zero", true, 0))
	if err != nil {
		return tensor{}, err
	}
	inf := math.Inf(1)
	if isMax {
		inf = math.Inf(-1)
	}
	infinity, _ := im.scalarOf("infinity", y.info.Type, inf) // a float type
	return im.one("Select", "opset1", "empty_set", data("auto_broadcast", "numpy"), empty, infinity, y)
}

func globalPool(typ string) converter {
	return func(im *importer, n *Node) ([]tensor, error) {
		x, err := first(im, n)
		if err != nil {
			return nil, err
		}
		r := rank(x)
		if r < 2 || !im.known(typ, "opset1") {
			return nil, nil
		}
		var axes []int64
		for i := 2; i < r; i++ {
			axes = append(axes, int64(i))
		}
		out, err := im.one(typ, "opset1", "", data("keep_dims", "true"), x, im.ints("axes", false, axes...))
		return []tensor{out}, err
	}
}
