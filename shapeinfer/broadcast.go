package shapeinfer

import (
	"fmt"
	"strings"
)

// Mode is an auto_broadcast type.
type Mode uint8

const (
	// None requires equal shapes (OpenVINO's NONE; "explicit" is an alias).
	None Mode = iota
	// Numpy is multidirectional broadcasting aligned on the right.
	Numpy
	// PDPD broadcasts B into A at an axis (PaddlePaddle's rule).
	PDPD
)

// String returns the IR spelling: "none", "numpy" or "pdpd".
func (m Mode) String() string {
	switch m {
	case None:
		return "none"
	case Numpy:
		return "numpy"
	case PDPD:
		return "pdpd"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode parses an auto_broadcast value case-insensitively; "explicit"
// means none. Unknown values fail with OpenVINO's enum wording.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "none", "explicit":
		return None, nil
	case "numpy":
		return Numpy, nil
	case "pdpd":
		return PDPD, nil
	}
	return 0, fmt.Errorf("shapeinfer: %q is not a member of enum ov::op::AutoBroadcastType (auto_broadcast must be one of none, explicit, numpy, pdpd)", s)
}

// Broadcast is an auto_broadcast specification. Axis matters only for PDPD,
// where -1 means "align B with the end of A". Divide-1's default is
// Broadcast{Mode: Numpy}.
type Broadcast struct {
	Mode Mode
	Axis int64
}

// String prints "numpy", "none" or "pdpd(axis=N)".
func (b Broadcast) String() string {
	if b.Mode == PDPD {
		return fmt.Sprintf("pdpd(axis=%d)", b.Axis)
	}
	return b.Mode.String()
}

func inconsistent(a, b Shape, bc Broadcast) error {
	return fmt.Errorf("shapeinfer: %w (%s and %s, auto_broadcast %s)", ErrShape, a, b, bc)
}

// Elementwise infers the output shape of a binary element-wise operation
// with inputs a and b under bc, exactly as OpenVINO's eltwise_shape_infer.
// Failures wrap ErrShape, whose text is "Argument shapes are inconsistent.".
func Elementwise(a, b Shape, bc Broadcast) (Shape, error) {
	var out Shape
	var ok bool
	switch bc.Mode {
	case None:
		out, ok = mergeShapes(a, b)
	case Numpy:
		out, ok = numpyMerge(a, b)
	case PDPD:
		out, ok = pdpdMerge(a, b, bc.Axis)
	default:
		return Shape{}, fmt.Errorf("shapeinfer: Unsupported auto broadcast specification: %s", bc)
	}
	if !ok {
		return Shape{}, inconsistent(a, b, bc)
	}
	return out, nil
}

// mergeShapes is OpenVINO's PartialShape::merge_into (auto_broadcast none).
func mergeShapes(a, b Shape) (Shape, bool) {
	if a.DynamicRank {
		return clone(b), true
	}
	if b.DynamicRank {
		return clone(a), true
	}
	if len(a.Dims) != len(b.Dims) {
		return Shape{}, false
	}
	out := Shape{Dims: make([]Dim, len(a.Dims))}
	for i := range a.Dims {
		d, ok := Merge(a.Dims[i], b.Dims[i])
		if !ok {
			return Shape{}, false
		}
		out.Dims[i] = d
	}
	return out, true
}

// numpyMerge is PartialShape::broadcast_merge_into with NUMPY.
func numpyMerge(a, b Shape) (Shape, bool) {
	if a.DynamicRank || b.DynamicRank {
		return DynamicRankShape(), true
	}
	rank := max(len(a.Dims), len(b.Dims))
	out := Shape{Dims: make([]Dim, rank)}
	ok := true
	for i := range rank {
		da := padLeft(a, rank, i)
		db := padLeft(b, rank, i)
		d, merged := BroadcastMerge(da, db)
		ok = ok && merged
		out.Dims[i] = d
	}
	return out, ok
}

func padLeft(s Shape, rank, i int) Dim {
	if j := i - (rank - len(s.Dims)); j >= 0 {
		return s.Dims[j]
	}
	return Static(1)
}

// pdpdMerge is PartialShape::broadcast_merge_into with PDPD: B is placed into
// A at axis and the output keeps A's rank.
func pdpdMerge(a, b Shape, axis int64) (Shape, bool) {
	if a.DynamicRank || b.DynamicRank {
		return DynamicRankShape(), true
	}
	ra, rb := int64(len(a.Dims)), int64(len(b.Dims))
	if rb > ra || axis < -1 {
		return Shape{}, false
	}
	if axis == -1 {
		axis = ra - rb
	}
	// OpenVINO's check is rank(B) + axis > rank(A); written this way it
	// cannot overflow for an axis near the int64 limit.
	if axis > ra-rb {
		return Shape{}, false
	}
	out := clone(a)
	for i := range rb {
		da, db := out.Dims[axis+i], b.Dims[i]
		if da.IsStatic() && db.IsStatic() && db.Min > da.Min {
			return Shape{}, false
		}
		d, ok := BroadcastMerge(da, db)
		if !ok {
			return Shape{}, false
		}
		out.Dims[axis+i] = d
	}
	return out, true
}

// PDPDAxis resolves the axis at which B starts inside A for PDPD
// broadcasting of static ranks, as the reference kernel does.
func PDPDAxis(rankA, rankB int, axis int64) int {
	if axis == -1 {
		return rankA - rankB
	}
	return int(axis)
}

func clone(s Shape) Shape {
	if s.DynamicRank {
		return DynamicRankShape()
	}
	return Shape{Dims: append([]Dim{}, s.Dims...)}
}

// BroadcastIndex returns the flat index, in an operand of static shape
// dims broadcast to the output, of the output element at coord; the
// operand's dimensions line up with coord[offset:] (offset is the output
// rank minus the operand's for numpy, the pdpd axis for pdpd), and a
// dimension of size 1 always contributes index 0.
func BroadcastIndex(coord, dims []int64, offset int) int {
	idx := int64(0)
	for j, d := range dims {
		c := coord[offset+j]
		if d == 1 {
			c = 0
		}
		idx = idx*d + c
	}
	return int(idx)
}
