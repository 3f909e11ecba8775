package ir

import (
	"errors"
	"slices"
	"testing"
)

func TestNPYRoundTrip(t *testing.T) {
	for _, typ := range []ElementType{F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64} {
		in, err := NewTensor(typ, []int64{2, 3})
		if err != nil {
			t.Fatal(err)
		}
		for i := range in.Data {
			in.Data[i] = byte(i*7 + 1)
		}
		enc, err := EncodeNPY(in)
		if err != nil {
			t.Fatal(err)
		}
		if (len(enc)-len(in.Data))%64 != 0 {
			t.Errorf("%s: header not padded to 64 bytes", typ)
		}
		out, err := DecodeNPY(enc)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		wantType := typ
		if typ == BF16 {
			wantType = U16 // bf16 travels as <u2
		}
		if out.Type != wantType || !slices.Equal(out.Shape, in.Shape) || string(out.Data) != string(in.Data) {
			t.Errorf("%s: round trip gave %s%v", typ, out.Type, out.Shape)
		}
	}
}

// A file written by NumPy 1.24: np.save(f, np.array([[1, 2], [3, 4]], dtype='<i4')).
var numpyI32 = []byte("\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }                                                          \n\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00")

func TestDecodeNPY(t *testing.T) {
	tensor, err := DecodeNPY(numpyI32)
	if err != nil {
		t.Fatal(err)
	}
	if tensor.Type != I32 || !slices.Equal(tensor.Shape, []int64{2, 2}) || !slices.Equal(View[int32](tensor), []int32{1, 2, 3, 4}) {
		t.Errorf("decoded %s%v %v", tensor.Type, tensor.Shape, View[int32](tensor))
	}
	scalar, err := EncodeNPY(&Tensor{Type: F64, Shape: []int64{}, Data: make([]byte, 8)})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := DecodeNPY(scalar); err != nil || len(s.Shape) != 0 {
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
		if _, err := DecodeNPY(data); !errors.Is(err, ErrNPY) {
			t.Errorf("%s: error = %v", name, err)
		}
	}
}
