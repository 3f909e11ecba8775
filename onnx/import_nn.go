package onnx

import (
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
)

// The layers of neural networks that OpenVINO's frontend maps to ops
// whose output shapes irdiv infers: convolutions, pooling, matrix
// products, normalisation, resizing and padding. Where a node needs what
// irdiv does not know (a dynamic rank, weights that are not constant) it
// stays opaque.

// window holds the attributes of convolutions and pooling.
type window struct {
	strides, dilations, padsBegin, padsEnd []int64
	autoPad                                string
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// windowOf reads strides, dilations, pads and auto_pad for spatial axes.
func windowOf(n *Node, spatial int) (window, bool) {
	w := window{strides: ones(spatial), dilations: ones(spatial), padsBegin: make([]int64, spatial), padsEnd: make([]int64, spatial)}
	if s, ok := attrInts(n, "strides"); ok {
		if len(s) != spatial {
			return w, false
		}
		w.strides = s
	}
	if d, ok := attrInts(n, "dilations"); ok {
		if len(d) != spatial {
			return w, false
		}
		w.dilations = d
	}
	if p, ok := attrInts(n, "pads"); ok {
		switch len(p) {
		case 2 * spatial:
			w.padsBegin, w.padsEnd = p[:spatial], p[spatial:]
		case spatial:
			w.padsBegin, w.padsEnd = p, p
		default:
			return w, false
		}
	}
	switch strings.ToUpper(attrString(n, "auto_pad", "NOTSET")) {
	case "NOTSET", "":
		w.autoPad = "explicit"
	case "VALID":
		w.autoPad = "valid"
	case "SAME_UPPER":
		w.autoPad = "same_upper"
	case "SAME_LOWER":
		w.autoPad = "same_lower"
	default:
		return w, false
	}
	return w, true
}

func (w window) attrs(withDilations bool) []ir.Attr {
	out := data("strides", joinInts(w.strides))
	if withDilations {
		out = append(out, ir.Attr{Name: "dilations", Value: joinInts(w.dilations)})
	}
	return append(out, data("pads_begin", joinInts(w.padsBegin), "pads_end", joinInts(w.padsEnd), "auto_pad", w.autoPad)...)
}

// spatialRank is the number of spatial axes of a node reading x with
// weights w (absent for pooling).
func spatialRank(n *Node, x tensor, w *tensor) int {
	if k, ok := attrInts(n, "kernel_shape"); ok {
		return len(k)
	}
	if w != nil && rank(*w) > 2 {
		return rank(*w) - 2
	}
	if rank(x) > 2 {
		return rank(x) - 2
	}
	return -1
}

// groupWeights reshapes the weights of a grouped convolution to OpenVINO's
// layout by splitting the first axis into the groups: [G, O/G, ...] from
// ONNX's [O, I/G, ...], and for a transposed one [G, I/G, O/G, ...] from
// [I, O/G, ...]. The weights must have a static shape.
func (im *importer) groupWeights(w tensor, group int64) (tensor, bool) {
	dims, ok := w.info.Shape.ToStatic()
	if !ok || len(dims) < 3 || group < 1 || dims[0]%group != 0 {
		return tensor{}, false
	}
	shape := append([]int64{group, dims[0] / group}, dims[1:]...)
	out, err := im.one("Reshape", "opset1", "weights", data("special_zero", "false"), w, im.ints("weights_shape", false, shape...))
	return out, err == nil
}

// addBias adds a bias of one value per channel, reshaped to
// [1, C, 1, ...] as OpenVINO's frontend does.
func (im *importer) addBias(y tensor, bias tensor, r int) (tensor, error) {
	shape := ones(r)
	shape[1] = -1
	b, err := im.one("Reshape", "opset1", "bias", data("special_zero", "false"), bias, im.ints("bias_shape", false, shape...))
	if err != nil {
		return tensor{}, err
	}
	return im.one("Add", "opset1", "add_bias", data("auto_broadcast", "numpy"), y, b)
}

// convolution is what Conv and ConvTranspose share: X, W, the number of
// spatial axes and the window attributes.
type convolution struct {
	x, w    tensor
	spatial int
	win     window
}

// convolutionOf reads a convolution's operands; ok is false where the
// layer stays opaque (an unknown rank or attribute, or no OpenVINO op typ).
func convolutionOf(im *importer, n *Node, typ string) (c convolution, ok bool, err error) {
	x, err := first(im, n)
	w, have := im.input(1)
	if err != nil || !have {
		return c, false, im.ruleErr("%s takes X and W", n.OpType)
	}
	c = convolution{x: x, w: w}
	if c.spatial = spatialRank(n, x, &c.w); c.spatial < 1 {
		return c, false, nil // no spatial axis known (windowOf would size by -1)
	}
	c.win, ok = windowOf(n, c.spatial)
	return c, ok && im.known(typ, "opset1"), nil
}

// withBias adds a convolution's optional bias B to its output.
func (im *importer) withBias(y tensor, spatial int) ([]tensor, error) {
	if b, ok := im.input(2); ok {
		var err error
		if y, err = im.addBias(y, b, spatial+2); err != nil {
			return nil, err
		}
	}
	return []tensor{y}, nil
}

// groupOf reads the group attribute of Conv and ConvTranspose: the
// number of groups the channels split into, at least 1 (0 would divide
// the weights' first axis by zero).
func groupOf(im *importer, n *Node) (int64, error) {
	group := attrInt(n, "group", 1)
	if group < 1 {
		return 0, im.ruleErr("group is %d; the channels split into 1 group or more", group)
	}
	return group, nil
}

func importConv(im *importer, n *Node) ([]tensor, error) {
	group, err := groupOf(im, n)
	if err != nil {
		return nil, err
	}
	c, ok, err := convolutionOf(im, n, "Convolution")
	if !ok || err != nil {
		return nil, err
	}
	typ, w := "Convolution", c.w
	if group != 1 {
		if w, ok = im.groupWeights(w, group); !ok {
			return nil, nil
		}
		typ = "GroupConvolution"
	}
	y, err := im.one(typ, "opset1", "", c.win.attrs(true), c.x, w)
	if err != nil {
		return nil, err
	}
	return im.withBias(y, c.spatial)
}

func importConvTranspose(im *importer, n *Node) ([]tensor, error) {
	group, err := groupOf(im, n)
	if err != nil {
		return nil, err
	}
	c, ok, err := convolutionOf(im, n, "ConvolutionBackpropData")
	if !ok || err != nil {
		return nil, err
	}
	outPad, have := attrInts(n, "output_padding")
	if !have {
		outPad = make([]int64, c.spatial)
	}
	attrs := append(c.win.attrs(true), ir.Attr{Name: "output_padding", Value: joinInts(outPad)})
	ins := []tensor{c.x, c.w}
	if shape, ok := attrInts(n, "output_shape"); ok {
		if len(shape) > c.spatial {
			shape = shape[len(shape)-c.spatial:]
		}
		ins = append(ins, im.ints("output_shape", false, shape...))
	}
	typ := "ConvolutionBackpropData"
	if group != 1 {
		if ins[1], ok = im.groupWeights(c.w, group); !ok {
			return nil, nil
		}
		typ = "GroupConvolutionBackpropData"
	}
	y, err := im.one(typ, "opset1", "", attrs, ins...)
	if err != nil {
		return nil, err
	}
	return im.withBias(y, c.spatial)
}

// roundingType is ONNX's ceil_mode as an OpenVINO rounding_type. ONNX
// (its spec since opset 19's clarification, its reference and ONNX
// Runtime, as PyTorch) drops a last window that would start in the end
// padding: OpenVINO's ceil_torch (MaxPool-14, AvgPool-14), not its plain
// ceil, which keeps it. A model from ONNX is analysed and run with ONNX's
// dims; the pooling then needs opset14.
func roundingType(n *Node) string {
	if attrInt(n, "ceil_mode", 0) != 0 {
		return "ceil_torch"
	}
	return "floor"
}

// poolOpset is the opset of a pooling layer: 14 where ONNX's ceil_mode
// needs ceil_torch, else the one given.
func poolOpset(n *Node, opset string) string {
	if attrInt(n, "ceil_mode", 0) != 0 {
		return "opset14"
	}
	return opset
}

func importMaxPool(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	kernel, ok := attrInts(n, "kernel_shape")
	if !ok {
		return nil, im.ruleErr("MaxPool needs kernel_shape")
	}
	win, ok := windowOf(n, len(kernel))
	if !ok {
		return nil, nil
	}
	if im.opset < 8 {
		if !im.known("MaxPool", "opset1") {
			return nil, nil
		}
		// ceil_mode came with MaxPool-10: floor here.
		attrs := append(win.attrs(false), data("kernel", joinInts(kernel), "rounding_type", "floor")...)
		return im.add("MaxPool", "opset1", "", attrs, x)
	}
	if !im.known("MaxPool", poolOpset(n, "opset8")) {
		return nil, nil
	}
	attrs := append(win.attrs(true), data("kernel", joinInts(kernel), "rounding_type", roundingType(n), "index_element_type", "i64", "axis", "0")...)
	return im.add("MaxPool", poolOpset(n, "opset8"), "", attrs, x)
}

func importAvgPool(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	kernel, ok := attrInts(n, "kernel_shape")
	if !ok {
		return nil, im.ruleErr("AveragePool needs kernel_shape")
	}
	win, ok := windowOf(n, len(kernel))
	if !ok || !im.known("AvgPool", "opset1") {
		return nil, nil
	}
	exclude := strconv.FormatBool(attrInt(n, "count_include_pad", 0) == 0)
	attrs := append(win.attrs(false), data("kernel", joinInts(kernel), "exclude-pad", exclude, "rounding_type", roundingType(n))...)
	out, err := im.one("AvgPool", poolOpset(n, "opset1"), "", attrs, x)
	return []tensor{out}, err
}

func importMatMul(im *importer, n *Node) ([]tensor, error) {
	a, err := first(im, n)
	b, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("MatMul takes 2 inputs")
	}
	if !im.known("MatMul", "opset1") {
		return nil, nil
	}
	out, err := im.one("MatMul", "opset1", "", data("transpose_a", "false", "transpose_b", "false"), a, b)
	return []tensor{out}, err
}

func importGemm(im *importer, n *Node) ([]tensor, error) {
	a, err := first(im, n)
	b, ok := im.input(1)
	if err != nil || !ok {
		return nil, im.ruleErr("Gemm takes A and B")
	}
	if im.opset < 6 || !im.known("MatMul", "opset1") {
		return nil, nil
	}
	y, err := im.one("MatMul", "opset1", "", data(
		"transpose_a", strconv.FormatBool(attrInt(n, "transA", 0) != 0),
		"transpose_b", strconv.FormatBool(attrInt(n, "transB", 0) != 0)), a, b)
	if err != nil {
		return nil, err
	}
	if alpha := attrFloat(n, "alpha", 1); alpha != 1 {
		factor, ok := im.scalarOf("alpha_value", y.info.Type, alpha)
		if !ok {
			return nil, nil // of a type irdiv does not know: keep the node
		}
		if y, err = im.one("Multiply", "opset1", "alpha", bc(numpy), y, factor); err != nil {
			return nil, err
		}
	}
	if c, ok := im.input(2); ok {
		if beta := attrFloat(n, "beta", 1); beta != 1 {
			factor, ok := im.scalarOf("beta_value", c.info.Type, beta)
			if !ok {
				return nil, nil
			}
			if c, err = im.one("Multiply", "opset1", "beta", bc(numpy), c, factor); err != nil {
				return nil, err
			}
		}
		if y, err = im.one("Add", "opset1", "add_c", bc(numpy), y, c); err != nil {
			return nil, err
		}
	}
	return []tensor{y}, nil
}

func importBatchNorm(im *importer, n *Node) ([]tensor, error) {
	ins, err := im.required(5, "BatchNormalization takes X, scale, B, mean and var")
	if err != nil {
		return nil, err
	}
	for _, o := range n.Outputs[1:] {
		if o != "" {
			return nil, nil // training outputs: OpenVINO refuses them, keep the node
		}
	}
	if !im.known("BatchNormInference", "opset5") {
		return nil, nil
	}
	out, err := im.one("BatchNormInference", "opset5", "", data("epsilon", formatFloat(attrFloat(n, "epsilon", 1e-5))), ins...)
	return []tensor{out}, err
}

// required reads the first n inputs, each of which the op needs; why
// says which, for the error where one is absent.
func (im *importer) required(n int, why string) ([]tensor, error) {
	ins := make([]tensor, 0, n)
	for i := range n {
		t, ok := im.input(i)
		if !ok {
			return nil, im.ruleErr("%s", why)
		}
		ins = append(ins, t)
	}
	return ins, nil
}

func importSoftmax(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil {
		return nil, err
	}
	def := int64(1)
	if im.opset >= 13 {
		def = -1
	}
	if !im.known("Softmax", "opset8") {
		return nil, nil
	}
	out, err := im.one("Softmax", "opset8", "", data("axis", strconv.FormatInt(attrInt(n, "axis", def), 10)), x)
	return []tensor{out}, err
}

// importInstanceNorm maps InstanceNormalization (1 and 6) as OpenVINO's
// frontend does: MVN-6 over the spatial axes 2..rank-1, variance
// normalized, epsilon inside the square root, then Multiply by the scale
// and Add of the bias, both reshaped to [C, 1, ...] (rank-1 dims) to
// broadcast against [N, C, ...]. A data input of unknown rank keeps the
// node.
func importInstanceNorm(im *importer, n *Node) ([]tensor, error) {
	ins, err := im.required(3, "InstanceNormalization takes input, scale and B")
	if err != nil {
		return nil, err
	}
	x, scale, bias := ins[0], ins[1], ins[2]
	r := rank(x)
	if r < 2 || !im.known("MVN", "opset6") {
		return nil, nil
	}
	var axes []int64
	for a := 2; a < r; a++ {
		axes = append(axes, int64(a))
	}
	y, err := im.one("MVN", "opset6", "mvn", data("eps", formatFloat(attrFloat(n, "epsilon", 1e-5)), "eps_mode", "inside_sqrt", "normalize_variance", "true"),
		x, im.ints("axes", false, axes...))
	if err != nil {
		return nil, err
	}
	shape := ones(r - 1)
	shape[0] = -1
	s, err := im.one("Reshape", "opset1", "scale", data("special_zero", "false"), scale, im.ints("scale_shape", false, shape...))
	if err != nil {
		return nil, err
	}
	if y, err = im.one("Multiply", "opset1", "scale_mul", data("auto_broadcast", "numpy"), y, s); err != nil {
		return nil, err
	}
	b, err := im.one("Reshape", "opset1", "bias", data("special_zero", "false"), bias, im.ints("bias_shape", false, shape...))
	if err != nil {
		return nil, err
	}
	out, err := im.one("Add", "opset1", "", data("auto_broadcast", "numpy"), y, b)
	return []tensor{out}, err
}

// importResize maps Resize (and Upsample) to Interpolate-11 as OpenVINO's
// frontend does (src/frontends/onnx/frontend/src/op/resize.cpp and
// upsample.cpp): sizes when given (and not empty), else scales, over the
// axes of Resize-18's attribute or every axis; mode linear is linear_onnx,
// cubic_coeff_a cube_coeff, antialias antialias. Resize before opset 11
// maps coordinates asymmetric, nearest rounding simple; Upsample's nearest
// keeps Interpolate's defaults there (half_pixel, round_prefer_floor),
// which is not ONNX's floor for scales such as 1.2, so the faithful
// conversion writes Resize-10's. What Interpolate cannot say keeps the
// node (which convert then refuses): a coordinate_transformation_mode of
// no Interpolate (tf_crop_and_resize, half_pixel_symmetric),
// exclude_outside, a keep_aspect_ratio_policy other than stretch, and
// repeated axes. The faithful conversion also keeps a Resize with
// antialias (which convert then refuses, saying why): OpenVINO's
// reference ignores antialias in modes linear_onnx and cubic, and its
// own mode linear with antialias divides by the weights inside the input
// where ONNX repeats the edge element (TestInterpolateAgainstORT), so no
// Interpolate computes it; and one by scales that Interpolate gives
// another output length than ONNX, or whose axis it keeps and then maps
// to itself (scaledLengthsAgree); OpenVINO's import maps them all the
// same.
func importResize(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil || !im.known("Interpolate", "opset11") {
		return nil, err
	}
	if len(n.Outputs) > 1 {
		// Refused here rather than where the outputs are named, so that
		// both imports refuse it, the faithful one keeping no node.
		return nil, im.ruleErr("%s has one output, not %d", n.OpType, len(n.Outputs))
	}
	mode := map[string]string{"nearest": "nearest", "linear": "linear_onnx", "bilinear": "linear_onnx", "cubic": "cubic"}[strings.ToLower(attrString(n, "mode", "nearest"))]
	if mode == "" {
		return nil, nil
	}
	coord := attrString(n, "coordinate_transformation_mode", "half_pixel")
	nearest := attrString(n, "nearest_mode", "round_prefer_floor")
	antialias := attrInt(n, "antialias", 0) == 1 // OpenVINO's frontend reads 1 alone
	switch {
	case n.OpType == "Upsample" && mode == "nearest" && !im.opts.Faithful:
		coord, nearest = "half_pixel", "round_prefer_floor"
	case n.OpType == "Upsample" || im.opset < 11:
		coord, nearest = "asymmetric", "simple"
	default:
		switch coord {
		case "half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners":
		default:
			return nil, nil
		}
		if attrInt(n, "exclude_outside", 0) != 0 || attrString(n, "keep_aspect_ratio_policy", "stretch") != "stretch" || antialias && im.opts.Faithful {
			return nil, nil
		}
	}
	var target tensor
	calc := "scales"
	switch {
	case n.OpType == "Resize" && im.opset >= 11:
		if sizes, ok := im.input(3); ok && !(sizes.info.Shape.IsStatic() && len(sizes.info.Shape.Dims) == 1 && sizes.info.Shape.Dims[0].Max == 0) {
			target, calc = sizes, "sizes"
		} else if scales, ok := im.input(2); ok {
			target = scales
		} else {
			return nil, im.ruleErr("Resize needs scales or sizes")
		}
	default:
		scales, ok := im.input(1)
		if !ok {
			return nil, nil // Upsample-7's scales attribute: keep the node
		}
		target = scales
	}
	r := rank(x)
	if r < 0 {
		return nil, nil
	}
	axes, listed := attrInts(n, "axes")
	axes = slices.Clone(axes)
	if !listed || n.OpType != "Resize" {
		axes = make([]int64, r)
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	seen := make([]bool, r)
	for i, a := range axes {
		if a < -int64(r) || a >= int64(r) {
			return nil, im.ruleErr("Resize axis %d is out of range for rank %d", a, r)
		}
		if a < 0 {
			axes[i] = a + int64(r)
		}
		if seen[axes[i]] {
			return nil, nil // repeated axes: keep the node
		}
		seen[axes[i]] = true
	}
	attrs := data("mode", mode, "shape_calculation_mode", calc, "coordinate_transformation_mode", coord,
		"nearest_mode", nearest, "antialias", strconv.FormatBool(antialias), "pads_begin", joinInts(make([]int64, r)), "pads_end", joinInts(make([]int64, r)),
		"cube_coeff", formatFloat32(attrFloat(n, "cubic_coeff_a", -0.75)))
	out, err := im.one("Interpolate", "opset11", "", attrs, x, target, im.ints("axes", false, axes...))
	if err == nil && im.opts.Faithful && calc == "scales" && !scaledLengthsAgree(x, target, out, axes, coord) {
		return nil, nil
	}
	return []tensor{out}, err
}

// scaledLengthsAgree reports whether Interpolate computes what ONNX's
// Resize by scales does under coordinate_transformation_mode coord on the
// given axes. Both map coordinates with the given scale, and under
// align_corners and pytorch_half_pixel with the output's integer length
// (ONNX Runtime's upsample kernels pass output_width, OpenVINO's reference
// m_out_shape), whether the scales are constants or come at run time. They
// part in two places. The output's length: ONNX's is floor(in * scale),
// which ONNX Runtime computes in float32 (25 x 2.12 is 52.999996 there,
// so 52), where Interpolate's shape inference multiplies by scale + 1e-6
// (infer_using_scales: 53). And an axis whose length the scale leaves
// unchanged: Interpolate maps it to itself (GetOriginalCoordinate), where
// ONNX divides by the scale, so such an axis must have scale 1, but under
// align_corners, whose x*(in-1)/(in-1) is x anyway. Unknown dims or
// scales are taken to agree: both differences need lengths and scales
// that cannot be seen before the model runs. Where the scales are not
// constants, validate's onnx/resize-length says from what it knows of
// them whether the lengths may differ (validate.ResizeLengths), and irdiv
// convert prints it. (ONNX's own
// reference implementation, onnx.reference and the expected data of its
// node tests test_resize_downsample_scales_linear_align_corners and
// _cubic_align_corners, divides by in*scale - 1 under align_corners, a
// length of no tensor; ONNX Runtime skips those tests as a results
// mismatch and OpenVINO's marks them failing, xfail_issue_69444. irdiv
// follows ONNX Runtime and the operator's text, where length_resized is
// "the length of the resized tensor".)
func scaledLengthsAgree(x, scales, y tensor, axes []int64, coord string) bool {
	in, ok1 := x.info.Shape.ToStatic()
	out, ok2 := y.info.Shape.ToStatic()
	v := scales.info.Value
	if !ok1 || !ok2 || v == nil || v.Len() != len(axes) || len(out) != len(in) {
		return true
	}
	for k, a := range axes {
		scale := float32(v.Float64At(k))
		switch {
		case ResizeLength(in[a], scale) != out[a]:
			return false
		case out[a] == in[a] && scale != 1 && coord != "align_corners":
			return false
		}
	}
	return true
}

// ResizeLength is the length ONNX's Resize (and Upsample) gives an axis
// of length n by scale: floor(n * scale), the product in float32 as ONNX
// Runtime computes it (UpsampleBase::ComputeOutputShape). OpenVINO's
// Interpolate by scales multiplies by scale + 1e-6, so that a product
// just below an integer (25 x 2.12) gives one more.
func ResizeLength(n int64, scale float32) int64 {
	return int64(float32(float32(n) * scale))
}

func importPad(im *importer, n *Node) ([]tensor, error) {
	x, err := first(im, n)
	if err != nil || !im.known("Pad", "opset12") {
		return nil, err
	}
	mode := strings.ToLower(attrString(n, "mode", "constant"))
	if mode != "constant" && mode != "reflect" && mode != "edge" {
		return nil, nil
	}
	var begin, end, value tensor
	haveValue := false
	if im.opset < 11 {
		pads, ok := attrInts(n, "pads")
		if !ok {
			pads, ok = attrInts(n, "paddings")
		}
		if !ok || len(pads)%2 != 0 {
			return nil, im.ruleErr("Pad needs pads of 2*rank values")
		}
		half := len(pads) / 2
		begin, end = im.ints("pads_begin", false, pads[:half]...), im.ints("pads_end", false, pads[half:]...)
		if value, haveValue = im.scalarOf("pad_value", x.info.Type, attrFloat(n, "value", 0)); !haveValue {
			return nil, nil // of a type irdiv does not know: keep the node
		}
	} else {
		pads, ok := im.input(1)
		if !ok {
			return nil, im.ruleErr("Pad needs pads")
		}
		if _, ok := im.input(3); ok {
			return nil, nil // opset 18 axes: keep the node
		}
		if pads.info.Type != ir.I64 {
			if pads, err = im.one("Convert", "opset1", "pads", data("destination_type", "i64"), pads); err != nil {
				return nil, err
			}
		}
		halves, err := im.add("Split", "opset1", "pads_split", data("num_splits", "2"), pads, im.ints("pads_axis", true, 0))
		if err != nil {
			return nil, err
		}
		begin, end = halves[0], halves[1]
		value, haveValue = im.input(2)
	}
	ins := []tensor{x, begin, end}
	if haveValue && mode == "constant" {
		ins = append(ins, value)
	}
	out, err := im.one("Pad", "opset12", "", data("pad_mode", mode), ins...)
	return []tensor{out}, err
}
