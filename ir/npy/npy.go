// Package npy reads and writes NumPy .npy files (format versions 1 to 3,
// C order, little-endian) as ir.Tensors, the way image/png sits beside
// image: the format is separate from the tensor it carries.
//
// NumPy has no bfloat16: bf16 tensors are written as "<u2" bit patterns and
// read back as u16; callers that know the type relabel them.
//
// Reading is bounded: the header is read and checked first, the declared
// data size is compared with the file's size (or, for a stream, with a
// cap) before anything is allocated, and then exactly that many bytes are
// read.
package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/ir"
)

// ErrFormat is the class of malformed or unsupported .npy data.
var ErrFormat = errors.New("malformed .npy")

var magic = []byte("\x93NUMPY")

// dtypes maps NumPy dtype descriptors to element types. bf16 has no
// NumPy dtype: it travels as "<u2" bit patterns.
var dtypes = map[string]ir.ElementType{
	"<f2": ir.F16, "<f4": ir.F32, "<f8": ir.F64,
	"|i1": ir.I8, "<i2": ir.I16, "<i4": ir.I32, "<i8": ir.I64,
	"|u1": ir.U8, "<u2": ir.U16, "<u4": ir.U32, "<u8": ir.U64,
	"|b1": ir.Boolean,
}

// Descr returns the NumPy dtype descriptor of t ("<f4"); bf16 is "<u2".
func Descr(t ir.ElementType) (string, bool) {
	if t == ir.BF16 {
		return "<u2", true
	}
	for d, et := range dtypes {
		if et == t {
			return d, true
		}
	}
	return "", false
}

// maxHeader bounds the header of version 2 and 3 files.
const maxHeader = 1 << 20

// npyError is an error of this package: it names the package once.
type npyError struct{ err error }

func (e *npyError) Error() string { return "npy: " + e.err.Error() }
func (e *npyError) Unwrap() error { return e.err }

// Decode decodes a whole .npy file held in memory.
func Decode(data []byte) (*ir.Tensor, error) {
	return Read(bytes.NewReader(data), int64(len(data)))
}

// Read reads one .npy file from r. maxBytes bounds the whole file, header
// and declared data: the size of the file when it is known, or a cap for a
// stream (0 means ir.MaxTensorBytes). Data past the declared size is an
// error.
func Read(r io.Reader, maxBytes int64) (*ir.Tensor, error) {
	t, err := read(r, maxBytes)
	if err != nil {
		return nil, &npyError{err}
	}
	return t, nil
}

func read(r io.Reader, maxBytes int64) (*ir.Tensor, error) {
	if maxBytes <= 0 || maxBytes > ir.MaxTensorBytes {
		maxBytes = ir.MaxTensorBytes
	}
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:10]); err != nil || !bytes.Equal(pre[:6], magic) {
		return nil, fmt.Errorf("%w: no NUMPY magic", ErrFormat)
	}
	var headerLen int
	prefix := 10
	switch major := pre[6]; major {
	case 1:
		headerLen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, fmt.Errorf("%w: truncated header", ErrFormat)
		}
		hl := binary.LittleEndian.Uint32(pre[8:12])
		if hl > maxHeader {
			return nil, fmt.Errorf("%w: header of %d bytes", ErrFormat, hl)
		}
		headerLen, prefix = int(hl), 12
	default:
		return nil, fmt.Errorf("%w: format version %d", ErrFormat, major)
	}
	if maxBytes -= int64(prefix + headerLen); maxBytes < 0 {
		return nil, fmt.Errorf("%w: truncated header", ErrFormat)
	}
	header := make([]byte, headerLen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("%w: truncated header", ErrFormat)
	}
	descr, fortran, shape, err := parseHeader(string(header))
	if err != nil {
		return nil, err
	}
	if fortran {
		return nil, fmt.Errorf("%w: fortran_order arrays are not supported; save with np.ascontiguousarray", ErrFormat)
	}
	et, ok := dtypes[descr]
	if !ok {
		return nil, fmt.Errorf("%w: unsupported dtype %q (irdiv reads little-endian <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1)", ErrFormat, descr)
	}
	n, err := ir.NumElements(shape)
	if err != nil {
		return nil, fmt.Errorf("%w: shape %v has too many elements (%w)", ErrFormat, shape, ir.ErrTooLarge)
	}
	need, err := ir.ByteSize(et, n)
	if err != nil || need > maxBytes {
		return nil, fmt.Errorf("%w: shape %v of %s declares more data than the file holds (%d bytes at most after the header)", ErrFormat, shape, descr, maxBytes)
	}
	t, err := ir.NewTensor(et, shape)
	if err != nil {
		return nil, err
	}
	if got, err := io.ReadFull(r, t.Data); err != nil {
		return nil, fmt.Errorf("%w: shape %v of %s needs %d data bytes, file has %d", ErrFormat, shape, descr, need, got)
	}
	var extra [1]byte
	if n, _ := r.Read(extra[:]); n > 0 {
		return nil, fmt.Errorf("%w: data continues past the %d bytes shape %v of %s needs", ErrFormat, need, shape, descr)
	}
	return t, nil
}

// ReadFile reads a .npy file of at most maxBytes (0 means
// ir.MaxTensorBytes), header included; the data it declares must be in
// the file. Only a regular file is read: a FIFO or a device is refused at
// once. A file over maxBytes is refused, before anything is read, with an
// error that wraps ir.ErrTooLarge.
func ReadFile(path string, maxBytes int64) (*ir.Tensor, error) {
	if maxBytes <= 0 || maxBytes > ir.MaxTensorBytes {
		maxBytes = ir.MaxTensorBytes
	}
	f, err := safefile.Open(path)
	if err != nil {
		return nil, &npyError{err}
	}
	defer f.Close()
	if f.Size() > maxBytes {
		return nil, &npyError{fmt.Errorf("%s: %w: the file has %d bytes, more than the %d allowed", path, ir.ErrTooLarge, f.Size(), maxBytes)}
	}
	t, err := read(f, f.Size())
	if err != nil {
		return nil, &npyError{fmt.Errorf("%s: %w", path, err)}
	}
	return t, nil
}

// WriteFile writes t as a .npy file (bf16 as "<u2" bit patterns).
func WriteFile(path string, t *ir.Tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, t); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// parseHeader reads the Python dict literal of a .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
func parseHeader(h string) (descr string, fortran bool, shape []int64, err error) {
	bad := func(what string) error { return fmt.Errorf("%w: header %s: %q", ErrFormat, what, strings.TrimSpace(h)) }
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

// Encode encodes a tensor as a .npy file: format version 1.0, or 2.0 when
// the header does not fit version 1's 16-bit length. bf16 is written as
// "<u2" bit patterns.
func Encode(t *ir.Tensor) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes t to w as Encode encodes it, without copying the data.
func Write(w io.Writer, t *ir.Tensor) error {
	descr, ok := Descr(t.Type)
	if !ok {
		return &npyError{fmt.Errorf("%w: no NumPy dtype for %s", ErrFormat, t.Type)}
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
	pre := append([]byte{}, magic...)
	pre = append(pre, 1, 0)
	if len(header)+64 > 0xffff {
		pre[6] = 2
	}
	lenBytes := 2 + 2*int(pre[6]-1)
	// Pad with spaces so that magic, length and header end on a 64-byte boundary.
	total := len(pre) + lenBytes + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	if pre[6] == 1 {
		pre = binary.LittleEndian.AppendUint16(pre, uint16(len(header)))
	} else {
		pre = binary.LittleEndian.AppendUint32(pre, uint32(len(header)))
	}
	if _, err := w.Write(append(pre, header...)); err != nil {
		return err
	}
	_, err := w.Write(t.Data)
	return err
}
