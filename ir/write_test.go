package ir

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/shapeinfer"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// buildDivideModel builds Parameter and Const into Divide into Result, the
// shape of model the examples ship.
func buildDivideModel(t testing.TB) *Model {
	m := &Model{Name: "floordiv", Version: 11}
	a := m.AddParameter("a", I32, shapeinfer.MustParseShape("?,3"))
	b, err := TensorOf(I32, []int64{3}, []int32{2, -3, 4})
	if err != nil {
		t.Fatal(err)
	}
	c := m.AddConst("b", b)
	m.AddConst("b_again", b) // identical bytes: stored once in the .bin
	div := m.AddLayer("Divide", "opset1", "div", []Attr{{"m_pythondiv", "true"}, {"auto_broadcast", "numpy"}},
		[]Output{{a, 0}, {c, 0}}, []*Port{{Type: I32, Dims: []int64{-1, 3}, Names: []string{"q", "a,b"}}})
	m.AddResult("q", Output{div, 0})
	return m
}

func TestEncodeGolden(t *testing.T) {
	m := buildDivideModel(t)
	x, b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 12 {
		t.Errorf(".bin has %d bytes, want 12 (one copy of the constant)", len(b))
	}
	golden := filepath.Join("testdata", "divide.xml")
	if *update {
		if err := os.WriteFile(golden, x, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(want) {
		t.Errorf("Encode differs from %s:\n%s", golden, x)
	}
	for _, s := range []string{"<?xml version=\"1.0\"?>\n", "\t\t\t<data auto_broadcast=\"numpy\" m_pythondiv=\"true\" />\n",
		`<data shape="?,3" element_type="i32" />`, `<data element_type="i32" shape="3" offset="0" size="12" />`,
		`names="q,a\,b"`, "\t<rt_info />\n</net>\n"} {
		if !strings.Contains(string(x), s) {
			t.Errorf("output lacks %q", s)
		}
	}
	roundTrip(t, m)
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	m := buildDivideModel(t)
	if err := Write(m, filepath.Join(dir, "m.xml"), ""); err != nil {
		t.Fatal(err)
	}
	m2, err := ReadFile(filepath.Join(dir, "m.xml"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalModels(t, m, m2)
	m2.Version = 9
	if _, _, err := Encode(m2); err == nil || !strings.Contains(err.Error(), "Unsupported version") {
		t.Errorf("Encode of version 9: %v", err)
	}
}
