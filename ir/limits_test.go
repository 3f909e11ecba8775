package ir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
)

// TestReadLimits: every cap of ReadOptions refuses a file that breaks it
// with ErrLimit naming the option, and a file at the cap reads.
func TestReadLimits(t *testing.T) {
	x := []byte(legacyXML) // 4 layers, 6 ports, 3 edges
	nodes := strings.Count(legacyXML, "<") - strings.Count(legacyXML, "</") - strings.Count(legacyXML, "<?") + strings.Count(legacyXML, "=") - strings.Count(legacyXML, "<?xml version=")
	for _, tc := range []struct {
		field     string
		at, below ReadOptions
	}{
		{"MaxXMLBytes", ReadOptions{MaxXMLBytes: int64(len(x))}, ReadOptions{MaxXMLBytes: int64(len(x)) - 1}},
		{"MaxLayers", ReadOptions{MaxLayers: 4}, ReadOptions{MaxLayers: 3}},
		{"MaxPorts", ReadOptions{MaxPorts: 6}, ReadOptions{MaxPorts: 5}},
		{"MaxEdges", ReadOptions{MaxEdges: 3}, ReadOptions{MaxEdges: 2}},
		{"MaxNodes", ReadOptions{MaxNodes: nodes}, ReadOptions{MaxNodes: nodes - 1}},
		{"MaxDepth", ReadOptions{MaxDepth: 6}, ReadOptions{MaxDepth: 5}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			if _, err := ReadBytes(x, int64Bytes(2), tc.at); err != nil {
				t.Errorf("at the cap: %v", err)
			}
			_, err := ReadBytes(x, int64Bytes(2), tc.below)
			var pe *ParseError
			if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "ReadOptions."+tc.field) || !errors.As(err, &pe) {
				t.Errorf("below the cap: %v", err)
			}
		})
	}
}

// TestReadRefusesEarly: a file that is not a regular file is refused at
// once, one larger than the cap by its size before it is read, and a
// malformed one at its first bad character, having allocated little more
// than its text.
func TestReadRefusesEarly(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.xml")
	if err := os.Symlink("/dev/zero", zero); err == nil {
		if _, err := os.Stat("/dev/zero"); err == nil {
			_, err := ReadFile(zero, ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), "ir: "+zero+": not a regular file (a character device)") {
				t.Errorf("a link to /dev/zero: %v", err)
			}
		}
	}
	path := filepath.Join(dir, "big.xml")
	if err := os.WriteFile(path, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	grown, _ := testutil.Allocated(func() { _, err = ReadFile(path, ReadOptions{MaxXMLBytes: 999}) })
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "has 1000 bytes") {
		t.Errorf("oversized file: %v", err)
	}
	if grown > 16<<10 {
		t.Errorf("refusing an oversized file allocated %d bytes", grown)
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"zeros", strings.Repeat("\x00", 4<<20), "illegal character code U+0000 at byte 0"},
		{"control after text", "<net version='11'>abc\x01" + strings.Repeat(" ", 4<<20), "illegal character code U+0001 at byte 21"},
		{"invalid UTF-8", "<net version='11'>\xff</net>", "invalid UTF-8 at byte 18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".xml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			grown, _ := testutil.Allocated(func() { _, err = ReadFile(path, ReadOptions{}) })
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Unable to read the model") {
				t.Errorf("error %v; want %q", err, tc.want)
			}
			if grown > uint64(len(tc.text))+64<<10 {
				t.Errorf("reading %d bytes allocated %d", len(tc.text), grown)
			}
		})
	}
}

// TestDuplicateAttributesKeepFirst: OpenVINO's parser keeps the first of
// repeated attributes; so does irdiv, with a warning.
func TestDuplicateAttributesKeepFirst(t *testing.T) {
	xml := strings.Replace(legacyXML, `<layer id="2" name="div" type="Divide" version="opset1">`,
		`<layer id="2" name="div" name="other" type="Divide" version="opset1"><data auto_broadcast="none" auto_broadcast="numpy" m_pythondiv="false" m_pythondiv="true"/>`, 1)
	m, err := ReadBytes([]byte(xml), int64Bytes(2), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	div := m.LayerByID(2)
	ab, _ := div.DataAttr("auto_broadcast")
	pd, _ := div.DataAttr("m_pythondiv")
	if div.Name != "div" || ab != "none" || pd != "false" || len(div.Data) != 2 {
		t.Errorf("read name %q, data %v", div.Name, div.Data)
	}
	if len(m.Warnings) != 3 || !strings.Contains(m.Warnings[1], `repeats attribute "auto_broadcast"; the first value is used`) {
		t.Errorf("warnings %q", m.Warnings)
	}
	// Written back, each attribute appears once.
	out, _, err := Encode(m)
	if err != nil || strings.Count(string(out), "m_pythondiv=") != 1 || strings.Contains(string(out), "other") {
		t.Errorf("encoded: %v\n%s", err, out)
	}
}

// constsXML has one Const per (offset, size) pair, each i8 of shape [size].
func constsXML(ranges ...[2]int) string {
	var b strings.Builder
	b.WriteString(`<net name="c" version="11"><layers>`)
	for i, r := range ranges {
		fmt.Fprintf(&b, `<layer id="%d" name="c%d" type="Const" version="opset1"><data element_type="i8" shape="%d" offset="%d" size="%d"/><output><port id="0" precision="I8"><dim>%d</dim></port></output></layer>`, i, i, r[1], r[0], r[1], r[1])
	}
	b.WriteString(`</layers><edges/></net>`)
	return b.String()
}

// TestConstWeightsBounded: Consts stored at the same place share their
// data, and distinct ranges may not add up to more than twice the weights
// file, so a small .bin cannot be read many times over by overlapping Consts.
func TestConstWeightsBounded(t *testing.T) {
	bin := []byte("0123456789abcdef")
	m, err := ReadBytes([]byte(constsXML([2]int{0, 16}, [2]int{0, 16}, [2]int{4, 4})), bin, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c0, c1, c2 := m.LayerByID(0).Constant, m.LayerByID(1).Constant, m.LayerByID(2).Constant
	if &c0.Data[0] != &c1.Data[0] || string(c0.Data) != string(bin) || string(c2.Data) != "4567" {
		t.Errorf("values %q %q %q; the first two should share memory", c0.Data, c1.Data, c2.Data)
	}
	// Three distinct, overlapping ranges of 15 bytes: 45 bytes from a
	// 16-byte file is more than twice its size.
	if _, err := ReadBytes([]byte(constsXML([2]int{0, 15}, [2]int{1, 15}, [2]int{0, 15}, [2]int{1, 14})), bin, ReadOptions{}); !errors.Is(err, ErrWeights) || !strings.Contains(err.Error(), "the Consts' ranges overlap") || !strings.Contains(err.Error(), `layer "c3" (id 3)`) {
		t.Errorf("overlapping ranges: %v", err)
	}
	// SkipWeights loads nothing but still checks every range.
	m, err = ReadBytes([]byte(constsXML([2]int{0, 16}, [2]int{1, 15})), bin, ReadOptions{SkipWeights: true})
	if err != nil || !m.WeightsMissing || m.LayerByID(0).Constant != nil {
		t.Errorf("SkipWeights: %v, WeightsMissing=%v", err, m.WeightsMissing)
	}
	if _, err := ReadBytes([]byte(constsXML([2]int{8, 16})), bin, ReadOptions{SkipWeights: true}); !errors.Is(err, ErrWeights) || !strings.Contains(err.Error(), "Incorrect weights in bin file!") {
		t.Errorf("SkipWeights with a range past the end: %v", err)
	}
}

// TestMaxConstBytes: only the small Consts are read.
func TestMaxConstBytes(t *testing.T) {
	bin := []byte("0123456789abcdef")
	m, err := ReadBytes([]byte(constsXML([2]int{0, 16}, [2]int{4, 4})), bin, ReadOptions{MaxConstBytes: 8})
	if err != nil || m.LayerByID(0).Constant != nil || m.LayerByID(1).Constant == nil || string(m.LayerByID(1).Constant.Data) != "4567" {
		t.Errorf("MaxConstBytes 8: %v", err)
	}
}
