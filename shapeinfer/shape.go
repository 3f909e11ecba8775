package shapeinfer

import (
	"errors"
	"fmt"
	"strings"
)

// ErrShape is the class of every shape inference failure; test it with errors.Is.
var ErrShape = errors.New("Argument shapes are inconsistent.")

// Shape is a partial shape: either of dynamic rank, or a list of dimensions.
// The zero value is the static scalar shape [].
type Shape struct {
	Dims        []Dim
	DynamicRank bool
}

// DynamicRankShape returns the shape of unknown rank, printed "[...]".
func DynamicRankShape() Shape { return Shape{DynamicRank: true} }

// StaticShape returns the static shape with the given dimensions.
func StaticShape(dims ...int64) Shape {
	s := Shape{Dims: make([]Dim, len(dims))}
	for i, n := range dims {
		s.Dims[i] = Static(n)
	}
	return s
}

// Rank returns the number of dimensions, or -1 for dynamic rank.
func (s Shape) Rank() int {
	if s.DynamicRank {
		return -1
	}
	return len(s.Dims)
}

// IsStatic reports whether the rank and every dimension are static.
func (s Shape) IsStatic() bool {
	if s.DynamicRank {
		return false
	}
	for _, d := range s.Dims {
		if !d.IsStatic() {
			return false
		}
	}
	return true
}

// ToStatic returns the dimensions of a static shape; ok is false otherwise.
func (s Shape) ToStatic() (dims []int64, ok bool) {
	if !s.IsStatic() {
		return nil, false
	}
	dims = make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		dims[i] = d.Min
	}
	return dims, true
}

// Compatible reports whether the static dims lie inside the partial shape.
func (s Shape) Compatible(dims []int64) bool {
	if s.DynamicRank {
		return true
	}
	if len(dims) != len(s.Dims) {
		return false
	}
	for i, d := range s.Dims {
		if !d.Contains(dims[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether two shapes are identical.
func (s Shape) Equal(t Shape) bool {
	if s.DynamicRank || t.DynamicRank {
		return s.DynamicRank == t.DynamicRank
	}
	if len(s.Dims) != len(t.Dims) {
		return false
	}
	for i := range s.Dims {
		if s.Dims[i] != t.Dims[i] {
			return false
		}
	}
	return true
}

// String prints the shape in OpenVINO notation: "[?,3,2..224]" or "[...]".
func (s Shape) String() string {
	if s.DynamicRank {
		return "[...]"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s.Dims {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d.String())
	}
	b.WriteByte(']')
	return b.String()
}

// ParseShape parses a shape in OpenVINO notation, with or without brackets
// and with white space around fields: "[?,3,2..224]", "1, 1, 512, 512",
// "..." (dynamic rank) or "" (a scalar).
func ParseShape(text string) (Shape, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" {
		return Shape{Dims: []Dim{}}, nil
	}
	if s == "..." {
		return DynamicRankShape(), nil
	}
	fields := strings.Split(s, ",")
	shape := Shape{Dims: make([]Dim, len(fields))}
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			return Shape{}, fmt.Errorf("shapeinfer: Cannot get vector of dimensions! %q is incorrect", text)
		}
		if f == "..." {
			return Shape{}, fmt.Errorf("shapeinfer: Cannot parse dimension: %q (dynamic rank \"...\" must stand alone)", f)
		}
		d, err := ParseDim(f)
		if err != nil {
			return Shape{}, err
		}
		shape.Dims[i] = d
	}
	return shape, nil
}

// MustParseShape is ParseShape for shapes known to be valid: it panics on
// an error. For literals in code and tests.
func MustParseShape(text string) Shape {
	s, err := ParseShape(text)
	if err != nil {
		panic(err)
	}
	return s
}
