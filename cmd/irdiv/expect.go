package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
)

// readTensor reads an input or expected tensor: ONNX's TensorProto for
// a .pb file, NumPy's format otherwise. With want set, the dtype must be
// that type (bf16 travels in .npy as <u2); irdiv never casts.
func readTensor(path string, want ir.ElementType, haveWant bool, maxBytes int64) (*ir.Tensor, error) {
	if strings.EqualFold(filepath.Ext(path), ".pb") {
		t, _, err := onnx.ReadTensorFile(path, pbOptions(maxBytes))
		if err != nil {
			return nil, err
		}
		if haveWant && t.Type != want {
			return nil, fmt.Errorf("%s holds %s but the type is %s; irdiv never casts", path, t.Type, want)
		}
		return t, nil
	}
	return readNPY(path, want, haveWant, maxBytes)
}

// readExpected reads the --expected values before the model runs: one
// ONNX test data folder, whose output_N.pb files are matched to the
// outputs by tensor name; or files (.npy, .pb), one per output in output
// order.
func readExpected(values []string, outputs []plugin.Port, maxBytes int64) (map[int]dataFile, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) == 1 && isDir(values[0]) {
		return matchDataSet("--expected", values[0], "output", portTargets(outputs, "output"), nil, maxBytes)
	}
	for _, v := range values {
		if isDir(v) {
			return nil, usageErr("--expected %s: a test data folder gives every output; give it alone, or one file per output", v)
		}
	}
	if len(values) != len(outputs) {
		return nil, fmt.Errorf("--expected gives %d tensors for the model's %d outputs", len(values), len(outputs))
	}
	out := make(map[int]dataFile, len(values))
	for i, v := range values {
		t, err := readTensor(v, outputs[i].Type, true, maxBytes)
		if err != nil {
			return nil, err
		}
		out[outputs[i].Index] = dataFile{v, t}
	}
	return out, nil
}

// tolerance is how close a float output must be to its expected value,
// as ONNX's backend test runner checks its node tests (numpy's
// assert_allclose): |got - want| <= atol + rtol*|want|, NaN equal to NaN,
// infinities equal only to themselves. Integers and bools are compared
// exactly, whatever the tolerance.
type tolerance struct {
	rtol, atol float64
}

// onnxTolerance is the ONNX backend runner's default (onnx/backend/test/
// loader: rtol = 1e-3, atol = 1e-7).
var onnxTolerance = tolerance{rtol: 1e-3, atol: 1e-7}

func (tol tolerance) String() string {
	if tol.rtol == 0 && tol.atol == 0 {
		return "exactly"
	}
	return fmt.Sprintf("within rtol %g, atol %g", tol.rtol, tol.atol)
}

// excess is by how much element g misses w: 0 when it is within tol, +Inf
// when no tolerance admits it (a NaN against a number, the wrong
// infinity), otherwise |g - w| - (atol + rtol*|w|).
func (tol tolerance) excess(g, w float64) float64 {
	switch {
	case math.IsNaN(g) || math.IsNaN(w):
		if math.IsNaN(g) && math.IsNaN(w) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(g, 0) || math.IsInf(w, 0):
		if g == w {
			return 0
		}
		return math.Inf(1)
	}
	return max(0, math.Abs(g-w)-(tol.atol+tol.rtol*math.Abs(w)))
}

// mismatch is one element where a result differs from its expected value.
type mismatch struct {
	index     int
	got, want string
	excess    float64 // by how much it misses the tolerance (floats)
}

// comparison is what compare found.
type comparison struct {
	count int        // elements that differ
	first []mismatch // the first few of them
	worst mismatch   // the float element that misses by the most
	exact bool       // every element is bit-equal
}

// compare finds the elements of got that differ from want: integers and
// bools must be equal, floats within tol.
func compare(got, want *ir.Tensor, tol tolerance, first int) comparison {
	c := comparison{exact: true, worst: mismatch{index: -1}}
	size := got.Type.Size()
	for i := range got.Len() {
		g, w := got.Data[i*size:(i+1)*size], want.Data[i*size:(i+1)*size]
		if string(g) == string(w) {
			continue
		}
		c.exact = false
		var ex float64
		if got.Type.IsFloat() {
			if ex = tol.excess(got.Float64At(i), want.Float64At(i)); ex == 0 {
				continue
			}
		}
		m := mismatch{i, got.Format(i), want.Format(i), ex}
		c.count++
		if len(c.first) < first {
			c.first = append(c.first, m)
		}
		if got.Type.IsFloat() && (c.worst.index < 0 || ex > c.worst.excess) {
			c.worst = m
		}
	}
	return c
}

// checkExpected compares an output with its expected tensor, printing the
// differences with operands(i), the operands that gave element i (or ""
// when unknown). It returns an error when they differ.
func checkExpected(w io.Writer, name string, got, want *ir.Tensor, path string, tol tolerance, operands func(i int) string) error {
	if got.Type != want.Type || !slices.Equal(got.Shape, want.Shape) {
		return fmt.Errorf("output %q is %s%s, %s expects %s%s", name, got.Type, shapeString(got.Shape), path, want.Type, shapeString(want.Shape))
	}
	c := compare(got, want, tol, 10)
	if c.count == 0 {
		how := "exactly"
		if !c.exact && got.Type.IsFloat() {
			how = tol.String()
		}
		fmt.Fprintf(w, "       matches %s (%d values, %s)\n", path, got.Len(), how)
		return nil
	}
	how := "exactly"
	if got.Type.IsFloat() {
		how = tol.String()
	}
	fmt.Fprintf(w, "       differs from %s in %d of %d values (compared %s):\n", path, c.count, got.Len(), how)
	for _, m := range c.first {
		fmt.Fprintf(w, "         [%d] got %s, expected %s%s\n", m.index, m.got, m.want, operands(m.index))
	}
	worst := ""
	if c.worst.index >= 0 {
		fmt.Fprintf(w, "         worst [%d] got %s, expected %s%s\n", c.worst.index, c.worst.got, c.worst.want, operands(c.worst.index))
		worst = fmt.Sprintf("; worst at flat index %d: got %s, expected %s", c.worst.index, c.worst.got, c.worst.want)
	}
	f := c.first[0]
	return fmt.Errorf("output %q differs from %s in %d of %d values, compared %s (first at flat index %d: got %s, expected %s%s)", name, path, c.count, got.Len(), how, f.index, f.got, f.want, worst)
}

// operandsOf returns, for the output of a model computed by a Divide whose
// inputs are model inputs or constants, the text " (a / b)" of the
// operands of each of its elements; "" where they are not known.
func operandsOf(m *ir.Model, req *plugin.InferRequest, result string, outShape []int64) func(int) string {
	none := func(int) string { return "" }
	var res *ir.Layer
	for _, l := range m.Results() {
		if l.Name == result {
			res = l
		}
	}
	if res == nil {
		return none
	}
	src, ok := m.Input(res, 0)
	if !ok {
		return none
	}
	op, err := ops.New(src.Layer)
	d, isDivide := op.(*ops.Divide)
	if err != nil || !isDivide {
		return none
	}
	var operands [2]*ir.Tensor
	for i := range operands {
		in, ok := m.Input(src.Layer, i)
		switch {
		case !ok:
			return none
		case in.Layer.Constant != nil:
			operands[i] = in.Layer.Constant
		case strings.EqualFold(in.Layer.Type, "Parameter"):
			if operands[i], err = req.Tensor(in.Layer.Name); err != nil {
				return none
			}
		default:
			return none
		}
	}
	a, b := operands[0], operands[1]
	aOffset, bOffset := len(outShape)-len(a.Shape), len(outShape)-len(b.Shape)
	if d.Broadcast.Mode == shapeinfer.PDPD {
		aOffset, bOffset = 0, shapeinfer.PDPDAxis(len(a.Shape), len(b.Shape), d.Broadcast.Axis)
	}
	return func(flat int) string {
		coord := make([]int64, len(outShape))
		for i := len(outShape) - 1; i >= 0; i-- {
			coord[i] = int64(flat) % outShape[i]
			flat /= int(outShape[i])
		}
		return fmt.Sprintf(" (%s / %s)", a.Format(shapeinfer.BroadcastIndex(coord, a.Shape, aOffset)), b.Format(shapeinfer.BroadcastIndex(coord, b.Shape, bOffset)))
	}
}
