package npy

import (
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// FuzzReadNPY checks that no input crashes the .npy decoder and that what
// it decodes encodes back to a file it decodes identically.
func FuzzReadNPY(f *testing.F) {
	f.Add(numpyI32)
	f.Fuzz(func(t *testing.T, data []byte) {
		tensor, err := Decode(data)
		if err != nil || tensor.Type == ir.Boolean {
			return
		}
		enc, err := Encode(tensor)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Decode(enc)
		if err != nil || string(again.Data) != string(tensor.Data) {
			t.Fatalf("re-decoding: %v", err)
		}
	})
}
