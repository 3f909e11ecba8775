package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
)

// FuzzReadIR checks that no XML and weights crash the reader, that
// reading them from files (ReadFile, the path users' files take) and from
// memory agree, and that a model that reads also encodes and reads back.
// The seeds are the hostile corpus's models.
func FuzzReadIR(f *testing.F) {
	f.Add([]byte(legacyXML), int64Bytes(2))
	x, b, _ := Encode(buildDivideModel(f))
	f.Add(x, b)
	for _, seed := range testutil.Corpus(f, "model.xml") {
		f.Add(seed.Data, seed.Sibling(".bin"))
	}
	f.Fuzz(func(t *testing.T, xml, weights []byte) {
		testutil.Bounded(t, "FuzzReadIR", func() {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.xml")
			if err := os.WriteFile(path, xml, 0o644); err != nil {
				t.Fatal(err)
			}
			// No weights is no .bin file, which ReadBytes takes as nil.
			if len(weights) == 0 {
				weights = nil
			} else if err := os.WriteFile(filepath.Join(dir, "m.bin"), weights, 0o644); err != nil {
				t.Fatal(err)
			}
			fromFile, fileErr := ReadFile(path, ReadOptions{})
			m, err := ReadBytes(xml, weights, ReadOptions{})
			if (err == nil) != (fileErr == nil) {
				t.Fatalf("ReadBytes: %v; ReadFile: %v", err, fileErr)
			}
			if err == nil && len(fromFile.Layers) != len(m.Layers) {
				t.Fatalf("ReadFile read %d layers, ReadBytes %d", len(fromFile.Layers), len(m.Layers))
			}
			if err != nil || m.WeightsMissing {
				return
			}
			x, b, err := Encode(m)
			if err != nil {
				// The one model that reads but cannot be written back has a
				// Const whose type the reader does not decode.
				if !undecodedConst(m) {
					t.Fatalf("encoding a model that reads: %v", err)
				}
				return
			}
			if _, err := ReadBytes(x, b, ReadOptions{}); err != nil {
				t.Fatalf("re-reading an encoded model: %v\n%s", err, x)
			}
		})
	})
}

// undecodedConst reports whether a Const of m or its bodies has no value.
func undecodedConst(m *Model) bool {
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Const") && l.Constant == nil {
			return true
		}
		for _, x := range l.Extra {
			if x.Body != nil && undecodedConst(x.Body) {
				return true
			}
		}
	}
	return false
}
