package ops

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
)

// opInfo describes one OpenVINO operation type: its name, the versions it
// has had (each named after the opset that introduced it, as OpenVINO's
// documentation and serializer do: ShapeOf-1 is ov::op::v0::ShapeOf,
// written version="opset1") and the builder of the versions irdiv knows.
type opInfo struct {
	name     string
	versions []int
	build    func(l *ir.Layer, version int) (Op, error)
	// nested builds the ops that hold bodies (If, Loop, TensorIterator), given how deep
	// in bodies the layer is, so that nesting is bounded.
	nested func(l *ir.Layer, version, depth int) (Op, error)
}

// maxOpset is the newest opset irdiv knows.
const maxOpset = 16

// opset16 is OpenVINO's opset16, which holds only a few earlier ops
// besides its new ones (src/core/include/openvino/opsets/opset16_tbl.hpp:
// "Add remaining operators from opset15 at the end of opset16
// development" never happened); its types here, lower case, with the
// version each has.
var opset16 = map[string]int{"parameter": 1, "convert": 1, "shapeof": 3, "avgpool": 16}

var registry = map[string]*opInfo{}

func register(name string, versions []int, build func(*ir.Layer, int) (Op, error)) {
	registry[strings.ToLower(name)] = &opInfo{name: name, versions: versions, build: build}
}

// unversioned adapts a builder of a single-version op.
func unversioned(build func(*ir.Layer) (Op, error)) func(*ir.Layer, int) (Op, error) {
	return func(l *ir.Layer, _ int) (Op, error) { return build(l) }
}

func init() {
	register("Parameter", []int{1}, unversioned(newParameter))
	register("Constant", []int{1}, unversioned(newConst))
	registry["const"] = registry["constant"]
	register("Result", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &Result{}, nil }))
	register("Divide", []int{1}, unversioned(func(l *ir.Layer) (Op, error) { return divideFromLayer(l) }))
	register("Convert", []int{1}, newConvert)
	registerBinary()
	registerSelect()
	registerUnary()
	registerShapeOf()
	registerGatherSlice()
	registerConcatSplit()
	registerReshape()
	registerBroadcast()
	registerRange()
	registerReductions()
	registerMatMul()
	registerPad()
	registerInterpolate()
	registerNormalize()
	registerConvolutions()
	registerFakeQuantize()
	registerControlFlow()
}

// New builds the op of a layer. The type is matched case-insensitively
// (with OpenVINO's spellings ReLU, SoftMax and Const), and its version is
// the newest one the layer's opset contains: Gather in opset8 and later is
// Gather-8, in opset7 Gather-7, in opset1 to opset6 Gather-1.
//
// Everything that stops irdiv from knowing the op is an error wrapping
// ErrUnsupportedOp, so that callers keep such a layer opaque with its
// declared ports: a type irdiv does not know; an opset other than
// opset1..opset16 ("Cannot create Relu layer r id:3 from unsupported
// opset: extension", OpenVINO's words); a type the opset does not contain
// ("Opset opset3 doesn't contain the operation with type: Round"); or a
// version irdiv does not implement (Interpolate-1).
func New(l *ir.Layer) (Op, error) { return newAt(l, 0) }

// newAt is New for a layer inside depth bodies.
func newAt(l *ir.Layer, depth int) (Op, error) {
	typ := strings.ToLower(l.Type)
	info, known := registry[typ]
	n, err := strconv.Atoi(strings.TrimPrefix(l.Version, "opset"))
	if !strings.HasPrefix(l.Version, "opset") || err != nil || n < 1 || n > maxOpset {
		if !known {
			return nil, &LayerError{l, errorf("%w: irdiv cannot execute %s (%s)", ErrUnsupportedOp, l.Type, l.Version)}
		}
		return nil, &LayerError{l, errorf("%w: Cannot create %s layer %s id:%d from unsupported opset: %s", ErrUnsupportedOp, l.Type, l.Name, l.ID, l.Version)}
	}
	if !known {
		return nil, &LayerError{l, errorf("%w: irdiv cannot execute %s (%s)", ErrUnsupportedOp, l.Type, l.Version)}
	}
	version, ok := info.versionIn(n)
	if !ok {
		return nil, &LayerError{l, errorf("%w: Opset %s doesn't contain the operation with type: %s", ErrUnsupportedOp, l.Version, info.name)}
	}
	var op Op
	if info.nested != nil {
		op, err = info.nested(l, version, depth)
	} else {
		op, err = info.build(l, version)
	}
	if err != nil {
		return nil, &LayerError{l, err}
	}
	return op, nil
}

// versionIn returns the version of the op that opset n contains.
func (info *opInfo) versionIn(n int) (int, bool) {
	if n == 16 {
		v, ok := opset16[strings.ToLower(info.name)]
		return v, ok
	}
	i, found := slices.BinarySearch(info.versions, n)
	if found {
		return n, true
	}
	if i == 0 {
		return 0, false
	}
	return info.versions[i-1], true
}

// unsupportedVersion is the error of a version irdiv does not implement.
func unsupportedVersion(name string, version int) error {
	return errorf("%w: irdiv does not implement %s-%d", ErrUnsupportedOp, name, version)
}

// Supported reports whether irdiv knows the layer's op: New builds it.
func Supported(l *ir.Layer) bool {
	_, err := New(l)
	return err == nil
}

// Evaluable reports whether Evaluate can compute op (for some element
// types: the types are checked when it runs).
func Evaluable(op Op) bool {
	if b, ok := op.(bodyHolder); ok {
		return b.bodiesEvaluable()
	}
	if p, ok := op.(partialEvaluator); ok && !p.evaluates() {
		return false
	}
	_, ok := op.(evaluator)
	_, dynamic := op.(dynamicEvaluator)
	return ok || dynamic
}

// partialEvaluator is implemented by ops that evaluate some of their
// attributes' values only (Interpolate: not every mode).
type partialEvaluator interface {
	evaluates() bool
}

// OpVersion is one version of an op that irdiv knows, as Catalog lists it.
type OpVersion struct {
	Name    string // OpenVINO's spelling: ShapeOf, Divide
	Version int    // named after the opset that introduced it (ShapeOf-3)
	// Implemented is false for a version irdiv knows of but does not
	// build (Interpolate-1); Evaluates tells whether Evaluate computes it,
	// so that a model of it runs, or only its types and shapes are known.
	Implemented, Evaluates bool
}

// Catalog lists every op version of the registry, sorted by name and
// version: the one source of the op lists in the documentation.
func Catalog() []OpVersion {
	var out []OpVersion
	for key, info := range registry {
		if key != strings.ToLower(info.name) {
			continue // an alias (Const)
		}
		for _, v := range info.versions {
			l := &ir.Layer{Type: info.name, Version: "opset" + strconv.Itoa(v)}
			var op Op
			var err error
			if info.nested != nil {
				op, err = info.nested(l, v, 0)
			} else {
				op, err = info.build(l, v)
			}
			ov := OpVersion{Name: info.name, Version: v, Implemented: !errors.Is(err, ErrUnsupportedOp)}
			switch op.(type) {
			case nil:
				// Parameter and Const need their attributes to be built,
				// If and Loop their bodies: the model's inputs and
				// constants, and ops that evaluate their bodies.
				ov.Evaluates = ov.Implemented
			case *Parameter, *Const, *Result, *Divide:
				ov.Evaluates = true
			default:
				ov.Evaluates = Evaluable(op)
			}
			out = append(out, ov)
		}
	}
	slices.SortFunc(out, func(a, b OpVersion) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), a.Version-b.Version)
	})
	return out
}
