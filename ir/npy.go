package ir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNPY is the class of malformed or unsupported .npy data.
var ErrNPY = errors.New("invalid .npy")

var npyMagic = []byte("\x93NUMPY")

// npyDtypes maps NumPy dtype descriptors to element types. bf16 has no
// NumPy dtype: it travels as "<u2" bit patterns.
var npyDtypes = map[string]ElementType{
	"<f2": F16, "<f4": F32, "<f8": F64,
	"|i1": I8, "<i2": I16, "<i4": I32, "<i8": I64,
	"|u1": U8, "<u2": U16, "<u4": U32, "<u8": U64,
	"|b1": Boolean,
}

// NPYDescr returns the NumPy dtype descriptor of t ("<f4"); bf16 is "<u2".
func NPYDescr(t ElementType) (string, bool) {
	if t == BF16 {
		return "<u2", true
	}
	for d, et := range npyDtypes {
		if et == t {
			return d, true
		}
	}
	return "", false
}

// DecodeNPY decodes a .npy file (format versions 1 to 3, C order). The data
// length is checked against the header before anything is allocated.
func DecodeNPY(data []byte) (*Tensor, error) {
	if !bytes.HasPrefix(data, npyMagic) || len(data) < 10 {
		return nil, fmt.Errorf("%w: no NUMPY magic", ErrNPY)
	}
	major := data[6]
	var headerLen, start int
	switch major {
	case 1:
		headerLen, start = int(binary.LittleEndian.Uint16(data[8:10])), 10
	case 2, 3:
		if len(data) < 12 {
			return nil, fmt.Errorf("%w: truncated header", ErrNPY)
		}
		hl := binary.LittleEndian.Uint32(data[8:12])
		if hl > 1<<20 {
			return nil, fmt.Errorf("%w: header of %d bytes", ErrNPY, hl)
		}
		headerLen, start = int(hl), 12
	default:
		return nil, fmt.Errorf("%w: format version %d", ErrNPY, major)
	}
	if len(data)-start < headerLen {
		return nil, fmt.Errorf("%w: truncated header", ErrNPY)
	}
	descr, fortran, shape, err := parseNPYHeader(string(data[start : start+headerLen]))
	if err != nil {
		return nil, err
	}
	if fortran {
		return nil, fmt.Errorf("%w: fortran_order arrays are not supported; save with np.ascontiguousarray", ErrNPY)
	}
	et, ok := npyDtypes[descr]
	if !ok {
		return nil, fmt.Errorf("%w: unsupported dtype %q (irdiv reads little-endian <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1)", ErrNPY, descr)
	}
	body := data[start+headerLen:]
	n, err := NumElements(shape)
	if err != nil {
		return nil, fmt.Errorf("%w: shape %v: %v", ErrNPY, shape, err)
	}
	need, err := ByteSize(et, n)
	if err != nil || int64(len(body)) != need {
		return nil, fmt.Errorf("%w: shape %v of %s needs %d data bytes, file has %d", ErrNPY, shape, descr, need, len(body))
	}
	t, err := NewTensor(et, shape)
	if err != nil {
		return nil, err
	}
	copy(t.Data, body)
	return t, nil
}

// parseNPYHeader reads the Python dict literal of a .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
func parseNPYHeader(h string) (descr string, fortran bool, shape []int64, err error) {
	bad := func(what string) error { return fmt.Errorf("%w: header %s: %q", ErrNPY, what, strings.TrimSpace(h)) }
	value := func(key string) (string, bool) {
		i := strings.Index(h, "'"+key+"'")
		if i < 0 {
			return "", false
		}
		rest := strings.TrimSpace(h[i+len(key)+2:])
		if !strings.HasPrefix(rest, ":") {
			return "", false
		}
		return strings.TrimSpace(rest[1:]), true
	}
	v, ok := value("descr")
	if !ok || len(v) < 2 || (v[0] != '\'' && v[0] != '"') {
		return "", false, nil, bad("without descr")
	}
	end := strings.IndexByte(v[1:], v[0])
	if end < 0 {
		return "", false, nil, bad("with an unterminated descr")
	}
	descr = v[1 : 1+end]
	if v, ok = value("fortran_order"); !ok {
		return "", false, nil, bad("without fortran_order")
	}
	fortran = strings.HasPrefix(v, "True")
	if v, ok = value("shape"); !ok || !strings.HasPrefix(v, "(") {
		return "", false, nil, bad("without shape")
	}
	closeAt := strings.IndexByte(v, ')')
	if closeAt < 0 {
		return "", false, nil, bad("with an unterminated shape")
	}
	shape = []int64{}
	for _, f := range strings.Split(v[1:closeAt], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := strconv.ParseInt(strings.TrimSuffix(f, "L"), 10, 64)
		if err != nil || d < 0 {
			return "", false, nil, bad("with a bad dimension " + strconv.Quote(f))
		}
		shape = append(shape, d)
	}
	return descr, fortran, shape, nil
}

// EncodeNPY encodes a tensor as a version 1.0 .npy file. bf16 is written
// as "<u2" bit patterns.
func EncodeNPY(t *Tensor) ([]byte, error) {
	descr, ok := NPYDescr(t.Type)
	if !ok {
		return nil, fmt.Errorf("%w: no NumPy dtype for %s", ErrNPY, t.Type)
	}
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = strconv.FormatInt(d, 10)
	}
	shape := strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape)
	// Pad with spaces so that magic, length and header end on a 64-byte boundary.
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	out := make([]byte, 0, 10+len(header)+len(t.Data))
	out = append(out, npyMagic...)
	out = append(out, 1, 0)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(header)))
	out = append(out, header...)
	return append(out, t.Data...), nil
}
