package onnxwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// OpTypes are the ops of ONNX's default domain (opset 1 to 21), sorted:
// what a hostile model may name, whether irdiv imports it, types it or
// keeps it opaque.
var OpTypes = []string{
	"Abs", "Acos", "Acosh", "Add", "AffineGrid", "And", "ArgMax", "ArgMin", "Asin", "Asinh", "Atan", "Atanh",
	"AveragePool", "BatchNormalization", "Bernoulli", "BitShift", "BitwiseAnd", "BitwiseNot", "BitwiseOr",
	"BitwiseXor", "BlackmanWindow", "Cast", "CastLike", "Ceil", "Celu", "CenterCropPad", "Clip", "Col2Im",
	"Compress", "Concat", "ConcatFromSequence", "Constant", "ConstantOfShape", "Conv", "ConvInteger",
	"ConvTranspose", "Cos", "Cosh", "CumSum", "DFT", "DeformConv", "DepthToSpace", "DequantizeLinear", "Det",
	"Div", "Dropout", "DynamicQuantizeLinear", "Einsum", "Elu", "Equal", "Erf", "Exp", "Expand", "EyeLike",
	"Flatten", "Floor", "GRU", "Gather", "GatherElements", "GatherND", "Gelu", "Gemm", "GlobalAveragePool",
	"GlobalLpPool", "GlobalMaxPool", "Greater", "GreaterOrEqual", "GridSample", "GroupNormalization",
	"HammingWindow", "HannWindow", "HardSigmoid", "HardSwish", "Hardmax", "Identity", "If", "ImageDecoder",
	"InstanceNormalization", "IsInf", "IsNaN", "LRN", "LSTM", "LayerNormalization", "LeakyRelu", "Less",
	"LessOrEqual", "Log", "LogSoftmax", "Loop", "LpNormalization", "LpPool", "MatMul", "MatMulInteger", "Max",
	"MaxPool", "MaxRoiPool", "MaxUnpool", "Mean", "MeanVarianceNormalization", "MelWeightMatrix", "Min",
	"Mish", "Mod", "Mul", "Multinomial", "Neg", "NegativeLogLikelihoodLoss", "NonMaxSuppression", "NonZero",
	"Not", "OneHot", "Optional", "OptionalGetElement", "OptionalHasElement", "Or", "PRelu", "Pad", "Pow",
	"QLinearConv", "QLinearMatMul", "QuantizeLinear", "RNN", "RandomNormal", "RandomNormalLike",
	"RandomUniform", "RandomUniformLike", "Range", "Reciprocal", "ReduceL1", "ReduceL2", "ReduceLogSum",
	"ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
	"RegexFullMatch", "Relu", "Reshape", "Resize", "ReverseSequence", "RoiAlign", "Round", "STFT", "Scan",
	"Scatter", "ScatterElements", "ScatterND", "Selu", "SequenceAt", "SequenceConstruct", "SequenceEmpty",
	"SequenceErase", "SequenceInsert", "SequenceLength", "SequenceMap", "Shape", "Shrink", "Sigmoid", "Sign",
	"Sin", "Sinh", "Size", "Slice", "Softmax", "SoftmaxCrossEntropyLoss", "Softplus", "Softsign",
	"SpaceToDepth", "Split", "SplitToSequence", "Sqrt", "Squeeze", "StringConcat", "StringNormalizer",
	"StringSplit", "Sub", "Sum", "Tan", "Tanh", "TfIdfVectorizer", "ThresholdedRelu", "Tile", "TopK",
	"Transpose", "Trilu", "Unique", "Unsqueeze", "Upsample", "Where", "Xor",
}

// Values a hostile model gives, each list starting with a harmless one
// (a choice past the fuzzer's bytes is the first), the edges after it.
var (
	hostileOpsets = []int64{13, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21}
	hostileFloats = []float32{1, 0, -1, 0.5, 2, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e30, -1e-30}
	// hostileNames are attribute names the import rules read, sorted:
	// those of ops of later opsets than opAttrNames knows, and names an op
	// does not have.
	hostileNames = []string{"allowzero", "alpha", "auto_pad", "axes", "axis", "batch_dims", "beta", "blocksize",
		"broadcast", "ceil_mode", "coordinate_transformation_mode", "count_include_pad", "dilations", "direction",
		"end", "epsilon", "exclusive", "fmod", "group", "keepdims", "kernel_shape", "largest", "max", "min", "mode",
		"nearest_mode", "noop_with_empty_axes", "num_outputs", "output_height", "output_padding", "output_shape",
		"output_width", "pads", "paddings", "perm", "ratio", "reverse", "sampling_ratio", "scales", "select_last_index",
		"shape", "sorted", "spatial_scale", "split", "start", "starts", "ends", "stash_type", "storage_order",
		"strides", "to", "training_mode", "transA", "transB", "upper", "value"}
	hostileStrings = []string{"NOTSET", "", "VALID", "SAME_UPPER", "SAME_LOWER", "constant", "reflect", "edge", "wrap",
		"nearest", "linear", "cubic", "half_pixel", "asymmetric", "floor", "bogus", "DCR", "CRD"}
	// hostileDataTypes are TensorProto.DataType values: float, uint8,
	// int8, uint16, int16, int32, int64, bool, float16, double, uint32,
	// uint64, bfloat16, and string (which irdiv refuses).
	hostileDataTypes = []int32{1, 7, 6, 2, 3, 4, 5, 9, 10, 11, 12, 13, 16, 8}
	hostileDims      = []int64{2, 1, 3, 0, -1, 4}
)

// hostileInts are the integers of attributes and integer initializers,
// 32, so that the bytes the fuzzer's mutations favour (0xff and 0x7f, 0x80
// and 0) choose int64's maximum and the first, harmless one: small
// values, values relative to the rank and the largest dim of x (an
// axis, a count of axes, a dim and one past each, their negatives), int32's
// and int64's ends and their neighbours, and int64's ends less the rank
// or a dim, whose sum with an axis, a rank or a dim wraps.
func hostileInts(x []int64) []int64 {
	r, d := int64(len(x)), int64(1)
	for _, dim := range x {
		d = max(d, dim)
	}
	return []int64{1, 0, -1, 2, 3, -2, 7, r, r + 1, r - 1, -r, -r - 1, d, d + 1, -d - 1,
		1<<31 - 1, 1 << 31, -1 << 31, 1 << 32, 1 << 40, 1 << 62, -1 << 62,
		math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 2, math.MinInt64 + r, math.MinInt64 + d,
		math.MaxInt64 - r, math.MaxInt64 - d, math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}
}

// hostileBytes reads a fuzzer's bytes as small choices; past their end
// every choice is 0, the first of the list.
type hostileBytes []byte

func (b *hostileBytes) choose(n int) int {
	if len(*b) == 0 || n <= 1 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return int(c) % n
}

// hostileShape is a shape of rank 0 to 4 (4 first) with static, symbolic
// (-1) and zero dims, or nil for no shape at all.
func (b *hostileBytes) shape() []int64 {
	rank := []int{4, 2, 1, 0, 3, 5, -1}[b.choose(7)]
	if rank < 0 {
		return nil
	}
	dims := make([]int64, rank)
	for i := range dims {
		dims[i] = hostileDims[b.choose(len(hostileDims))]
	}
	return dims
}

// tensor is an initializer of a chosen type, a shape of rank 0 to 2 of
// dims 0 to 3, and elements from the edge lists (ints of them).
func (b *hostileBytes) tensor(name string, ints []int64) (data []byte, desc string) {
	dt := hostileDataTypes[b.choose(len(hostileDataTypes)-1)] // no strings
	dims := make([]int64, b.choose(3))
	n := 1
	for i := range dims {
		dims[i] = int64(b.choose(4))
		n *= int(dims[i])
	}
	size := map[int32]int{1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2}[dt]
	raw := make([]byte, 0, n*size)
	var vals []string
	for range n {
		var v uint64
		if dt == 1 || dt == 10 || dt == 11 || dt == 16 {
			f := hostileFloats[b.choose(len(hostileFloats))]
			vals = append(vals, fmt.Sprint(f))
			switch dt {
			case 1:
				v = uint64(math.Float32bits(f))
			case 11:
				v = math.Float64bits(float64(f))
			default: // the high half of a float32: bfloat16's bits, any bits for float16
				v = uint64(math.Float32bits(f) >> 16)
			}
		} else {
			i := ints[b.choose(len(ints))]
			vals = append(vals, fmt.Sprint(i))
			v = uint64(i)
		}
		raw = binary.LittleEndian.AppendUint64(raw, v)[:len(raw)+size]
	}
	return Tensor(name, dt, dims, raw), fmt.Sprintf("%s=const(type %d, dims %v, %v)", name, dt, dims, vals)
}

// The kinds of attribute HostileModel writes: the kind byte modulo 5,
// where kindOwn is the kind the op's schema gives the name (INT where it
// gives none of these); kindOther is one of the schema's it does not.
const (
	kindInt = iota
	kindOwn
	kindInts
	kindFloat
	kindString
	kindOther
)

// opAttr is an attribute of an op's schema (attrnames.go).
type opAttr struct {
	name string
	kind int
}

// attr is an attribute of a chosen name, kind and value, from three
// bytes, so that changing one byte changes one choice: the name, of the
// op's own (opAttrs) where the byte is even and the op has any, of
// hostileNames otherwise; the kind (INT, the schema's, INTS, FLOAT or
// STRING) and, for INTS, the length (0 to 4) and the step between the
// elements' places in ints; the value, or the first element's place.
func attr(op string, ints []int64, name, kind, value byte) (data []byte, desc string) {
	var n string
	k := int(kind % 5)
	if own := opAttrs[op]; len(own) > 0 && name%2 == 0 {
		a := own[int(name/2)%len(own)]
		n = a.name
		if k == kindOwn && a.kind != kindOther {
			k = a.kind
		}
	} else {
		n = hostileNames[int(name/2)%len(hostileNames)]
	}
	v := int(value)
	switch k {
	case kindInt, kindOwn:
		i := ints[v%len(ints)]
		return IntAttr(n, i), fmt.Sprintf("%s=%d", n, i)
	case kindInts:
		vs := make([]int64, int(kind/5)%5)
		for i := range vs {
			vs[i] = ints[(v+i*int(kind/25))%len(ints)]
		}
		return IntsAttr(n, vs...), fmt.Sprintf("%s=%v", n, vs)
	case kindFloat:
		f := hostileFloats[v%len(hostileFloats)]
		return FloatAttr(n, f), fmt.Sprintf("%s=%g", n, f)
	default:
		str := hostileStrings[v%len(hostileStrings)]
		return StringAttr(n, str), fmt.Sprintf("%s=%q", n, str)
	}
}

// HostileAttrSeeds are attrs for HostileModel, one for each attribute of
// opType's schema of a kind it writes: that attribute alone, of the
// schema's kind (INTS of one element), at the first value of its list
// (1, "NOTSET"), from which one byte's change reaches any value.
func HostileAttrSeeds(opType string) [][]byte {
	var seeds [][]byte
	for i, a := range opAttrs[opType] {
		if a.kind == kindOther || 2*i > 255 {
			continue
		}
		seeds = append(seeds, []byte{byte(2 * i), byte(kindOwn + 5), 0})
	}
	return seeds
}

// HostileModel builds, from a fuzzer's choices, a model of one node of
// opType at a chosen opset: ins chooses its inputs (each a graph
// input of a chosen type and shape, possibly of unknown rank; the graph
// input x; u, the output of an op of another domain, of unknown type and
// shape; an initializer of chosen type, shape and values at the edges of
// int64 and floats; or absent) and attrs its attributes, up to 8, three
// bytes each (names mostly of the op's own, kinds and values: 0, -1, the
// rank of x and one past it, 2^63-1 and 2^63-1 less the rank, -2^63,
// 2^40, NaN, empty lists...).
// Each of its one to three outputs is read by an Identity, whose output
// is a graph output of unknown shape, so that the node's types and
// shapes are the import's. desc says what was chosen.
func HostileModel(opType string, opset uint8, ins, attrs []byte) (model []byte, desc string) {
	version := hostileOpsets[int(opset)%len(hostileOpsets)]
	b := hostileBytes(ins)
	dt := hostileDataTypes[b.choose(len(hostileDataTypes))]
	xShape := b.shape()
	ints := hostileInts(xShape)
	inputs := [][]byte{ValueInfo("x", dt, xShape...)}
	if xShape == nil {
		inputs[0] = Rankless("x", dt)
	}
	var inits [][]byte
	var names, descs []string
	descs = append(descs, fmt.Sprintf("x: type %d, dims %v", dt, xShape))
	for i := range b.choose(6) {
		name := fmt.Sprintf("in%d", i)
		switch b.choose(6) {
		case 0:
			dt := hostileDataTypes[b.choose(len(hostileDataTypes))]
			shape := b.shape()
			if shape == nil {
				inputs = append(inputs, Rankless(name, dt))
			} else {
				inputs = append(inputs, ValueInfo(name, dt, shape...))
			}
			descs = append(descs, fmt.Sprintf("%s: type %d, dims %v", name, dt, shape))
		case 1:
			var d string
			var t []byte
			t, d = b.tensor(name, ints)
			inits = append(inits, t)
			descs = append(descs, d)
		case 2:
			name = "x"
		case 3:
			name = "u"
		default:
			name = ""
		}
		names = append(names, name)
	}
	var attrList [][]byte
	for i := 0; i+3 <= len(attrs) && i < 3*8; i += 3 {
		data, d := attr(opType, ints, attrs[i], attrs[i+1], attrs[i+2])
		attrList = append(attrList, data)
		descs = append(descs, d)
	}
	outs := make([]string, 1+b.choose(3))
	nodes := [][]byte{DomainNode("com.example", "Mystery", "mystery", []string{"x"}, []string{"u"})}
	var graphOuts [][]byte
	for i := range outs {
		outs[i] = fmt.Sprintf("t%d", i)
		graphOuts = append(graphOuts, Rankless(fmt.Sprintf("y%d", i), Float))
	}
	nodes = append(nodes, NodeAttrs(opType, "n", names, outs, attrList...))
	for i := range outs {
		y := fmt.Sprintf("y%d", i)
		nodes = append(nodes, Node("Identity", "identity_"+y, []string{outs[i]}, []string{y}))
	}
	g := Graph("g", nodes, inits, inputs, graphOuts)
	desc = fmt.Sprintf("%s-%d(%q) -> %d outputs; %s", opType, version, names, len(outs), strings.Join(descs, "; "))
	return WithOpset(Model(version, g), "com.example", 1), desc
}
