//go:build !unix

package safefile

import "path/filepath"

// Key identifies the file; where the system gives no file identity, its
// cleaned name does.
func (f *File) Key() any { return filepath.Clean(f.Name()) }
