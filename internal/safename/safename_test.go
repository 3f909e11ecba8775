package safename

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	long := strings.Repeat("n", 300)
	for _, tc := range []struct{ name, want string }{
		{"x", "x"},
		{"a/b", "a_b"},
		{"in:0/x", "in_0_x"},
		{"", "_"},
		{".", "_."},
		{"..", "_.."},
		{"...", "_..."},
		{".hidden", "_.hidden"},
		{"x\ny", "x_y"},
		{"é", "_"},
	} {
		if got := Stem(tc.name); got != tc.want {
			t.Errorf("Stem(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A long name keeps its start and a hash, short enough for any file
	// system (NAME_MAX is 255 bytes).
	if got := Stem(long); len(got) > MaxLen || !strings.HasPrefix(got, strings.Repeat("n", keep)+"~") {
		t.Errorf("Stem(300 bytes) = %q (%d bytes), want %d n and a hash, at most %d bytes", got, len(got), keep, MaxLen)
	}
	// Long names that differ only past the cut stay apart.
	if a, b := Stem(long+"a"), Stem(long+"b"); a == b {
		t.Errorf("two long names share the stem %q", a)
	}
}

func TestUnique(t *testing.T) {
	for _, tc := range []struct {
		names, want []string
	}{
		{[]string{"a/b", "a_b"}, []string{"a_b~2", "a_b"}},
		{[]string{"a_b", "a/b"}, []string{"a_b", "a_b~2"}},
		{[]string{"a/b", "a:b", "a_b"}, []string{"a_b~2", "a_b~3", "a_b"}},
		{[]string{"model", "model"}, []string{"model", "model~2"}},
		{[]string{"A", "a"}, []string{"A", "a~2"}},
		{[]string{"..", "_.."}, []string{"_..~2", "_.."}},
		{[]string{"x"}, []string{"x"}},
	} {
		if got := Unique(tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("Unique(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// TestFiles: the same names in any order give the same files, each its
// own.
func TestFiles(t *testing.T) {
	a := Files([]string{"p/q", "p_q", "z"})
	b := Files([]string{"z", "p_q", "p/q"})
	if !maps.Equal(a, b) {
		t.Errorf("Files depends on the order: %v, %v", a, b)
	}
	want := map[string]string{"p/q": "p_q~2.npy", "p_q": "p_q.npy", "z": "z.npy"}
	if !maps.Equal(a, want) {
		t.Errorf("Files = %v, want %v", a, want)
	}
}
