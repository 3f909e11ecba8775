package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The README's examples are checked as a user would run them, from the
// repository root: its Go program is built and run, and every "$ irdiv"
// command of its sh blocks must print the lines that follow it.

const root = "../.."

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// blocks returns the bodies of the fenced blocks of the given language.
func blocks(text, lang string) []string {
	var out []string
	for _, part := range strings.Split(text, "```"+lang+"\n")[1:] {
		out = append(out, part[:strings.Index(part, "```")])
	}
	return out
}

func TestReadmeGoProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	programs := blocks(readme(t), "go")
	if len(programs) != 1 {
		t.Fatalf("README has %d Go blocks, want 1", len(programs))
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "readme-")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		os.RemoveAll(dir)
		os.Remove("testdata") // only when empty
	}()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(programs[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./examples/gen/"+filepath.ToSlash(dir))
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	want := "i32[2,4] [-4 2 1 -2 3 -3 2 -2]\n"
	if err != nil || string(out) != want {
		t.Errorf("the README's Go program: %v\n%s\nwant %q", err, out, want)
	}
}

func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds irdiv with the go command")
	}
	bin := filepath.Join(t.TempDir(), "irdiv")
	build := exec.Command("go", "build", "-o", bin, "./cmd/irdiv")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	commands := 0
	for _, block := range blocks(readme(t), "sh") {
		lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			line, ok := strings.CutPrefix(lines[i], "$ irdiv ")
			if !ok {
				continue
			}
			var want []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				want = append(want, lines[i])
			}
			commands++
			cmd := exec.Command("sh", "-c", bin+" "+line)
			cmd.Dir = root
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.Run() // the exit status of the error examples is 1
			if got := strings.TrimSuffix(out.String(), "\n"); got != strings.Join(want, "\n") {
				t.Errorf("irdiv %s:\n%s\nwant\n%s", line, got, strings.Join(want, "\n"))
			}
		}
	}
	if commands < 4 {
		t.Errorf("found %d README commands", commands)
	}
}
