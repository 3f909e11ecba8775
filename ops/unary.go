package ops

import (
	"math"

	"github.com/irdiv/irdiv/ir"
)

// The unary element-wise ops keep their input's type and shape. Those that
// evaluate follow OpenVINO's reference kernels; where the reference goes
// through a double for an integer type (Sqrt, Exp, Log, Tanh, Sigmoid) the
// double is converted back as Convert converts a float. f16 and bf16 are
// computed in f32 and rounded to nearest even; Exp, Log, Tanh and Sigmoid
// are computed in float64 and rounded once, which may differ from the C
// library OpenVINO uses in the last place.

// Abs is Abs-1: x < 0 ? -x : x, so Abs(MIN) is MIN, Abs(-0.0) is -0.0 and
// unsigned values are copied.
type Abs = unaryOp[abs]

// Negative is Negative-1: -x, wrapping for integers (unsigned too).
type Negative = unaryOp[negative]

// Sign is Sign-1: -1, 0 or 1 (x < 0 ? -1 : x > 0 ? 1 : 0, so a NaN gives
// 0, unlike NumPy's NaN).
type Sign = unaryOp[sign]

// Floor is Floor-1 (integers are copied).
type Floor = unaryOp[floor]

// Ceiling is Ceiling-1 (integers are copied).
type Ceiling = unaryOp[ceiling]

// Relu is Relu-1: x > 0 ? x : 0, so NaN gives 0.
type Relu = unaryOp[relu]

// Sqrt is Sqrt-1; integers are round(sqrt(double(x))).
type Sqrt = unaryOp[sqrt]

// Exp is Exp-1.
type Exp = unaryOp[exp]

// Log is Log-1.
type Log = unaryOp[log]

// Sigmoid is Sigmoid-1: e = T(exp(-x)), then T(1 / (1 + e)), as the
// reference writes it (integers divide as integers: 1 when e is 0).
type Sigmoid = unaryOp[sigmoid]

// Tanh is Tanh-1; integers are round(tanh(x)).
type Tanh = unaryOp[tanh]

// LogicalNot is LogicalNot-1: !x. OpenVINO accepts any element type (for
// backward compatibility) and gives 1 for zero and 0 otherwise in the
// input's type.
type LogicalNot struct{}

// Round is Round-5, with Mode "half_to_even" (std::nearbyint) or
// "half_away_from_zero" (std::round); integers are copied.
type Round struct{ Mode RoundMode }

// RoundMode is Round-5's mode attribute.
type RoundMode uint8

const (
	HalfToEven RoundMode = iota
	HalfAwayFromZero
)

var roundModes = []string{"half_to_even", "half_away_from_zero"}

func (m RoundMode) String() string { return roundModes[m] }

// Clamp is Clamp-1: x < min ? min : x > max ? max : x (NaN passes). For
// integer types OpenVINO rounds Min up and Max down and saturates them to
// the type's range before clamping (src/core/src/op/clamp.cpp, min_as and
// max_as: ceil and floor, then cmp::lt/gt against the limits), so
// Clamp(min=-1.5, max=3.7) on i32 clamps to [-1, 3] and on u8 to [0, 3].
// Floats compare with Min and Max rounded to the type. OpenVINO has no f64
// evaluate for Clamp; irdiv clamps f64 with the attributes as they are.
type Clamp struct{ Min, Max float64 }

// Elu is Elu-1 (shape only).
type Elu struct{ Alpha float64 }

// Gelu is Gelu-2 or Gelu-7 (shape only); Gelu-7 has Approximation, "erf"
// or "tanh".
type Gelu struct {
	Version       int
	Approximation string
}

// HSwish is HSwish-4 (shape only).
type HSwish = floatActivation[hSwish]

// HSigmoid is HSigmoid-5 (shape only).
type HSigmoid = floatActivation[hSigmoid]

// Mish is Mish-4 (shape only).
type Mish = floatActivation[mish]

// SoftPlus is SoftPlus-4 (shape only).
type SoftPlus = floatActivation[softPlus]

// Swish is Swish-4 (shape only), with an optional scalar beta input.
type Swish struct{}

// unaryOp is the one definition of the unary ops that keep their input's
// type and shape and evaluate with evalUnary (Abs to Tanh): each op is
// unaryOp of its own kind K, a type without fields that names the op and
// its computation. Each op stays a type of its own, so that callers switch
// on *Abs or *Relu.
type unaryOp[K unaryKind] struct{}

// unaryKind is the kind of a unary op: its name and its computation, a
// package variable.
type unaryKind interface{ unary() (string, *unaryFn) }

func (*unaryOp[K]) OpType() (string, string) {
	var k K
	name, _ := k.unary()
	return name, "opset1"
}

func (*unaryOp[K]) Attrs() []ir.Attr { return nil }

func (*unaryOp[K]) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferUnaryArithmetic(in) }

func (*unaryOp[K]) evaluate(in, out []*ir.Tensor, _ Options) error {
	var k K
	_, f := k.unary()
	return evalUnary(in, out, *f)
}

// The kinds of the unary ops.
type (
	abs      struct{}
	negative struct{}
	sign     struct{}
	floor    struct{}
	ceiling  struct{}
	relu     struct{}
	sqrt     struct{}
	exp      struct{}
	log      struct{}
	sigmoid  struct{}
	tanh     struct{}
)

func (abs) unary() (string, *unaryFn)      { return "Abs", &absFn }
func (negative) unary() (string, *unaryFn) { return "Negative", &negativeFn }
func (sign) unary() (string, *unaryFn)     { return "Sign", &signFn }
func (floor) unary() (string, *unaryFn)    { return "Floor", &floorFn }
func (ceiling) unary() (string, *unaryFn)  { return "Ceiling", &ceilingFn }
func (relu) unary() (string, *unaryFn)     { return "Relu", &reluFn }
func (sqrt) unary() (string, *unaryFn)     { return "Sqrt", &sqrtFn }
func (exp) unary() (string, *unaryFn)      { return "Exp", &expFn }
func (log) unary() (string, *unaryFn)      { return "Log", &logFn }
func (sigmoid) unary() (string, *unaryFn)  { return "Sigmoid", &sigmoidFn }
func (tanh) unary() (string, *unaryFn)     { return "Tanh", &tanhFn }

// floatActivation is the one definition of the float activations without
// attributes that irdiv infers and does not evaluate (HSwish, HSigmoid,
// Mish, SoftPlus); its kind K names the op and its version.
type floatActivation[K activationKind] struct{}

// activationKind is the kind of a float activation: its name and version.
type activationKind interface{ activation() (string, int) }

func (*floatActivation[K]) OpType() (string, string) {
	var k K
	name, v := k.activation()
	return name, opset(v)
}

func (*floatActivation[K]) Attrs() []ir.Attr { return nil }

func (*floatActivation[K]) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferFloatActivation(in, 1, 1)
}

// The kinds of the float activations.
type (
	hSwish   struct{}
	hSigmoid struct{}
	mish     struct{}
	softPlus struct{}
)

func (hSwish) activation() (string, int)   { return "HSwish", 4 }
func (hSigmoid) activation() (string, int) { return "HSigmoid", 5 }
func (mish) activation() (string, int)     { return "Mish", 4 }
func (softPlus) activation() (string, int) { return "SoftPlus", 4 }

// registerUnaryOp registers a unaryOp under the name its kind gives.
func registerUnaryOp[K unaryKind]() {
	var k K
	name, _ := k.unary()
	register(name, []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &unaryOp[K]{}, nil }))
}

// registerActivation registers a floatActivation under the name and
// version its kind gives.
func registerActivation[K activationKind]() {
	var k K
	name, v := k.activation()
	register(name, []int{v}, unversioned(func(*ir.Layer) (Op, error) { return &floatActivation[K]{}, nil }))
}

func registerUnary() {
	registerUnaryOp[abs]()
	registerUnaryOp[negative]()
	registerUnaryOp[sign]()
	registerUnaryOp[floor]()
	registerUnaryOp[ceiling]()
	registerUnaryOp[relu]()
	registerUnaryOp[sqrt]()
	registerUnaryOp[exp]()
	registerUnaryOp[log]()
	registerUnaryOp[sigmoid]()
	registerUnaryOp[tanh]()
	registerActivation[hSwish]()
	registerActivation[hSigmoid]()
	registerActivation[mish]()
	registerActivation[softPlus]()
	register("LogicalNot", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &LogicalNot{}, nil }))
	register("Swish", []int{4}, unversioned(func(*ir.Layer) (Op, error) { return &Swish{}, nil }))
	register("Round", []int{5}, unversioned(func(l *ir.Layer) (Op, error) {
		m, err := attrs{l}.enum("mode", "ov::op::v5::Round::RoundMode", roundModes, 0)
		return &Round{RoundMode(m)}, err
	}))
	register("Clamp", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		return &Clamp{Min: a.float("min", 0), Max: a.float("max", 0)}, nil
	}))
	register("Elu", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Elu{Alpha: attrs{l}.float("alpha", 0)}, nil
	}))
	register("Gelu", []int{2, 7}, func(l *ir.Layer, v int) (Op, error) {
		g := &Gelu{Version: v}
		if v == 7 {
			m, err := attrs{l}.enum("approximation_mode", "ov::op::GeluApproximationMode", []string{"tanh", "erf"}, 1)
			if err != nil {
				return nil, err
			}
			g.Approximation = []string{"tanh", "erf"}[m]
		}
		return g, nil
	})
}

// inferUnaryArithmetic is UnaryElementwiseArithmetic's inference.
func inferUnaryArithmetic(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	if t := in[0].Type; t == ir.Boolean || t == ir.String {
		return nil, errorf("%w: This operation does not support input with element type: %s", ErrType, t)
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

// inferFloatActivation keeps the shape of a floating-point input.
func inferFloatActivation(in []ValueInfo, lo, hi int) ([]ValueInfo, error) {
	if err := inputCount(in, lo, hi); err != nil {
		return nil, err
	}
	if t := in[0].Type; t != ir.Dynamic && !t.IsFloat() {
		return nil, errorf("%w: Input element type must be float. Got: %s", ErrType, t)
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

// unaryFn computes a unary op for each kind of element, as arith does.
type unaryFn struct {
	i   func(t ir.ElementType, x int64) (int64, error)
	f32 func(x float32) float32
	f64 func(x float64) float64
}

func evalUnary(in, out []*ir.Tensor, f unaryFn) error {
	src, dst := in[0], out[0]
	t := src.Type
	for i := range src.Len() {
		switch {
		case t.IsInteger():
			v, err := f.i(t, intAt(src, i))
			if err != nil {
				return &DivideError{Index: i, Err: err}
			}
			dst.SetInt64(i, v)
		case isF64(t):
			ir.View[float64](dst)[i] = f.f64(ir.View[float64](src)[i])
		default:
			setF32(dst, i, f.f32(f32At(src, i)))
		}
	}
	return nil
}

// viaDouble applies a double function to an integer and converts back as
// static_cast<T> does.
func viaDouble(g func(float64) float64) func(ir.ElementType, int64) (int64, error) {
	return func(t ir.ElementType, x int64) (int64, error) {
		return floatToInt(g(intToFloat64(t, x)), t), nil
	}
}

// in32 applies a double function to an f32 and rounds the result.
func in32(g func(float64) float64) func(float32) float32 {
	return func(x float32) float32 { return float32(g(float64(x))) }
}

var (
	absFn = unaryFn{
		i: func(t ir.ElementType, x int64) (int64, error) {
			if t.IsSigned() && x < 0 {
				return -x, nil
			}
			return x, nil
		},
		f32: func(x float32) float32 {
			if x < 0 {
				return -x
			}
			return x
		},
		f64: func(x float64) float64 {
			if x < 0 {
				return -x
			}
			return x
		},
	}
	negativeFn = unaryFn{
		i:   func(_ ir.ElementType, x int64) (int64, error) { return -x, nil },
		f32: func(x float32) float32 { return -x },
		f64: func(x float64) float64 { return -x },
	}
	signFn = unaryFn{
		i: func(t ir.ElementType, x int64) (int64, error) {
			switch {
			case x == 0:
				return 0, nil
			case t.IsSigned() && x < 0:
				return -1, nil
			}
			return 1, nil
		},
		f32: func(x float32) float32 { return float32(signFloat(float64(x))) },
		f64: signFloat,
	}
	floorFn = unaryFn{
		i:   func(_ ir.ElementType, x int64) (int64, error) { return x, nil },
		f32: in32(math.Floor),
		f64: math.Floor,
	}
	ceilingFn = unaryFn{
		i:   func(_ ir.ElementType, x int64) (int64, error) { return x, nil },
		f32: in32(math.Ceil),
		f64: math.Ceil,
	}
	reluFn = unaryFn{
		i: func(t ir.ElementType, x int64) (int64, error) {
			if t.IsSigned() && x < 0 {
				return 0, nil
			}
			return x, nil
		},
		f32: func(x float32) float32 {
			if x > 0 {
				return x
			}
			return 0
		},
		f64: func(x float64) float64 {
			if x > 0 {
				return x
			}
			return 0
		},
	}
	sqrtFn = unaryFn{
		i:   viaDouble(func(x float64) float64 { return math.Round(math.Sqrt(x)) }),
		f32: in32(math.Sqrt),
		f64: math.Sqrt,
	}
	expFn  = unaryFn{i: viaDouble(math.Exp), f32: in32(math.Exp), f64: math.Exp}
	logFn  = unaryFn{i: viaDouble(math.Log), f32: in32(math.Log), f64: math.Log}
	tanhFn = unaryFn{
		i:   viaDouble(func(x float64) float64 { return math.Round(math.Tanh(x)) }),
		f32: in32(math.Tanh),
		f64: math.Tanh,
	}
	sigmoidFn = unaryFn{
		i: sigmoidInt,
		f32: func(x float32) float32 {
			e := float32(math.Exp(-float64(x)))
			return 1 / float32(1+e)
		},
		f64: func(x float64) float64 {
			e := math.Exp(-x)
			return 1 / float64(1+e)
		},
	}
	logicalNotFn = unaryFn{
		i: func(_ ir.ElementType, x int64) (int64, error) {
			if x == 0 {
				return 1, nil
			}
			return 0, nil
		},
		f32: func(x float32) float32 {
			if x == 0 {
				return 1
			}
			return 0
		},
		f64: func(x float64) float64 {
			if x == 0 {
				return 1
			}
			return 0
		},
	}
)

func signFloat(x float64) float64 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// sigmoidInt is the integer reference: exp of the negated value read as
// the signed type of the same width, converted to T, then 1 / (1 + e) in
// C++'s promoted arithmetic (int for the 8- and 16-bit types, T for the
// others, where 1 + e can wrap to 0: a division by zero).
func sigmoidInt(t ir.ElementType, x int64) (int64, error) {
	bits := uint(t.Bits())
	signed := x << (64 - bits) >> (64 - bits) // as std::make_signed<T>
	var neg float64
	if bits == 64 && signed == math.MinInt64 {
		neg = -float64(signed) // -MIN wraps in C++; as a double it does not
		if t.IsSigned() {
			neg = float64(signed)
		}
	} else {
		neg = float64(-signed)
		if bits == 32 && signed == math.MinInt32 {
			neg = float64(signed) // int negation wraps back to MIN
		}
	}
	e := floatToInt(math.Exp(neg), t)
	den := e + 1
	if bits >= 32 {
		den = truncTo(t, den)
	} else {
		e = truncTo(t, e) // the type's value, promoted to int
		den = e + 1
	}
	if den == 0 {
		return 0, ErrDivideByZero
	}
	if isU64(t) {
		return int64(1 / uint64(den)), nil
	}
	return 1 / den, nil
}

// truncTo cuts v to t's width and extends it back as intAt reads it.
func truncTo(t ir.ElementType, v int64) int64 {
	bits := uint(t.Bits())
	if bits == 64 {
		return v
	}
	if t.IsSigned() {
		return v << (64 - bits) >> (64 - bits)
	}
	return int64(uint64(v) << (64 - bits) >> (64 - bits))
}

func (*LogicalNot) OpType() (string, string) { return "LogicalNot", "opset1" }
func (*Round) OpType() (string, string)      { return "Round", "opset5" }
func (*Clamp) OpType() (string, string)      { return "Clamp", "opset1" }
func (*Elu) OpType() (string, string)        { return "Elu", "opset1" }
func (g *Gelu) OpType() (string, string)     { return "Gelu", opset(g.Version) }
func (*Swish) OpType() (string, string)      { return "Swish", "opset4" }

func (*LogicalNot) Attrs() []ir.Attr { return nil }
func (r *Round) Attrs() []ir.Attr    { return []ir.Attr{attr("mode", r.Mode.String())} }
func (c *Clamp) Attrs() []ir.Attr {
	return []ir.Attr{attr("min", formatFloat(c.Min)), attr("max", formatFloat(c.Max))}
}
func (e *Elu) Attrs() []ir.Attr { return []ir.Attr{attr("alpha", formatFloat(e.Alpha))} }
func (g *Gelu) Attrs() []ir.Attr {
	if g.Version == 7 {
		return []ir.Attr{attr("approximation_mode", g.Approximation)}
	}
	return nil
}
func (*Swish) Attrs() []ir.Attr { return nil }

func (*Round) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferUnaryArithmetic(in) }
func (*Elu) Infer(in []ValueInfo) ([]ValueInfo, error)   { return inferUnaryArithmetic(in) }

// Infer keeps the input's type and shape, whatever the type.
func (*LogicalNot) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

// Infer checks the type (numeric) and min <= max.
func (c *Clamp) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	if t := in[0].Type; t != ir.Dynamic && !t.IsNumeric() {
		return nil, errorf("%w: Input element type must be numeric. Got: %s", ErrType, t)
	}
	if !(c.Min <= c.Max) {
		return nil, errorf("%w: Attribute 'min' must be less or equal than 'max'. Got: %v and %v", ErrAttribute, c.Min, c.Max)
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

func (*Gelu) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferFloatActivation(in, 1, 1) }

// Infer takes the input and an optional scalar beta of the same type.
func (*Swish) Infer(in []ValueInfo) ([]ValueInfo, error) {
	out, err := inferFloatActivation(in, 1, 2)
	if err != nil || len(in) == 1 {
		return out, err
	}
	if _, ok := mergeTypes(in[0].Type, in[1].Type); !ok {
		return nil, errorf("%w: Swish must have the same type but they are: %s and %s", ErrType, in[0].Type, in[1].Type)
	}
	if r := in[1].Shape.Rank(); r > 0 {
		return nil, errorf("%w: Swish input with beta must be scalar but it has shape: %s", ErrShape, in[1].Shape)
	}
	return out, nil
}

func (*LogicalNot) evaluate(in, out []*ir.Tensor, _ Options) error {
	if in[0].Type == ir.Boolean {
		for i, b := range in[0].Data {
			out[0].Data[i] = b2u(b == 0)
		}
		return nil
	}
	return evalUnary(in, out, logicalNotFn)
}

func (r *Round) evaluate(in, out []*ir.Tensor, _ Options) error {
	round := math.RoundToEven
	if r.Mode == HalfAwayFromZero {
		round = math.Round
	}
	return evalUnary(in, out, unaryFn{
		i:   func(_ ir.ElementType, x int64) (int64, error) { return x, nil },
		f32: in32(round),
		f64: round,
	})
}

func (c *Clamp) evaluate(in, out []*ir.Tensor, _ Options) error {
	t := in[0].Type
	lo, hi := clampBound(t, math.Ceil(c.Min)), clampBound(t, math.Floor(c.Max))
	lo32, hi32 := float32(c.Min), float32(c.Max)
	return evalUnary(in, out, unaryFn{
		i: func(t ir.ElementType, x int64) (int64, error) {
			switch {
			case lessInt(t, x, lo):
				return lo, nil
			case lessInt(t, hi, x):
				return hi, nil
			}
			return x, nil
		},
		f32: func(x float32) float32 { return clampFloat(x, lo32, hi32) },
		f64: func(x float64) float64 { return clampFloat(x, c.Min, c.Max) },
	})
}

func clampFloat[T float32 | float64](x, lo, hi T) T {
	switch {
	case x < lo:
		return lo
	case x > hi:
		return hi
	}
	return x
}

// clampBound saturates a whole double to t's range, giving the bound as
// intAt reads values of t.
func clampBound(t ir.ElementType, f float64) int64 {
	lo, hi := intRange(t)
	switch {
	case f < lo:
		return minInt(t)
	case f >= hi:
		return maxInt(t)
	case isU64(t) && f >= 1<<63:
		return int64(uint64(f))
	}
	return int64(f)
}

// intRange returns [min, max+1) of an integer type as doubles (exact:
// every bound is 0 or a power of two, or its negation).
func intRange(t ir.ElementType) (lo, hi float64) {
	bits := float64(t.Bits())
	if t.IsSigned() {
		return -math.Exp2(bits - 1), math.Exp2(bits - 1)
	}
	return 0, math.Exp2(bits)
}

// minInt and maxInt are an integer type's limits as intAt reads them.
func minInt(t ir.ElementType) int64 {
	if t.IsSigned() {
		return -1 << (t.Bits() - 1)
	}
	return 0
}

func maxInt(t ir.ElementType) int64 {
	switch {
	case t.IsSigned():
		return 1<<(t.Bits()-1) - 1
	case t.Bits() == 64:
		return -1
	}
	return 1<<t.Bits() - 1
}
