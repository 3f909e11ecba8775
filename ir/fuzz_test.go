package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadIR checks that no XML and weights crash the reader, and that a
// model that reads also encodes and reads back.
func FuzzReadIR(f *testing.F) {
	f.Add([]byte(legacyXML), int64Bytes(2))
	x, b, _ := Encode(buildDivideModel(f))
	f.Add(x, b)
	seeds, _ := filepath.Glob("../testdata/bad/*/model.xml")
	for _, path := range seeds {
		x, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		bin, _ := os.ReadFile(strings.TrimSuffix(path, ".xml") + ".bin")
		f.Add(x, bin)
	}
	f.Fuzz(func(t *testing.T, xml, weights []byte) {
		m, err := ReadBytes(xml, weights, ReadOptions{})
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
