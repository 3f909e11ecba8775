package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgress: progress shows models done and the current one past its
// delay, clears its line at the end, escapes control characters, and is
// silent off a terminal or under --quiet.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	if newProgress(&buf, 3, false) != nil {
		t.Error("progress on a buffer, which is no terminal")
	}
	p := &progress{w: &buf, total: 2, started: time.Now()}
	p.start("a.onnx")
	p.finish()
	p.start("b\n.onnx")
	p.end()
	got := buf.String()
	for _, want := range []string{"0/2 models  a.onnx", "1/2 models  b\\n.onnx"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("the line is not cleared: %q", got)
	}
	buf.Reset()
	slow := &progress{w: &buf, total: 2, delay: time.Hour, started: time.Now()}
	slow.start("a.onnx")
	slow.end()
	if buf.Len() != 0 {
		t.Errorf("a run shorter than the delay printed %q", buf.String())
	}
	var none *progress
	none.start("x")
	none.finish()
	none.end()
	_, stderr, _ := irdiv(t, "validate", unetModel, "--quiet")
	if strings.Contains(stderr, "models") {
		t.Errorf("--quiet: %q", stderr)
	}
}
