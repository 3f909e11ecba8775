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
