package pkgerr

import (
	"errors"
	"io"
	"testing"
)

func TestOnePrefix(t *testing.T) {
	err := Errorf("ir", "bad %s: %w", "thing", io.EOF)
	if err.Error() != "ir: bad thing: EOF" || !errors.Is(err, io.EOF) {
		t.Errorf("%v", err)
	}
	if Wrap("ir", err) != err {
		t.Error("Wrap added a second prefix")
	}
	if got := Wrap("ir", io.EOF).Error(); got != "ir: EOF" {
		t.Errorf("Wrap of a foreign error: %q", got)
	}
	detail, ok := Detail("ir", err)
	if !ok || Errorf("ir", "model.xml: %w", detail).Error() != "ir: model.xml: bad thing: EOF" {
		t.Errorf("context after the prefix: %v %v", detail, ok)
	}
	if d, ok := Detail("ops", err); ok || d != err {
		t.Error("another package's error was taken apart")
	}
}
