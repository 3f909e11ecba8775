package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
)

// literal is a parsed inline value: a number, or a nested rectangular array.
type literal struct {
	shape  []int64
	values []string // number tokens in row-major order
}

// parseLiteral parses "5", "-2.5", "inf", "[1,2]" or "[[1,2],[3,4]]".
func parseLiteral(s string) (*literal, error) {
	p := &literalParser{s: s}
	shape, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("literal %q: unexpected %q at offset %d", s, p.s[p.i:], p.i)
	}
	return &literal{shape: shape, values: p.values}, nil
}

type literalParser struct {
	s      string
	i      int
	values []string
}

const maxLiteralDepth = 32

func (p *literalParser) skipSpace() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

// value parses one number or array and returns its shape.
func (p *literalParser) value(depth int) ([]int64, error) {
	if depth > maxLiteralDepth {
		return nil, fmt.Errorf("literal %q: nested deeper than %d", p.s, maxLiteralDepth)
	}
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		var shape []int64
		n := int64(0)
		for {
			p.skipSpace()
			if p.i < len(p.s) && p.s[p.i] == ']' && n == 0 {
				p.i++
				return []int64{0}, nil
			}
			sub, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				shape = sub
			} else if fmt.Sprint(sub) != fmt.Sprint(shape) {
				return nil, fmt.Errorf("literal %q: ragged array (element %d has shape %v, the first %v)", p.s, n, sub, shape)
			}
			n++
			p.skipSpace()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return append([]int64{n}, shape...), nil
			}
			return nil, fmt.Errorf("literal %q: expected ',' or ']' at offset %d", p.s, p.i)
		}
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(",] \t\r\n[", rune(p.s[p.i])) {
		p.i++
	}
	if start == p.i {
		return nil, fmt.Errorf("literal %q: expected a number at offset %d", p.s, start)
	}
	p.values = append(p.values, p.s[start:p.i])
	return []int64{}, nil
}

// tensor converts the literal to type t; each value must be representable.
func (l *literal) tensor(t ir.ElementType) (*ir.Tensor, error) {
	out, err := ir.NewTensor(t, l.shape)
	if err != nil {
		return nil, err
	}
	for i, tok := range l.values {
		if err := setElement(out, i, tok); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setElement parses tok as a value of the tensor's type into element i.
// Integers must be whole and in range; floats are rounded to nearest even,
// once, from the decimal's nearest float64.
func setElement(t *ir.Tensor, i int, tok string) error {
	if t.Type.IsFloat() {
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil && !isRangeErr(err) {
			return fmt.Errorf("%q is not a number", tok)
		}
		t.SetFloat64(i, f)
		return nil
	}
	bits := t.Type.Bits()
	if t.Type.IsSigned() {
		v, err := strconv.ParseInt(tok, 10, bits)
		if err != nil {
			return fmt.Errorf("%q is not an %s value (whole numbers from %d to %d)", tok, t.Type, int64(-1)<<(bits-1), int64(1)<<(bits-1)-1)
		}
		t.SetInt64(i, v)
		return nil
	}
	v, err := strconv.ParseUint(tok, 10, bits)
	if err != nil {
		return fmt.Errorf("%q is not a %s value (whole numbers from 0 to %d)", tok, t.Type, uint64(math.MaxUint64)>>(64-bits))
	}
	t.SetInt64(i, int64(v)) // the bits of v, for a u64 above 2^63-1
	return nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// readNPY reads a .npy file; a stream (a pipe, a device) may declare at
// most maxBytes. With want set, the file's dtype must be that type (bf16
// travels as <u2); irdiv never casts.
func readNPY(path string, want ir.ElementType, haveWant bool, maxBytes int64) (*ir.Tensor, error) {
	t, err := npy.ReadFile(path, maxBytes)
	if err != nil {
		return nil, err
	}
	if !haveWant {
		return t, nil
	}
	if want == ir.BF16 && t.Type == ir.U16 {
		t.Type = ir.BF16
		return t, nil
	}
	if t.Type != want {
		descr, _ := npy.Descr(t.Type)
		hint := ""
		if want == ir.BF16 {
			hint = " (bf16 travels as <u2 bit patterns)"
		}
		return nil, fmt.Errorf("%s has dtype %s (%s) but the type is %s%s; irdiv never casts", path, descr, t.Type, want, hint)
	}
	return t, nil
}

// formatTensor prints the values nested like the shape, e.g. [[1 2] [3 4]].
func formatTensor(t *ir.Tensor) string {
	var b strings.Builder
	var rec func(dim, offset int) int
	rec = func(dim, offset int) int {
		if dim == len(t.Shape) {
			b.WriteString(t.Format(offset))
			return 1
		}
		b.WriteByte('[')
		stride := 1
		for _, d := range t.Shape[dim+1:] {
			stride *= int(d)
		}
		for i := range int(t.Shape[dim]) {
			if i > 0 {
				b.WriteByte(' ')
			}
			rec(dim+1, offset+i*stride)
		}
		b.WriteByte(']')
		return 0
	}
	rec(0, 0)
	return b.String()
}

// summary prints the first values and the min and max of a tensor.
func summary(t *ir.Tensor, first int) string {
	n := t.Len()
	var vals []string
	for i := range min(n, first) {
		vals = append(vals, t.Format(i))
	}
	more := ""
	if n > first {
		more = " ..."
	}
	if n == 0 {
		return "[] (empty)"
	}
	lo, hi := 0, 0
	for i := 1; i < n; i++ {
		v := t.Float64At(i)
		if v < t.Float64At(lo) || math.IsNaN(t.Float64At(lo)) {
			lo = i
		}
		if v > t.Float64At(hi) || math.IsNaN(t.Float64At(hi)) {
			hi = i
		}
	}
	return fmt.Sprintf("[%s%s] min %s max %s", strings.Join(vals, " "), more, t.Format(lo), t.Format(hi))
}

// shapeString prints a static shape in OpenVINO notation: [2,3].
func shapeString(dims []int64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
