package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// escapeControls writes every character of s that would act on a
// terminal instead of showing (C0 and C1 controls, DEL, the line and
// paragraph separators, bidirectional overrides) and every byte that is
// not UTF-8 as a Go escape: \n, \x1b, \u202e. Names in a model are the
// model author's text: a layer type holding a newline must not start a
// line of its own in a report, nor an escape sequence recolour the
// terminal. JSON needs none of this: encoding/json escapes for itself.
func escapeControls(s string) string {
	i := strings.IndexFunc(s, needsEscape)
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case needsEscape(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

func needsEscape(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// textln prints one line of text output, its control characters
// escaped: the format and the values together are one line, whatever the
// values hold.
func textln(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, escapeControls(fmt.Sprintf(format, args...)))
}
