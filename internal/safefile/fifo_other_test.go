//go:build !unix

package safefile

import "testing"

// makeFIFO returns "": named pipes of this kind are a Unix thing.
func makeFIFO(t *testing.T, dir, name string) string { return "" }
