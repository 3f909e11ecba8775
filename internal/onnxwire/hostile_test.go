package onnxwire

import (
	"fmt"
	"strings"
	"testing"
)

// TestHostileAttrSeeds: each seed of an op names one of its schema's
// attributes, each attribute of a kind HostileModel writes once, at the
// schema's kind and the first value of its list; a name byte that is
// odd names one of hostileNames instead.
func TestHostileAttrSeeds(t *testing.T) {
	ints := hostileInts([]int64{2, 3})
	want := map[int]string{kindInt: "=1", kindInts: "=[1]", kindFloat: "=1", kindString: `="NOTSET"`}
	for op, attrs := range opAttrs {
		seeds := HostileAttrSeeds(op)
		var named []string
		for _, s := range seeds {
			_, desc := attr(op, ints, s[0], s[1], s[2])
			named = append(named, desc)
		}
		var wanted []string
		for _, a := range attrs {
			if a.kind != kindOther {
				wanted = append(wanted, a.name+want[a.kind])
			}
		}
		if fmt.Sprint(named) != fmt.Sprint(wanted) {
			t.Errorf("%s: the seeds give %v, want %v", op, named, wanted)
		}
	}
	if _, desc := attr("GatherND", ints, 1, 0, 0); !strings.HasPrefix(desc, hostileNames[0]+"=") {
		t.Errorf("an odd name byte gives %s, want %s", desc, hostileNames[0])
	}
}

// TestHostileInts: the bytes the fuzzer's mutations favour choose the
// first value (0 and 0x80) and int64's maximum (0xff and 0x7f), and the
// values relative to x follow its rank and largest dim.
func TestHostileInts(t *testing.T) {
	ints := hostileInts([]int64{2, 5, 3})
	if ints[0] != 1 || ints[0x80%len(ints)] != 1 || ints[0xff%len(ints)] != 1<<63-1 || ints[0x7f%len(ints)] != 1<<63-1 {
		t.Errorf("the favoured bytes choose %d, %d, %d, %d", ints[0], ints[0x80%len(ints)], ints[0xff%len(ints)], ints[0x7f%len(ints)])
	}
	for _, v := range []int64{3, 4, -3, 5, 6, 1<<63 - 1 - 3, 1<<63 - 1 - 5, -1<<63 + 3} {
		found := false
		for _, i := range ints {
			found = found || i == v
		}
		if !found {
			t.Errorf("%d, relative to rank 3 and dim 5, is not among %v", v, ints)
		}
	}
}
