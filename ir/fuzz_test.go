package ir

import "testing"

// FuzzReadIR checks that no XML and weights crash the reader, and that a
// model that reads also encodes and reads back.
func FuzzReadIR(f *testing.F) {
	f.Add([]byte(legacyXML), int64Bytes(2))
	x, b, _ := Encode(buildDivideModel(f))
	f.Add(x, b)
	f.Fuzz(func(t *testing.T, xml, weights []byte) {
		m, err := ReadBytes(xml, weights, ReadOptions{})
		if err != nil || m.WeightsMissing {
			return
		}
		x, b, err := Encode(m)
		if err != nil {
			return
		}
		if _, err := ReadBytes(x, b, ReadOptions{}); err != nil {
			t.Fatalf("re-reading an encoded model: %v\n%s", err, x)
		}
	})
}

// FuzzReadNPY checks that no input crashes the .npy decoder and that what
// it decodes encodes back to a file it decodes identically.
func FuzzReadNPY(f *testing.F) {
	f.Add(numpyI32)
	f.Fuzz(func(t *testing.T, data []byte) {
		tensor, err := DecodeNPY(data)
		if err != nil || tensor.Type == Boolean {
			return
		}
		enc, err := EncodeNPY(tensor)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeNPY(enc)
		if err != nil || string(again.Data) != string(tensor.Data) {
			t.Fatalf("re-decoding: %v", err)
		}
	})
}
