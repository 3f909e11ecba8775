//go:build !linux

package safefile

import "os"

func openIn(dir, name string) (*os.File, error) { return rootOpen(dir, name) }
