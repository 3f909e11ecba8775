// Package safefile opens the files a user points irdiv at, the one way
// every reader of the project opens them:
//
//   - regular files only, decided without blocking: the file is opened
//     non-blocking and refused after fstat when it is a FIFO, a device, a
//     socket or a folder, so that a named pipe cannot hang a reader and
//     /dev/zero cannot feed one without end;
//   - a name inside a folder (ONNX external data) is resolved by the
//     kernel (openat2 with RESOLVE_BENEATH on Linux, os.Root elsewhere),
//     following links only while they stay inside that folder: the check
//     is made on the file actually opened, not on the name beforehand;
//   - reads are bounded by the size the open file has, checked against the
//     caller's cap before anything is allocated.
//
// Errors are *fs.PathError values naming the file, with no package prefix:
// the package that reads the file adds its own.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

var (
	// ErrNotRegular: the path names a FIFO, a device, a socket or a folder.
	ErrNotRegular = errors.New("not a regular file")
	// ErrEscapes: a name resolved inside a folder leaves it, through ".."
	// or a link, or is absolute.
	ErrEscapes = errors.New("leaves the folder")
	// ErrTooLarge: the file is larger than the caller allows.
	ErrTooLarge = errors.New("file too large")
	// ErrChanged: the file changed size while it was read.
	ErrChanged = errors.New("file changed while it was read")
)

// File is a regular file open for reading.
type File struct {
	*os.File
	info fs.FileInfo
}

// Size is the file's size when it was opened.
func (f *File) Size() int64 { return f.info.Size() }

// Info is the file's information when it was opened; os.SameFile tells
// whether another path names the same file.
func (f *File) Info() fs.FileInfo { return f.info }

// Open opens path for reading. Links are followed (the user named the
// file); what they lead to must be a regular file.
func Open(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenIn opens name, a slash-separated path relative to the folder dir,
// for reading. Links are followed while every step stays inside dir; an
// absolute name, an absolute link, or ".." or a link that leads out of dir
// is refused with ErrEscapes. What it leads to must be a regular file.
func OpenIn(dir, name string) (*File, error) {
	path := filepath.Join(dir, filepath.FromSlash(name))
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w %s", ErrEscapes, dir)}
	}
	f, err := openIn(dir, filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// regular keeps f when it is a regular file and closes it otherwise.
func regular(f *os.File, path string) (*File, error) {
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &File{File: f, info: st}, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m.IsRegular():
		return "a file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file: " + m.Type().String()
}

// ReadAll reads the whole file: no more than max bytes, checked before
// anything is allocated, and exactly the size it had when opened.
func (f *File) ReadAll(max int64) ([]byte, error) {
	size := f.Size()
	if size > max {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w: %d bytes, more than the %d allowed", ErrTooLarge, size, max)}
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = ErrChanged
		}
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: err}
	}
	if err := f.AtEnd(); err != nil {
		return nil, err
	}
	return data, nil
}

// AtEnd checks that nothing follows what was read: a file that grew since
// it was opened (or a /proc file, whose size says 0) is refused rather
// than read without bound.
func (f *File) AtEnd() error {
	var one [1]byte
	if n, _ := f.Read(one[:]); n > 0 {
		return &fs.PathError{Op: "read", Path: f.Name(), Err: ErrChanged}
	}
	return nil
}

// ReadFile opens path as Open does and reads it as ReadAll does.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadAll(max)
}

// ReadDir lists a folder as os.ReadDir does, sorted by name; a path that
// is not a folder (a FIFO among them) is refused without waiting.
func ReadDir(path string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|dirOnly, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err == nil && !st.IsDir() {
		err = fmt.Errorf("not a folder (%s)", kind(st.Mode()))
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// SameFile reports whether the paths a and b name the same existing file,
// links followed: the test of identity that keeps an output from
// replacing an input named differently.
func SameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
