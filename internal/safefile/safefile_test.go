package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/irdiv/irdiv/internal/testutil"
)

// within runs f and fails the test if it has not returned after a
// generous while: a refusal must come at once, a hang must not stall the
// test run.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("skipped: no symbolic links here (%v)", err)
	}
}

func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.bin")
	write(t, path, "hello")
	symlink(t, "a.bin", filepath.Join(dir, "link.bin"))
	for _, p := range []string{path, filepath.Join(dir, "link.bin")} {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		data, err := f.ReadAll(5)
		f.Close()
		if err != nil || string(data) != "hello" || f.Size() != 5 {
			t.Errorf("Open(%s): %q, %v", p, data, err)
		}
	}
}

// TestOpenRefusesNonRegular: FIFOs, devices and folders are refused at
// once, named, whether given directly or through a link.
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		dir:         "a folder",
		os.DevNull:  "a character device",
		"/dev/zero": "a character device",
	}
	if fifo := makeFIFO(t, dir, "pipe"); fifo != "" {
		cases[fifo] = "a named pipe"
		symlink(t, fifo, filepath.Join(dir, "to-pipe"))
		cases[filepath.Join(dir, "to-pipe")] = "a named pipe"
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		symlink(t, "/dev/zero", filepath.Join(dir, "zero.onnx"))
		cases[filepath.Join(dir, "zero.onnx")] = "a character device"
	} else {
		delete(cases, "/dev/zero")
	}
	for path, want := range cases {
		within(t, "Open("+path+")", func() {
			f, err := Open(path)
			if err == nil {
				f.Close()
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%s): %v; want ErrNotRegular naming it, %s", path, err, want)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v", err)
	}
}

// TestOpenIn: names inside the folder open, through links that stay
// inside; every way out is refused, whether the kernel (openat2) or
// os.Root resolves the name.
func TestOpenIn(t *testing.T) {
	for _, kernel := range []bool{true, false} {
		name := "os.Root"
		if kernel {
			name = "openat2"
			if runtime.GOOS != "linux" {
				continue
			}
		}
		t.Run(name, func(t *testing.T) {
			defer func(old bool) { useOpenat2 = old }(useOpenat2)
			useOpenat2 = kernel
			testOpenIn(t)
		})
	}
}

func testOpenIn(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "model")
	write(t, filepath.Join(dir, "data.bin"), "inside")
	write(t, filepath.Join(dir, "sub", "deep.bin"), "deeper")
	write(t, filepath.Join(top, "secret.bin"), "outside")
	symlink(t, "data.bin", filepath.Join(dir, "alias.bin"))
	symlink(t, "../data.bin", filepath.Join(dir, "sub", "up.bin"))
	symlink(t, "sub", filepath.Join(dir, "subdir"))
	symlink(t, "/", filepath.Join(dir, "root"))
	symlink(t, "..", filepath.Join(dir, "parent"))
	symlink(t, "../secret.bin", filepath.Join(dir, "out.bin"))
	symlink(t, filepath.Join(dir, "data.bin"), filepath.Join(dir, "absolute.bin"))
	symlink(t, "/etc/passwd", filepath.Join(dir, "passwd.bin"))
	symlink(t, "/dev/zero", filepath.Join(dir, "zero.bin"))
	symlink(t, "loop.bin", filepath.Join(dir, "loop.bin"))
	for name, want := range map[string]string{
		"data.bin": "inside", "alias.bin": "inside", "sub/deep.bin": "deeper", "sub/up.bin": "inside",
		"subdir/deep.bin": "deeper", "sub/../data.bin": "inside",
	} {
		f, err := OpenIn(dir, name)
		if err != nil {
			t.Errorf("OpenIn(%s): %v", name, err)
			continue
		}
		data, err := f.ReadAll(100)
		f.Close()
		if err != nil || string(data) != want {
			t.Errorf("OpenIn(%s) reads %q, %v; want %q", name, data, err, want)
		}
	}
	for _, name := range []string{
		"../secret.bin", "/etc/passwd", "root/etc/passwd", "parent/secret.bin", "out.bin",
		"passwd.bin", "zero.bin", "absolute.bin", "sub/../../secret.bin", "subdir/../../secret.bin",
	} {
		within(t, "OpenIn("+name+")", func() {
			f, err := OpenIn(dir, name)
			if err == nil {
				f.Close()
			}
			if !errors.Is(err, ErrEscapes) || !strings.Contains(err.Error(), dir) {
				t.Errorf("OpenIn(%s): %v; want ErrEscapes naming the folder", name, err)
			}
		})
	}
	if _, err := OpenIn(dir, "sub"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenIn of a folder: %v", err)
	}
	if _, err := OpenIn(dir, "loop.bin"); err == nil || errors.Is(err, ErrEscapes) {
		t.Errorf("OpenIn of a link loop: %v", err)
	}
	if fifo := makeFIFO(t, dir, "pipe.bin"); fifo != "" {
		within(t, "OpenIn(pipe.bin)", func() {
			if _, err := OpenIn(dir, "pipe.bin"); !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenIn of a FIFO: %v", err)
			}
		})
	}
}

// TestReadAllBounded: the cap is checked against the size before
// anything is allocated, and a file whose content outgrows the size it
// had at open time is refused, not read on.
func TestReadAllBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	var data []byte
	grown, _ := testutil.Allocated(func() { data, err = ReadFile(path, 1<<20) })
	if !errors.Is(err, ErrTooLarge) || data != nil || !strings.Contains(err.Error(), "1073741824 bytes, more than the 1048576 allowed") {
		t.Errorf("ReadFile of 1 GiB with a 1 MiB cap: %v", err)
	}
	if grown > 64<<10 {
		t.Errorf("refusing allocated %d bytes", grown)
	}
	small := filepath.Join(dir, "small.bin")
	write(t, small, "abc")
	sf, err := Open(small)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	write(t, small, "abcdef") // grows after the open
	if _, err := sf.ReadAll(100); !errors.Is(err, ErrChanged) {
		t.Errorf("a file that grew after its open: %v", err)
	}
	if runtime.GOOS == "linux" {
		// /proc files say size 0 and hold more.
		if _, err := ReadFile("/proc/self/status", 1<<20); !errors.Is(err, ErrChanged) {
			t.Errorf("ReadFile(/proc/self/status): %v", err)
		}
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	write(t, a, "x")
	write(t, b, "x")
	if !SameFile(a, a) || SameFile(a, b) || SameFile(a, filepath.Join(dir, "missing")) {
		t.Error("SameFile of plain files")
	}
	if !SameFile(a, filepath.Join(dir, ".", "a")) {
		t.Error("SameFile of two spellings")
	}
	if err := os.Link(a, filepath.Join(dir, "hard")); err == nil && !SameFile(a, filepath.Join(dir, "hard")) {
		t.Error("SameFile of a hard link")
	}
	symlink(t, "a", filepath.Join(dir, "soft"))
	if !SameFile(filepath.Join(dir, "soft"), a) {
		t.Error("SameFile of a symbolic link")
	}
}

func TestKey(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a"), "x")
	write(t, filepath.Join(dir, "b"), "x")
	symlink(t, "a", filepath.Join(dir, "alias"))
	key := func(name string) any {
		f, err := OpenIn(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return f.Key()
	}
	if key("a") != key("alias") || key("a") == key("b") {
		t.Errorf("keys: a %v, alias %v, b %v", key("a"), key("alias"), key("b"))
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b"), "x")
	write(t, filepath.Join(dir, "a", "c"), "x")
	entries, err := ReadDir(dir)
	if err != nil || len(entries) != 2 || entries[0].Name() != "a" || !entries[0].IsDir() || entries[1].Name() != "b" {
		t.Errorf("ReadDir: %v, %v", entries, err)
	}
	for _, path := range []string{filepath.Join(dir, "b"), makeFIFO(t, dir, "pipe")} {
		if path == "" {
			continue
		}
		within(t, "ReadDir("+path+")", func() {
			if _, err := ReadDir(path); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("ReadDir(%s): %v", path, err)
			}
		})
	}
}
