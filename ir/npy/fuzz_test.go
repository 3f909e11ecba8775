package npy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
)

// FuzzReadNPY checks that no input crashes the .npy decoder, that reading
// it as a file (ReadFile, the path users' files take) and from memory
// agree, and that what it decodes encodes back to a file it decodes
// identically. The seeds include the hostile corpus's .npy files.
func FuzzReadNPY(f *testing.F) {
	f.Add(numpyI32)
	for _, seed := range testutil.Corpus(f, "*.npy") {
		f.Add(seed.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "a.npy")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, fileErr := ReadFile(path, 1<<20)
		tensor, err := Decode(data)
		if len(data) <= 1<<20 && (err == nil) != (fileErr == nil) {
			t.Fatalf("Decode: %v; ReadFile: %v", err, fileErr)
		}
		if err == nil && fileErr == nil && string(fromFile.Data) != string(tensor.Data) {
			t.Fatal("ReadFile and Decode read different data")
		}
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
