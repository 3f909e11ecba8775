package ops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// randomAttrs are values a layer's <data> may hold, sensible or not.
var randomAttrs = map[string][]string{
	"auto_broadcast": {"numpy", "none", "pdpd"}, AxisAttr: {"-1", "0", "1", "5", "-7"},
	"axis": {"0", "1", "-1", "3", "-5", "9223372036854775807"}, "batch_dims": {"0", "1", "-1", "2", "7"},
	"special_zero": {"true", "false"}, "keep_dims": {"true", "false"}, "num_splits": {"0", "1", "2", "3", "-1"},
	"mode":      {"numpy", "explicit", "bidirectional", "half_to_even", "half_away_from_zero", "nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"},
	"antialias": {"true", "false"}, "cube_coeff": {"-0.75", "-0.5", "1e30", "nan"},
	"output_type": {"i64", "i32", "f32", "u8", "boolean"}, "destination_type": {"i8", "u64", "f16", "bf16", "boolean", "f64"},
	"min": {"-1.5", "0", "3"}, "max": {"2.5", "-4", "6"},
	"begin_mask": {"", "1", "0,1", "1,1,1"}, "end_mask": {"", "1", "1,0,1"}, "new_axis_mask": {"", "1", "0,1"},
	"shrink_axis_mask": {"", "1", "0,0,1"}, "ellipsis_mask": {"", "1", "0,1", "1,1"},
	"strides": {"1", "2,1", "1,1,1", "0,1"}, "dilations": {"1", "1,2", "1,1,1"}, "pads_begin": {"0", "1,0", "0,0,0", "-1,2"},
	"pads_end": {"0", "0,1", "1,1,1"}, "kernel": {"1", "2,2", "3,1,1", "0,1"}, "auto_pad": {"explicit", "same_upper", "valid"},
	"rounding_type": {"floor", "ceil", "ceil_torch"}, "output_padding": {"", "0,1", "1"}, "exclude-pad": {"true"},
	"index_element_type": {"i32", "f32"}, "transpose_a": {"true"}, "transpose_b": {"true"}, "pad_mode": {"constant", "edge", "reflect", "symmetric"},
	"shape_calculation_mode": {"sizes", "scales"}, "epsilon": {"0.001", "-1"}, "alpha": {"1"}, "allow_axis_skip": {"true"},
	"approximation_mode": {"erf", "tanh"}, "levels": {"0", "1", "2", "256", "-1"},
}

// hostileAttrValues are the values at the edges of int64 and of lists
// that any attribute may also get (issue 28: every attribute a rule reads
// is checked before use, for overflow too).
var hostileAttrValues = []string{"9223372036854775807", "-9223372036854775808", "4294967296", "-4294967297",
	"9223372036854775807,9223372036854775807", "-9223372036854775808,1,1", "0,0,0,0,0,0,0,0", "1e400", "nan", ""}

// hostileInts are element values at the edges of int64 that constants
// may hold.
var hostileInts = []int64{1<<63 - 1, -1 << 63, 1 << 32, -1 << 32, 1 << 62, 1<<31 - 1, -1 << 31}

func randomInfo(r *rand.Rand, withValue bool) ValueInfo {
	types := []ir.ElementType{ir.I64, ir.I32, ir.I8, ir.U8, ir.U64, ir.F32, ir.F16, ir.BF16, ir.F64, ir.Boolean, ir.Dynamic, ir.U4}
	t := types[r.IntN(len(types))]
	if r.IntN(3) == 0 {
		t = ir.I64
	}
	var shape shapeinfer.Shape
	switch r.IntN(8) {
	case 0:
		shape = shapeinfer.DynamicRankShape()
	default:
		rank := r.IntN(5)
		shape.Dims = make([]shapeinfer.Dim, rank)
		for i := range shape.Dims {
			switch r.IntN(6) {
			case 0:
				shape.Dims[i] = shapeinfer.Dynamic()
			case 1:
				shape.Dims[i] = shapeinfer.Interval(r.Int64N(3), 2+r.Int64N(4))
			default:
				shape.Dims[i] = shapeinfer.Static(r.Int64N(4))
			}
		}
	}
	info := ValueInfo{Type: t, Shape: shape}
	if dims, ok := shape.ToStatic(); ok && withValue && (t.IsNumeric() || t == ir.Boolean) {
		v, err := ir.NewTensor(t, dims)
		if err == nil {
			for i := range v.Len() {
				if t.IsFloat() {
					v.SetFloat64(i, float64(r.IntN(9)-4)/2)
				} else {
					v.SetInt64(i, int64(r.IntN(9)-4))
				}
			}
			info.Value = v
		}
	}
	return info
}

// TestRandomLayersNeverPanic builds every op irdiv knows from random
// attributes, infers it on random inputs (types, ranks, intervals, dynamic
// ranks, small values) and evaluates it where inference gives static
// shapes: each must return or fail with an error, never panic.
func TestRandomLayersNeverPanic(t *testing.T) {
	for seed := range uint64(8) {
		randomLayers(t, seed, false)
	}
}

// TestHostileLayersNeverPanic is TestRandomLayersNeverPanic with
// attributes and constant elements at the edges of int64 (2^63-1, -2^63,
// 2^32, lists of them, numbers istringstream cannot read).
func TestHostileLayersNeverPanic(t *testing.T) {
	for seed := range uint64(8) {
		randomLayers(t, 100+seed, true)
	}
}

func randomLayers(t *testing.T, seed uint64, hostile bool) {
	r := rand.New(rand.NewPCG(seed, 12))
	names := make([]string, 0, len(registry))
	for k := range registry {
		names = append(names, k)
	}
	slices.Sort(names)
	attrNames := make([]string, 0, len(randomAttrs))
	for k := range randomAttrs {
		attrNames = append(attrNames, k)
	}
	slices.Sort(attrNames)
	trials := 40000
	if testing.Short() {
		trials = 4000
	}
	evaluated := 0
	for trial := range trials {
		info := registry[names[r.IntN(len(names))]]
		l := &ir.Layer{ID: 1, Name: "r", Type: info.name, Version: opset(1 + r.IntN(15))}
		for _, a := range attrNames {
			if r.IntN(3) == 0 {
				v := randomAttrs[a]
				if hostile && r.IntN(3) == 0 {
					v = hostileAttrValues
				}
				l.Data = append(l.Data, ir.Attr{Name: a, Value: v[r.IntN(len(v))]})
			}
		}
		l.Outputs = []*ir.Port{{Type: ir.F32, Dims: []int64{2}}}
		// Inputs that often fit: the data first, then index-like
		// vectors and scalars of the same or an integer type.
		in := make([]ValueInfo, 1+r.IntN(5))
		for i := range in {
			in[i] = randomInfo(r, r.IntN(5) > 0)
			if v := in[i].Value; hostile && v != nil && !v.Type.IsFloat() && v.Type != ir.Boolean && v.Len() > 0 && r.IntN(2) == 0 {
				v.SetInt64(r.IntN(v.Len()), hostileInts[r.IntN(len(hostileInts))])
			}
			if i > 0 && r.IntN(2) == 0 {
				if r.IntN(2) == 0 {
					in[i].Type = in[0].Type
				} else {
					in[i].Type = ir.I64
				}
				if in[i].Type != ir.Dynamic && !in[i].Shape.DynamicRank && len(in[i].Shape.Dims) > 1 {
					in[i].Shape.Dims = in[i].Shape.Dims[:1]
				}
				in[i] = retype(in[i])
			}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("trial %d: %s %s %v on %s: panic %v", trial, l.Type, l.Version, l.Data, describe(in), p)
				}
			}()
			op, err := New(l)
			if err != nil {
				return
			}
			out, err := InferFold(op, in)
			if err != nil || !Evaluable(op) {
				return
			}
			var tensors []*ir.Tensor
			for _, v := range in {
				if v.Value == nil {
					return
				}
				tensors = append(tensors, v.Value)
			}
			res, err := Evaluate(op, tensors, Options{MaxTensorBytes: 1 << 16})
			if err != nil {
				return
			}
			evaluated++
			for i, o := range res {
				if o.Type != out[i].Type || !out[i].Shape.Compatible(o.Shape) {
					t.Errorf("trial %d: %s %v: output %d is %s%v, inference said %s", trial, l.Type, l.Data, i, o.Type, o.Shape, out[i])
				}
			}
		}()
	}
	t.Logf("seed %d: %d of %d trials evaluated", seed, evaluated, trials)
	if evaluated < trials/100 {
		t.Errorf("only %d of %d trials evaluated", evaluated, trials)
	}
}

// retype gives an info whose type or shape changed a value to match.
func retype(v ValueInfo) ValueInfo {
	v.Value = nil
	dims, ok := v.Shape.ToStatic()
	if !ok || !(v.Type.IsNumeric() || v.Type == ir.Boolean) {
		return v
	}
	t, err := ir.NewTensor(v.Type, dims)
	if err != nil {
		return v
	}
	for i := range t.Len() {
		t.SetInt64(i, int64(i%5)-1)
	}
	v.Value = t
	return v
}

func describe(in []ValueInfo) string {
	s := make([]string, len(in))
	for i, v := range in {
		s[i] = v.String()
		if v.Value != nil {
			s[i] += fmt.Sprint(v.Value)
		}
	}
	return strings.Join(s, ", ")
}
