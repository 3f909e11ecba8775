//go:build unix

package safefile

import "syscall"

// Key identifies the file itself, whatever the name it was opened by: two
// links to one file have the same key.
func (f *File) Key() any {
	if st, ok := f.info.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}
	}
	return f.Name()
}
