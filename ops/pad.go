package ops

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// irdiv infers Pad and does not evaluate it (Evaluate gives
// ErrUnsupportedOp).

// Pad is Pad-1 or Pad-12 (which allows negative pads): inputs data,
// pads_begin, pads_end and an optional pad_value, with PadMode constant,
// edge, reflect or symmetric.
type Pad struct {
	Version int
	PadMode string
}

func registerPad() {
	register("Pad", []int{1, 12}, func(l *ir.Layer, v int) (Op, error) {
		m, err := attrs{l}.enum("pad_mode", "ov::op::PadMode", padModes, 0)
		return &Pad{Version: v, PadMode: padModes[m]}, err
	})
}

var padModes = []string{"constant", "edge", "reflect", "symmetric"}

func (p *Pad) OpType() (string, string) { return "Pad", opset(p.Version) }
func (p *Pad) Attrs() []ir.Attr         { return []ir.Attr{attr("pad_mode", p.PadMode)} }

// padDim is dim::padded: a result below zero is an unknown dimension.
func padDim(d shapeinfer.Dim, pad int64) shapeinfer.Dim {
	if pad == 0 {
		return d
	}
	f := func(x int64) int64 {
		if x == unbounded || x+pad < 0 {
			return -1
		}
		return satAdd(x, pad)
	}
	if d.IsStatic() {
		if v := f(d.Max); v >= 0 {
			return shapeinfer.Static(v)
		}
		return shapeinfer.Dynamic()
	}
	return shapeinfer.Interval(f(d.Min), f(d.Max))
}

func (p *Pad) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 4); err != nil {
		return nil, err
	}
	for i, name := range []string{"pads_begin", "pads_end"} {
		if err := checkIntegral(in[1+i].Type, name); err != nil {
			return nil, err
		}
		if r := in[1+i].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Argument for %s is not 1D (shape: %s).", ErrShape, name, in[1+i].Shape)
		}
	}
	if len(in) == 4 {
		if r := in[3].Shape.Rank(); r > 0 {
			return nil, errorf("%w: Argument for padding value is not a scalar (shape: %s).", ErrShape, in[3].Shape)
		}
		if _, ok := mergeTypes(in[0].Type, in[3].Type); !ok {
			return nil, errorf("%w: Argument element types do not match (input arg element type: %s, arg_pad_value element type: %s).", ErrType, in[0].Type, in[3].Type)
		}
	}
	data := in[0].Shape
	result := func(s shapeinfer.Shape) ([]ValueInfo, error) { return []ValueInfo{{Type: in[0].Type, Shape: s}}, nil }
	if data.DynamicRank {
		return result(data)
	}
	rules, known, err := p.rules(in)
	if err != nil {
		return nil, err
	}
	if !known {
		return result(dynamicShape(len(data.Dims)))
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(data.Dims))}
	for i, r := range rules {
		out.Dims[i] = padDim(data.Dims[i], r.Add)
	}
	return result(out)
}

// rules reads and checks the pads (known is false without their values).
func (p *Pad) rules(in []ValueInfo) (rules []SpatialRule, known bool, err error) {
	data := in[0].Shape
	begin, ok1 := constInts(in[1])
	end, ok2 := constInts(in[2])
	if data.DynamicRank || !ok1 || !ok2 {
		return nil, false, nil
	}
	rank := len(data.Dims)
	if len(begin) != rank || len(end) != rank {
		return nil, false, errorf("%w: Number of elements of pads_begin (%d) and pads_end (%d) must equal the input rank %d", ErrShape, len(begin), len(end), rank)
	}
	for i, d := range data.Dims {
		b, e := begin[i], end[i]
		if p.Version == 1 && (b < 0 || e < 0) {
			return nil, false, errorf("%w: Pad-1 pads must be non-negative, got pads_begin %v and pads_end %v", ErrAttribute, begin, end)
		}
		if d.IsStatic() {
			switch p.PadMode {
			case "edge":
				if (b > 0 || e > 0) && d.Min < 1 {
					return nil, false, errorf("%w: EDGE padding mode requires an input of dimension of at least 1 at each spatial axis.", ErrShape)
				}
			case "reflect":
				if b >= d.Min || e >= d.Min {
					return nil, false, errorf("%w: REFLECT padding mode requires that 'pads_begin[D]' and 'pads_end[D]' be at most one less than the dimension of the input at axis D.", ErrShape)
				}
			case "symmetric":
				if b > d.Min || e > d.Min {
					return nil, false, errorf("%w: SYMMETRIC padding mode requires that 'pads_begin[D]' and 'pads_end[D]' be at most the dimension of the input at axis D.", ErrShape)
				}
			}
		}
		rules = append(rules, SpatialRule{Axis: i, Mul: 1, Add: b + e, Div: 1, MinIn: max(-(b + e), 0)})
	}
	return rules, true, nil
}

// SpatialRules are out = in + pads_begin + pads_end on every axis.
func (p *Pad) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	if err := inputCount(in, 3, 4); err != nil {
		return nil, err
	}
	rules, known, err := p.rules(in)
	if err == nil && !known {
		err = errorf("%w: Pad rules need the pads' values and the data rank", ErrShape)
	}
	return rules, err
}
