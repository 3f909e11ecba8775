package ops

import (
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The convolutions and poolings infer shapes only (Evaluate gives
// ErrUnsupportedOp). Their rules follow OpenVINO's
// convolution_shape_inference_util.hpp, convolution_backprop_shape_
// inference_util.hpp and pooling_shape_inference_util.hpp, including
// auto_pad, rounding_type, dilations and interval dimensions.

// SpatialRule is how an op computes one output dimension from the input
// dimension on the same axis, as an affine function:
//
//	out = floor((in*Mul + Add) / Div) + Off,
//
// defined for in >= MinIn (OpenVINO rejects a smaller static input, and
// clips intervals there). With CeilTorch (pooling's rounding_type
// ceil_torch), a last window that would start in the end padding is
// dropped: out is one less when (out-1)*Div >= in + PadBegin. Convolution,
// GroupConvolution, their backprops, MaxPool, AvgPool and Pad return their
// rules through SpatialRules, so that an analysis can use the same
// formula symbolically.
type SpatialRule struct {
	Axis               int // of the data input and the output
	Mul, Add, Div, Off int64
	MinIn              int64
	CeilTorch          bool
	PadBegin           int64
}

// Apply computes the output dimension; ok is false below MinIn.
func (r SpatialRule) Apply(in int64) (out int64, ok bool) {
	if in < r.MinIn {
		return 0, false
	}
	out = floorDiv(in*r.Mul+r.Add, r.Div) + r.Off
	if r.CeilTorch && (out-1)*r.Div >= in+r.PadBegin {
		out--
	}
	return out, true
}

// floorDiv divides rounding toward minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Spatial is implemented by the ops whose spatial output dimensions are
// SpatialRules of their inputs. The rules need the kernel's size (from a
// filter input of static spatial dimensions, for convolutions) and the
// data rank; otherwise SpatialRules fails.
type Spatial interface {
	SpatialRules(in []ValueInfo) ([]SpatialRule, error)
}

// AutoPad is the auto_pad attribute.
type AutoPad uint8

const (
	PadExplicit AutoPad = iota
	PadSameUpper
	PadSameLower
	PadValid
)

var autoPads = []string{"explicit", "same_upper", "same_lower", "valid"}

func (p AutoPad) String() string { return autoPads[p] }

func (p AutoPad) same() bool { return p == PadSameUpper || p == PadSameLower }

// RoundingType is pooling's rounding_type attribute.
type RoundingType uint8

const (
	RoundFloor RoundingType = iota
	RoundCeil
	RoundCeilTorch
)

var roundingTypes = []string{"floor", "ceil", "ceil_torch"}

func (r RoundingType) String() string { return roundingTypes[r] }

func readAutoPad(a attrs) (AutoPad, error) {
	names := append(slices.Clone(autoPads), "notset")
	p, err := a.enum("auto_pad", "ov::op::PadType", names, 0)
	if p == len(autoPads) {
		p = 0
	}
	return AutoPad(p), err
}

// ConvAttrs are the attributes of the convolutions.
type ConvAttrs struct {
	Strides, Dilations, PadsBegin, PadsEnd []int64
	AutoPad                                AutoPad
}

func readConvAttrs(l *ir.Layer) (ConvAttrs, error) {
	a := attrs{l}
	p, err := readAutoPad(a)
	return ConvAttrs{
		Strides: a.ints("strides"), Dilations: a.ints("dilations"),
		PadsBegin: a.ints("pads_begin"), PadsEnd: a.ints("pads_end"), AutoPad: p,
	}, err
}

// Convolution is Convolution-1: data [N, C, spatial...] and filters
// [C_out, C, kernel...].
type Convolution struct{ ConvAttrs }

// GroupConvolution is GroupConvolution-1: filters [G, C_out/G, C/G,
// kernel...].
type GroupConvolution struct{ ConvAttrs }

// ConvolutionBackpropData is ConvolutionBackpropData-1: data [N, C,
// spatial...], filters [C, C_out, kernel...] and an optional output_shape
// input giving the spatial output dimensions.
type ConvolutionBackpropData struct {
	ConvAttrs
	OutputPadding []int64
}

// GroupConvolutionBackpropData is GroupConvolutionBackpropData-1: filters
// [G, C/G, C_out/G, kernel...].
type GroupConvolutionBackpropData struct {
	ConvAttrs
	OutputPadding []int64
}

func registerConvolutions() {
	register("Convolution", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		c, err := readConvAttrs(l)
		return &Convolution{c}, err
	}))
	register("GroupConvolution", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		c, err := readConvAttrs(l)
		return &GroupConvolution{c}, err
	}))
	register("ConvolutionBackpropData", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		c, err := readConvAttrs(l)
		return &ConvolutionBackpropData{c, attrs{l}.ints("output_padding")}, err
	}))
	register("GroupConvolutionBackpropData", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		c, err := readConvAttrs(l)
		return &GroupConvolutionBackpropData{c, attrs{l}.ints("output_padding")}, err
	}))
	register("MaxPool", []int{1, 8, 14}, func(l *ir.Layer, v int) (Op, error) {
		p, err := readPoolAttrs(l, v)
		if err != nil {
			return nil, err
		}
		m := &MaxPool{Version: v, PoolAttrs: p, IndexElementType: ir.I64}
		if v > 1 {
			a := attrs{l}
			if m.IndexElementType, err = a.elementType("index_element_type", ir.I64); err != nil {
				return nil, err
			}
			m.Axis = a.int("axis", 0)
		}
		return m, nil
	})
	register("AvgPool", []int{1, 14}, func(l *ir.Layer, v int) (Op, error) {
		if v == 16 {
			return nil, unsupportedVersion("AvgPool", v)
		}
		p, err := readPoolAttrs(l, v)
		return &AvgPool{Version: v, PoolAttrs: p, ExcludePad: attrs{l}.bool("exclude-pad", false)}, err
	})
}

func (*Convolution) OpType() (string, string)      { return "Convolution", "opset1" }
func (*GroupConvolution) OpType() (string, string) { return "GroupConvolution", "opset1" }
func (*ConvolutionBackpropData) OpType() (string, string) {
	return "ConvolutionBackpropData", "opset1"
}
func (*GroupConvolutionBackpropData) OpType() (string, string) {
	return "GroupConvolutionBackpropData", "opset1"
}

func (c *Convolution) Attrs() []ir.Attr {
	return []ir.Attr{
		attr("strides", formatInts(c.Strides)), attr("dilations", formatInts(c.Dilations)),
		attr("pads_begin", formatInts(c.PadsBegin)), attr("pads_end", formatInts(c.PadsEnd)),
		attr("auto_pad", c.AutoPad.String()),
	}
}

func (c *GroupConvolution) Attrs() []ir.Attr {
	return []ir.Attr{
		attr("strides", formatInts(c.Strides)), attr("pads_begin", formatInts(c.PadsBegin)),
		attr("pads_end", formatInts(c.PadsEnd)), attr("dilations", formatInts(c.Dilations)),
		attr("auto_pad", c.AutoPad.String()),
	}
}

func (c *ConvolutionBackpropData) Attrs() []ir.Attr {
	return append((&Convolution{c.ConvAttrs}).Attrs(), attr("output_padding", formatInts(c.OutputPadding)))
}

func (c *GroupConvolutionBackpropData) Attrs() []ir.Attr {
	return append((&GroupConvolution{c.ConvAttrs}).Attrs(), attr("output_padding", formatInts(c.OutputPadding)))
}

// convLayout describes where a convolution's filter keeps its channel
// dimensions: the input channels at filterIn (times the groups), the
// output channels at filterOut, and how many non-spatial dims it has.
type convLayout struct {
	name                      string
	grouped, backprop         bool
	filterIn, filterOut, lead int
}

var (
	convForward       = convLayout{"Convolution", false, false, 1, 0, 2}
	convGroup         = convLayout{"GroupConvolution", true, false, 2, 1, 3}
	convBackprop      = convLayout{"ConvolutionBackpropData", false, true, 0, 1, 2}
	convGroupBackprop = convLayout{"GroupConvolutionBackpropData", true, true, 1, 2, 3}
)

// spatialCount returns the number of spatial dims (from the data rank,
// else the filters', else the attributes), or -1.
func (c *ConvAttrs) spatialCount(lay convLayout, in []ValueInfo) int {
	if r := in[0].Shape.Rank(); r >= 0 {
		return r - 2
	}
	if r := in[1].Shape.Rank(); r >= 0 {
		return r - lay.lead
	}
	for _, v := range [][]int64{c.Strides, c.Dilations, c.PadsBegin, c.PadsEnd} {
		if len(v) > 0 {
			return len(v)
		}
	}
	return -1
}

// check validates the inputs and attributes common to the convolutions
// and returns the number of spatial dims, the pads to use and the output
// channel count.
func (c *ConvAttrs) check(lay convLayout, in []ValueInfo, outputPadding []int64) (n int, padsBegin, padsEnd []int64, channels shapeinfer.Dim, err error) {
	lo, hi := 2, 2
	if lay.backprop {
		hi = 3
	}
	if err = inputCount(in, lo, hi); err != nil {
		return
	}
	if _, ok := mergeTypes(in[0].Type, in[1].Type); !ok {
		err = errorf("%w: Element types for data batch and filters do not match (data batch element type: %s, filters element type: %s).", ErrType, in[0].Type, in[1].Type)
		return
	}
	data, filters := in[0].Shape, in[1].Shape
	if r := data.Rank(); r >= 0 && (r < 3 || r > 5) {
		err = errorf("%w: Expected a 3D, 4D or 5D tensor for the input. Got: %s", ErrShape, data)
		return
	}
	if r := filters.Rank(); !data.DynamicRank && r >= 0 && len(data.Dims)+lay.lead-2 != r || r >= 0 && (r < lay.lead+1 || r > lay.lead+3) {
		err = errorf("%w: Data batch and filters rank do not match (data batch shape: %s, filters shape: %s).", ErrShape, data, filters)
		return
	}
	n = c.spatialCount(lay, in)
	padsBegin, padsEnd = c.PadsBegin, c.PadsEnd
	if len(padsBegin) == 0 && n >= 0 {
		padsBegin = make([]int64, n)
	}
	if len(padsEnd) == 0 && n >= 0 {
		padsEnd = make([]int64, n)
	}
	if n >= 0 {
		switch {
		case len(c.Strides) != n:
			err = errorf("%w: Strides should be defined for all and only spatial dimensions.", ErrAttribute)
		case len(c.Dilations) != n:
			err = errorf("%w: Dilations should be defined for all and only spatial dimensions.", ErrAttribute)
		case len(padsBegin) != n || len(padsEnd) != n:
			err = errorf("%w: Pads begin and end should be defined for all and only spatial dimensions.", ErrAttribute)
		case lay.backprop && len(outputPadding) != n:
			err = errorf("%w: Output padding should be defined for all and only spatial dimensions.", ErrAttribute)
		case slices.Contains(c.Strides, 0):
			err = errorf("%w: Strides has zero dimension(s). %v", ErrAttribute, c.Strides)
		case slices.Contains(c.Dilations, 0):
			err = errorf("%w: Filter dilations has zero dimension(s). %v", ErrAttribute, c.Dilations)
		}
		if err != nil {
			return
		}
	}
	channels = shapeinfer.Dynamic()
	if !filters.DynamicRank {
		groups := shapeinfer.Static(1)
		if lay.grouped {
			groups = filters.Dims[0]
		}
		channels = dimMul(groups, filters.Dims[lay.filterOut])
		if !data.DynamicRank {
			inCh := dimMul(groups, filters.Dims[lay.filterIn])
			if _, ok := shapeinfer.Merge(data.Dims[1], inCh); !ok {
				if lay.grouped {
					err = errorf("%w: Input channels dimension of data batch has incompatible value with filter shape.", ErrShape)
				} else {
					err = errorf("%w: Data batch channel count (%s) does not match filter input channel count (%s).", ErrShape, data.Dims[1], inCh)
				}
				return
			}
		}
	}
	if n >= 0 && (c.AutoPad == PadValid || lay.backprop && c.AutoPad.same()) {
		padsBegin, padsEnd = make([]int64, n), make([]int64, n)
	}
	return
}

// dilated returns the extent of a kernel dimension after dilation.
func dilated(k shapeinfer.Dim, d int64) shapeinfer.Dim {
	f := func(v int64) int64 {
		if v == unbounded {
			return unbounded
		}
		return max(satAdd(satMul(v-1, d), 1), 0)
	}
	return shapeinfer.Dim{Min: f(k.Min), Max: f(k.Max)}
}

// subClip is Interval subtraction clipped at 0.
func subClip(a shapeinfer.Dim, b shapeinfer.Dim) shapeinfer.Dim {
	sub := func(x, y int64) int64 {
		switch {
		case x <= y:
			return 0
		case x == unbounded:
			return unbounded
		}
		return x - y
	}
	return shapeinfer.Dim{Min: sub(a.Min, b.Max), Max: sub(a.Max, b.Min)}
}

func addConst(d shapeinfer.Dim, v int64) shapeinfer.Dim {
	f := func(x int64) int64 {
		if x == unbounded {
			return unbounded
		}
		return max(x+v, 0)
	}
	return shapeinfer.Dim{Min: f(d.Min), Max: f(d.Max)}
}

func divDim(d shapeinfer.Dim, s int64, ceil bool) shapeinfer.Dim {
	f := func(x int64) int64 {
		switch {
		case x == unbounded:
			return unbounded
		case ceil:
			return ceilDiv(x, s)
		}
		return x / s
	}
	return shapeinfer.Dim{Min: f(d.Min), Max: f(d.Max)}
}

// forwardDim is the output of a convolution or pooling window over d.
func forwardDim(d shapeinfer.Dim, pads int64, kernel shapeinfer.Dim, stride int64, ceil bool, axis int) (shapeinfer.Dim, error) {
	padded := addConst(d, pads)
	if d.IsStatic() && kernel.IsStatic() {
		if kernel.Min <= 0 {
			return shapeinfer.Dim{}, errorf("%w: Kernel after dilation has dimension less than 1 (dim: %d) at axis %d.", ErrShape, kernel.Min, axis)
		}
		if kernel.Min > padded.Min {
			return shapeinfer.Dim{}, errorf("%w: Kernel after dilation has size (dim: %d) larger than the data shape after padding (dim: %d) at axis %d.", ErrShape, kernel.Min, padded.Min, axis)
		}
	}
	return addConst(divDim(subClip(padded, kernel), stride, ceil), 1), nil
}

// convOutput is the output shape of a convolution with n spatial
// dimensions: the data's batch, channels, then spatial dimensions for the
// caller to fill.
func convOutput(data shapeinfer.Shape, n int, channels shapeinfer.Dim) shapeinfer.Shape {
	out := dynamicShape(n + 2)
	if !data.DynamicRank {
		out.Dims[0] = data.Dims[0]
	}
	out.Dims[1] = channels
	return out
}

// spatialDims are spatial dimension i of the data and of the filters,
// dynamic where the rank is not known.
func (lay convLayout) spatialDims(data, filters shapeinfer.Shape, i int) (d, k shapeinfer.Dim) {
	d, k = shapeinfer.Dynamic(), shapeinfer.Dynamic()
	if !data.DynamicRank {
		d = data.Dims[2+i]
	}
	if !filters.DynamicRank {
		k = filters.Dims[lay.lead+i]
	}
	return d, k
}

func (c *ConvAttrs) inferForward(lay convLayout, in []ValueInfo) ([]ValueInfo, error) {
	n, pb, pe, channels, err := c.check(lay, in, nil)
	if err != nil {
		return nil, err
	}
	t, _ := mergeTypes(in[0].Type, in[1].Type)
	data, filters := in[0].Shape, in[1].Shape
	if n < 0 {
		return []ValueInfo{{Type: t, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	out := convOutput(data, n, channels)
	for i := range n {
		d, k := lay.spatialDims(data, filters, i)
		if c.AutoPad.same() {
			out.Dims[2+i] = divDim(d, c.Strides[i], true)
			continue
		}
		if out.Dims[2+i], err = forwardDim(d, pb[i]+pe[i], dilated(k, c.Dilations[i]), c.Strides[i], false, i); err != nil {
			return nil, err
		}
	}
	return []ValueInfo{{Type: t, Shape: out}}, nil
}

// forwardRules are the SpatialRules of a forward convolution.
func (c *ConvAttrs) forwardRules(lay convLayout, in []ValueInfo) ([]SpatialRule, error) {
	n, pb, pe, _, err := c.check(lay, in, nil)
	if err != nil {
		return nil, err
	}
	filters := in[1].Shape
	if n < 0 || filters.DynamicRank {
		return nil, errorf("%w: %s rules need the filters' rank", ErrShape, lay.name)
	}
	rules := make([]SpatialRule, n)
	for i := range n {
		s := c.Strides[i]
		if c.AutoPad.same() {
			rules[i] = SpatialRule{Axis: 2 + i, Mul: 1, Add: s - 1, Div: s}
			continue
		}
		k := dilated(filters.Dims[lay.lead+i], c.Dilations[i])
		if !k.IsStatic() {
			return nil, errorf("%w: %s rules need static kernel dimensions, got filters %s", ErrShape, lay.name, filters)
		}
		p := pb[i] + pe[i]
		rules[i] = SpatialRule{Axis: 2 + i, Mul: 1, Add: p - k.Min, Div: s, Off: 1, MinIn: max(k.Min-p, 0)}
	}
	return rules, nil
}

func (c *Convolution) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return c.inferForward(convForward, in)
}

func (c *GroupConvolution) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return c.inferForward(convGroup, in)
}

func (c *Convolution) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return c.forwardRules(convForward, in)
}

func (c *GroupConvolution) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return c.forwardRules(convGroup, in)
}

func (c *ConvAttrs) inferBackprop(lay convLayout, in []ValueInfo, outputPadding []int64) ([]ValueInfo, error) {
	n, pb, pe, channels, err := c.check(lay, in, outputPadding)
	if err != nil {
		return nil, err
	}
	t, _ := mergeTypes(in[0].Type, in[1].Type)
	data, filters := in[0].Shape, in[1].Shape
	if n < 0 && len(in) > 2 && in[2].Shape.IsStatic() && len(in[2].Shape.Dims) == 1 {
		n = int(in[2].Shape.Dims[0].Min)
	}
	if n < 0 {
		return []ValueInfo{{Type: t, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	out := convOutput(data, n, channels)
	if len(in) > 2 {
		if err := checkIntegral(in[2].Type, "Element type for output shape"); err != nil {
			return nil, err
		}
		if s := in[2].Shape; s.IsStatic() && (len(s.Dims) != 1 || s.Dims[0].Min != int64(n)) {
			return nil, errorf("%w: Output shape should be defined for all and only spatial dimensions.", ErrShape)
		}
		if v, ok := constInts(in[2]); ok {
			for i, d := range v {
				out.Dims[2+i] = shapeinfer.Interval(d, d)
			}
		}
		return []ValueInfo{{Type: t, Shape: out}}, nil
	}
	for i := range n {
		d, k := lay.spatialDims(data, filters, i)
		dim := dimMul(subClip(d, shapeinfer.Static(1)), shapeinfer.Static(c.Strides[i]))
		dim = dimAdd(dim, dilated(k, c.Dilations[i]))
		out.Dims[2+i] = padDim(dim, outputPadding[i]-pb[i]-pe[i])
	}
	return []ValueInfo{{Type: t, Shape: out}}, nil
}

// backpropRules are the SpatialRules of a backprop convolution without an
// output_shape input: out = s*(in-1) + dilated kernel + output_padding -
// pads (dim::padded: a negative result is an unknown dimension).
func (c *ConvAttrs) backpropRules(lay convLayout, in []ValueInfo, outputPadding []int64) ([]SpatialRule, error) {
	n, pb, pe, _, err := c.check(lay, in, outputPadding)
	if err != nil {
		return nil, err
	}
	if len(in) > 2 {
		return nil, errorf("%w: %s with an output_shape input has no spatial rule", ErrShape, lay.name)
	}
	filters := in[1].Shape
	if n < 0 || filters.DynamicRank {
		return nil, errorf("%w: %s rules need the filters' rank", ErrShape, lay.name)
	}
	rules := make([]SpatialRule, n)
	for i := range n {
		k := dilated(filters.Dims[lay.lead+i], c.Dilations[i])
		if !k.IsStatic() {
			return nil, errorf("%w: %s rules need static kernel dimensions, got filters %s", ErrShape, lay.name, filters)
		}
		s := c.Strides[i]
		add := k.Min + outputPadding[i] - pb[i] - pe[i]
		// Below MinIn the result would be negative, which OpenVINO makes
		// an unknown dimension.
		rules[i] = SpatialRule{Axis: 2 + i, Mul: s, Add: add - s, Div: 1, MinIn: 1 + ceilDiv(max(-add, 0), s)}
	}
	return rules, nil
}

func (c *ConvolutionBackpropData) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return c.inferBackprop(convBackprop, in, c.outputPadding(in))
}

func (c *GroupConvolutionBackpropData) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return c.inferBackprop(convGroupBackprop, in, (&ConvolutionBackpropData{c.ConvAttrs, c.OutputPadding}).outputPadding(in))
}

func (c *ConvolutionBackpropData) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return c.backpropRules(convBackprop, in, c.outputPadding(in))
}

func (c *GroupConvolutionBackpropData) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return c.backpropRules(convGroupBackprop, in, (&ConvolutionBackpropData{c.ConvAttrs, c.OutputPadding}).outputPadding(in))
}

// outputPadding defaults an absent output_padding to zeros.
func (c *ConvolutionBackpropData) outputPadding(in []ValueInfo) []int64 {
	if len(c.OutputPadding) > 0 || len(in) < 2 {
		return c.OutputPadding
	}
	return make([]int64, max(len(c.Strides), 0))
}

// Pooling

// PoolAttrs are the attributes of the poolings. Dilations are all 1 for
// MaxPool-1 and AvgPool.
type PoolAttrs struct {
	Strides, Dilations, PadsBegin, PadsEnd, Kernel []int64
	RoundingType                                   RoundingType
	AutoPad                                        AutoPad
}

func readPoolAttrs(l *ir.Layer, v int) (PoolAttrs, error) {
	a := attrs{l}
	p, err := readAutoPad(a)
	if err != nil {
		return PoolAttrs{}, err
	}
	names := roundingTypes
	if v < 14 {
		names = names[:2]
	}
	r, err := a.enum("rounding_type", "ov::op::RoundingType", names, 0)
	return PoolAttrs{
		Strides: a.ints("strides"), Dilations: a.ints("dilations"), PadsBegin: a.ints("pads_begin"),
		PadsEnd: a.ints("pads_end"), Kernel: a.ints("kernel"), RoundingType: RoundingType(r), AutoPad: p,
	}, err
}

// MaxPool is MaxPool-1 (one output), MaxPool-8 or MaxPool-14 (values and
// indices of IndexElementType, with Dilations and Axis).
type MaxPool struct {
	Version int
	PoolAttrs
	IndexElementType ir.ElementType
	Axis             int64
}

// AvgPool is AvgPool-1 or AvgPool-14.
type AvgPool struct {
	Version int
	PoolAttrs
	ExcludePad bool
}

func (m *MaxPool) OpType() (string, string) { return "MaxPool", opset(m.Version) }
func (a *AvgPool) OpType() (string, string) { return "AvgPool", opset(a.Version) }

func (m *MaxPool) Attrs() []ir.Attr {
	p := m.PoolAttrs
	if m.Version == 1 {
		return []ir.Attr{
			attr("strides", formatInts(p.Strides)), attr("pads_begin", formatInts(p.PadsBegin)),
			attr("pads_end", formatInts(p.PadsEnd)), attr("kernel", formatInts(p.Kernel)),
			attr("rounding_type", p.RoundingType.String()), attr("auto_pad", p.AutoPad.String()),
		}
	}
	return []ir.Attr{
		attr("strides", formatInts(p.Strides)), attr("dilations", formatInts(p.Dilations)),
		attr("pads_begin", formatInts(p.PadsBegin)), attr("pads_end", formatInts(p.PadsEnd)),
		attr("kernel", formatInts(p.Kernel)), attr("rounding_type", p.RoundingType.String()),
		attr("auto_pad", p.AutoPad.String()), attr("index_element_type", m.IndexElementType.String()),
		attr("axis", strconv.FormatInt(m.Axis, 10)),
	}
}

func (a *AvgPool) Attrs() []ir.Attr {
	p := a.PoolAttrs
	return []ir.Attr{
		attr("strides", formatInts(p.Strides)), attr("pads_begin", formatInts(p.PadsBegin)),
		attr("pads_end", formatInts(p.PadsEnd)), attr("kernel", formatInts(p.Kernel)),
		attr("exclude-pad", formatBool(a.ExcludePad)), attr("rounding_type", p.RoundingType.String()),
		attr("auto_pad", p.AutoPad.String()),
	}
}

// dilations returns the pooling's dilations (all 1 when absent).
func (p *PoolAttrs) dilations(version int) []int64 {
	if version == 1 || len(p.Dilations) == 0 {
		return slices.Repeat([]int64{1}, len(p.Kernel))
	}
	return p.Dilations
}

// check validates a pooling's input and attributes and returns its pads
// and dilations for the data shape.
func (p *PoolAttrs) check(in []ValueInfo, version int) (pb, pe, dil []int64, err error) {
	if err = inputCount(in, 1, 1); err != nil {
		return
	}
	data := in[0].Shape
	n := len(p.Kernel)
	dil = p.dilations(version)
	switch r := data.Rank(); {
	case r >= 0 && (r < 3 || r > 5):
		err = errorf("%w: Expected a 3D, 4D or 5D tensor for the input. Got: %s", ErrShape, data)
	case len(p.Strides) != n:
		err = errorf("%w: Expected strides size to be equal to input size - 2. Got: %d", ErrAttribute, len(p.Strides))
	case len(dil) != n:
		err = errorf("%w: Expected dilations size to be equal to kernel size. Got: %d", ErrAttribute, len(dil))
	case r >= 0 && n != r-2:
		err = errorf("%w: Expected kernel size to be equal to input size - 2. Got: %d", ErrAttribute, n)
	case slices.Contains(p.Strides, 0):
		err = errorf("%w: Strides has zero dimension(s). %v", ErrAttribute, p.Strides)
	case slices.Contains(dil, 0):
		err = errorf("%w: Kernel dilations has zero dimension(s). %v", ErrAttribute, dil)
	}
	if err != nil {
		return
	}
	pb, pe = p.PadsBegin, p.PadsEnd
	if len(pb) == 0 {
		pb = make([]int64, n)
	}
	if len(pe) == 0 {
		pe = make([]int64, n)
	}
	if p.AutoPad == PadExplicit && (len(pb) != n || len(pe) != n) {
		err = errorf("%w: Expected pads_begin size to be equal to input size - 2. Got: %d", ErrAttribute, len(pb))
		return
	}
	if p.AutoPad != PadExplicit {
		// Valid pads nothing; same_* computes the pads per dimension.
		pb, pe = make([]int64, n), make([]int64, n)
	}
	if !data.DynamicRank {
		if d := data.Dims[0]; d.IsStatic() && d.Min == 0 {
			err = errorf("%w: Batch size is zero.", ErrShape)
		} else if d := data.Dims[1]; d.IsStatic() && d.Min == 0 {
			err = errorf("%w: Channel count is zero.", ErrShape)
		}
	}
	return
}

// samePads are the pads auto_pad same_* gives a static dimension.
func samePads(d, k, s int64, upper bool) (pb, pe int64) {
	pad := max(0, (ceilDiv(d, s)-1)*s+k-d)
	lo := pad / 2
	if upper {
		return lo, pad - lo
	}
	return pad - lo, lo
}

func (p *PoolAttrs) infer(in []ValueInfo, version int, excludePad bool) (shapeinfer.Shape, error) {
	pb, pe, dil, err := p.check(in, version)
	if err != nil {
		return shapeinfer.Shape{}, err
	}
	data := in[0].Shape
	n := len(p.Kernel)
	if data.DynamicRank {
		return dynamicShape(n + 2), nil
	}
	out := shapeinfer.Shape{Dims: slices.Clone(data.Dims[:2])}
	ceil := p.RoundingType != RoundFloor
	for i := range n {
		d := data.Dims[2+i]
		k := (p.Kernel[i]-1)*dil[i] + 1
		if p.AutoPad.same() {
			if !d.IsStatic() {
				out.Dims = append(out.Dims, shapeinfer.Dynamic())
				continue
			}
			pb[i], pe[i] = samePads(d.Min, k, p.Strides[i], p.AutoPad == PadSameUpper)
		}
		if d.IsStatic() && excludePad && (k <= pb[i] || k <= pe[i]) {
			return shapeinfer.Shape{}, errorf("%w: Kernel after dilation is sometimes entirely in the padding area for axis %d (dilated kernel dimension: %d, padding below dimension: %d, padding above dimension: %d) and this is not allowed.", ErrShape, i, k, pb[i], pe[i])
		}
		o, err := forwardDim(d, pb[i]+pe[i], shapeinfer.Static(k), p.Strides[i], ceil, i)
		if err != nil {
			return shapeinfer.Shape{}, err
		}
		if p.RoundingType == RoundCeilTorch && d.IsStatic() && (o.Min-1)*p.Strides[i] >= d.Min+pb[i] {
			o = shapeinfer.Static(o.Min - 1)
		}
		out.Dims = append(out.Dims, o)
	}
	return out, nil
}

// rules are the SpatialRules of a pooling. auto_pad same_* with floor
// rounding gives ceil(in / stride) for every static input dimension; with
// ceil rounding the padding OpenVINO computes is clipped at 0, which makes
// the output the larger of two affine functions: no single rule.
func (p *PoolAttrs) rules(in []ValueInfo, version int) ([]SpatialRule, error) {
	pb, pe, dil, err := p.check(in, version)
	if err != nil {
		return nil, err
	}
	if p.AutoPad.same() && p.RoundingType != RoundFloor {
		return nil, errorf("%w: pooling with auto_pad %s and rounding_type %s has no affine spatial rule", ErrShape, p.AutoPad, p.RoundingType)
	}
	rules := make([]SpatialRule, len(p.Kernel))
	for i := range rules {
		s := p.Strides[i]
		k := (p.Kernel[i]-1)*dil[i] + 1
		if p.AutoPad.same() {
			rules[i] = SpatialRule{Axis: 2 + i, Mul: 1, Add: s - 1, Div: s}
			continue
		}
		add := pb[i] + pe[i] - k
		if p.RoundingType != RoundFloor {
			add += s - 1
		}
		rules[i] = SpatialRule{
			Axis: 2 + i, Mul: 1, Add: add, Div: s, Off: 1, MinIn: max(k-pb[i]-pe[i], 0),
			CeilTorch: p.RoundingType == RoundCeilTorch, PadBegin: pb[i],
		}
	}
	return rules, nil
}

func (m *MaxPool) Infer(in []ValueInfo) ([]ValueInfo, error) {
	shape, err := m.infer(in, m.Version, false)
	if err != nil {
		return nil, err
	}
	out := []ValueInfo{{Type: in[0].Type, Shape: shape}}
	if m.Version == 1 {
		return out, nil
	}
	if t := m.IndexElementType; t != ir.I32 && t != ir.I64 {
		return nil, errorf("%w: Index element type must be i32 or i64", ErrType)
	}
	if r := in[0].Shape.Rank(); r >= 0 {
		if _, err := normalizeAxis(m.Axis, r); err != nil {
			return nil, err
		}
	}
	return append(out, ValueInfo{Type: m.IndexElementType, Shape: shape}), nil
}

func (a *AvgPool) Infer(in []ValueInfo) ([]ValueInfo, error) {
	shape, err := a.infer(in, a.Version, a.ExcludePad)
	if err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
}

func (m *MaxPool) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return m.rules(in, m.Version)
}

func (a *AvgPool) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	return a.rules(in, a.Version)
}
