package shapeinfer

import "testing"

// FuzzParseShape: no text crashes the parser, and a shape that parses
// prints as text that parses back to the same shape.
func FuzzParseShape(f *testing.F) {
	for _, s := range []string{"[?,3,2..224]", "1, 1, 512, 512", "...", "", "..10,6..", "9223372036854775807", "1,,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shape, err := ParseShape(s)
		if err != nil {
			return
		}
		again, err := ParseShape(shape.String())
		if err != nil || !again.Equal(shape) {
			t.Fatalf("%q parsed as %s, which reads back as %s, %v", s, shape, again, err)
		}
		_, _ = Elementwise(shape, shape, Broadcast{Mode: PDPD, Axis: int64(len(s)) - 3})
	})
}
