// Package safename makes file names out of names a model gives (input,
// output and layer names, model file names), for the files irdiv writes:
// every character outside [A-Za-z0-9_.-] becomes "_", a name never is
// "", "." or "..", never starts with "." (no hidden file, no way up), and
// never passes MaxLen bytes (the rest is replaced by a hash, because file
// systems refuse names over 255 bytes). Names that collide after that, as
// "a/b" and "a_b" do, or "A" and "a" on a file system that ignores case,
// are told apart by a suffix "~N", never by writing one file over the
// other. "~" is outside the characters a sanitised name keeps, so a
// suffixed or hashed name cannot collide with another name's plain form.
//
// It is the one source of these names: the command line writes by them
// and internal/ortreplay finds the files by them, as does the Python
// package (python/src/irdiv/_safename.py ports Stem, Unique and Files:
// change it with them; python/tests has this package's test cases).
package safename

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// MaxLen is the longest name Stem returns: room for a ".npy" extension,
// a "~N" suffix and a "N-" prefix under the 255 bytes of NAME_MAX.
const MaxLen = 200

// keep is how much of a long name stays readable before its hash.
const keep = 100

// Stem is name made safe as one path element (see the package comment).
// It does not tell colliding names apart: Unique does.
func Stem(name string) string {
	s := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' {
			return c
		}
		return '_'
	}, name)
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	if len(s) > MaxLen {
		// The hash is of the name as given, so that two long names that
		// differ only past the cut, or only in replaced characters, stay
		// apart.
		sum := sha256.Sum256([]byte(name))
		s = s[:keep] + "~" + hex.EncodeToString(sum[:8])
	}
	return s
}

// Unique returns a stem for each name, unique among them ignoring case:
// names[i] gets out[i]. A name that Stem leaves unchanged keeps its stem
// before any other name takes it; the others take theirs in the order
// given, the later one of a collision getting "~2", "~3"... Names may
// repeat (two models named model.onnx in different folders): each
// occurrence gets its own stem.
func Unique(names []string) []string {
	out := make([]string, len(names))
	taken := make(map[string]bool, len(names))
	// Unchanged names first, so that "a_b" stays a_b beside "a/b", in any
	// order.
	for i, n := range names {
		if s := Stem(n); s == n && !taken[strings.ToLower(s)] {
			out[i] = s
			taken[strings.ToLower(s)] = true
		}
	}
	for i, n := range names {
		if out[i] != "" {
			continue
		}
		s := Stem(n)
		for k := 2; taken[strings.ToLower(s)]; k++ {
			s = Stem(n) + "~" + strconv.Itoa(k)
		}
		out[i] = s
		taken[strings.ToLower(s)] = true
	}
	return out
}

// Files names the .npy file of each name in one folder, as irdiv writes a
// counter-example folder or run -o: NAME.npy with NAME from Unique over
// the names in sorted order, so that the same set of names always gives
// the same files, whatever order a caller lists them in.
func Files(names []string) map[string]string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	stems := Unique(sorted)
	out := make(map[string]string, len(sorted))
	for i, n := range sorted {
		out[n] = stems[i] + ".npy"
	}
	return out
}
