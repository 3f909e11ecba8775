package npy

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
)

func TestNPYRoundTrip(t *testing.T) {
	for _, typ := range []ir.ElementType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.I8, ir.I16, ir.I32, ir.I64, ir.U8, ir.U16, ir.U32, ir.U64} {
		in, err := ir.NewTensor(typ, []int64{2, 3})
		if err != nil {
			t.Fatal(err)
		}
		for i := range in.Data {
			in.Data[i] = byte(i*7 + 1)
		}
		enc, err := Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		if (len(enc)-len(in.Data))%64 != 0 {
			t.Errorf("%s: header not padded to 64 bytes", typ)
		}
		out, err := Decode(enc)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		wantType := typ
		if typ == ir.BF16 {
			wantType = ir.U16 // bf16 travels as <u2
		}
		if out.Type != wantType || !slices.Equal(out.Shape, in.Shape) || string(out.Data) != string(in.Data) {
			t.Errorf("%s: round trip gave %s%v", typ, out.Type, out.Shape)
		}
	}
}

// A file written by NumPy 1.24: np.save(f, np.array([[1, 2], [3, 4]], dtype='<i4')).
var numpyI32 = []byte("\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }                                                          \n\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00")

func TestDecode(t *testing.T) {
	tensor, err := Decode(numpyI32)
	if err != nil {
		t.Fatal(err)
	}
	if tensor.Type != ir.I32 || !slices.Equal(tensor.Shape, []int64{2, 2}) || !slices.Equal(ir.View[int32](tensor), []int32{1, 2, 3, 4}) {
		t.Errorf("decoded %s%v %v", tensor.Type, tensor.Shape, ir.View[int32](tensor))
	}
	scalar, err := Encode(&ir.Tensor{Type: ir.F64, Shape: []int64{}, Data: make([]byte, 8)})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := Decode(scalar); err != nil || len(s.Shape) != 0 {
		t.Errorf("scalar: %v %v", s, err)
	}
	for name, data := range map[string][]byte{
		"no magic":  []byte("NUMPY"),
		"truncated": numpyI32[:len(numpyI32)-1],
		"too long":  append(slices.Clone(numpyI32), 0),
		"big endian": []byte(string(numpyI32[:10]) + "{'descr': '>i4', 'fortran_order': False, 'shape': (2, 2), }                                                          \n" +
			string(numpyI32[128:])),
		"fortran": []byte(string(numpyI32[:10]) + "{'descr': '<i4', 'fortran_order': True,  'shape': (2, 2), }                                                          \n" +
			string(numpyI32[128:])),
		"huge shape": []byte(string(numpyI32[:10]) + "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 9), }                                \n"),
	} {
		if _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error = %v", name, err)
		}
	}
}

// endless is a stream that never ends, like /dev/zero.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// TestReadIsBounded: the header decides what is read, and what it may
// declare is bounded by the file's size or, for a stream, by the cap; an
// endless stream is never read to its end.
func TestReadIsBounded(t *testing.T) {
	header := func(shape string) string {
		return "\x93NUMPY\x01\x00\x46\x00{'descr': '|u1', 'fortran_order': False, 'shape': (" + shape + "), }" + strings.Repeat(" ", 70-len("{'descr': '|u1', 'fortran_order': False, 'shape': (), }")-len(shape)-1) + "\n"
	}
	for _, tc := range []struct {
		name string
		r    io.Reader
		max  int64
		want string
	}{
		{"zeros", endless(0), 1 << 30, "no NUMPY magic"},
		{"declares more than the cap", io.MultiReader(strings.NewReader(header("1073741824,")), endless(1)), 1 << 20, "declares more data than the file holds (1048496 bytes at most after the header)"},
		{"endless body", io.MultiReader(strings.NewReader(header("16,")), endless(1)), 1 << 20, "data continues past the 16 bytes"},
		{"short body", strings.NewReader(header("16,") + "abc"), 1 << 20, "needs 16 data bytes, file has 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			grown, _ := testutil.Allocated(func() { _, err = Read(tc.r, tc.max) })
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want %q", err, tc.want)
			}
			if grown > 64<<10 {
				t.Errorf("allocated %d bytes", grown)
			}
		})
	}
	if got, err := Read(strings.NewReader(header("4,")+"abcd"), 80+4); err != nil || string(got.Data) != "abcd" {
		t.Errorf("a file exactly at the cap: %v", err)
	}
	// A regular file may declare no more than it holds, and be no larger
	// than the cap; anything else is refused at once.
	dir := t.TempDir()
	path := filepath.Join(dir, "big.npy")
	if err := os.WriteFile(path, []byte(header("1099511627776,")), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	grown, _ := testutil.Allocated(func() { _, err = ReadFile(path, 0) })
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), path) {
		t.Errorf("ReadFile of a 1 TiB declaration: %v", err)
	}
	if grown > 64<<10 {
		t.Errorf("ReadFile allocated %d bytes", grown)
	}
	if _, err := ReadFile(path, 50); !errors.Is(err, ir.ErrTooLarge) || !strings.Contains(err.Error(), "the file has 80 bytes, more than the 50 allowed") {
		t.Errorf("ReadFile of a file over the cap: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		zero := filepath.Join(dir, "zero.npy")
		if err := os.Symlink("/dev/zero", zero); err == nil {
			if _, err := ReadFile(zero, 0); !errors.Is(err, safefile.ErrNotRegular) || !strings.Contains(err.Error(), zero) {
				t.Errorf("ReadFile of a link to /dev/zero: %v", err)
			}
		}
	}
}

// TestLongHeaderUsesVersion2: a header too long for version 1's 16-bit
// length is written as version 2, and reads back.
func TestLongHeaderUsesVersion2(t *testing.T) {
	shape := make([]int64, 30000)
	for i := range shape {
		shape[i] = 1
	}
	in, _ := ir.NewTensor(ir.I32, shape)
	enc, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Decode(enc)
	if enc[6] != 2 || err != nil || len(out.Shape) != len(shape) || (len(enc)-len(in.Data))%64 != 0 {
		t.Errorf("version %d, %v", enc[6], err)
	}
}
