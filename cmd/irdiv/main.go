// Command irdiv evaluates OpenVINO Divide-1 exactly and finds, proves and
// fixes what models converted from ONNX and PyTorch compute wrong at their
// integer Divides: one division from the command line (eval), a whole
// model or one layer of it (run), a model's description and picture
// (info), inference timing (bench), faithful ONNX to IR conversion
// (convert), findings with proofs and counter-examples (validate), a
// rewritten model that every reading of Div computes alike (fix), and the
// build's version (version). docs/cli.md is generated from their help.
//
// Exit status: 0 on success, 1 on an error (one line on stderr starting
// "irdiv: "), 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/plugin"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

const usage = `irdiv evaluates OpenVINO Divide-1 exactly.

Usage:
  irdiv eval [flags] A B          divide two tensors (.npy files or literals)
  irdiv run [flags] MODEL.xml     run a model, or one Divide of any model
  irdiv info [--json] MODEL.xml   describe a model
  irdiv bench [flags] MODEL.xml   measure inference like benchmark_app
  irdiv convert MODEL.onnx        convert an ONNX model into IR, Divs faithful
  irdiv validate MODEL.xml...     find what a model's Divides compute wrong
  irdiv fix MODEL.onnx -o F.onnx  rewrite the Divs validate does not prove safe
  irdiv version                   print irdiv's version, Go's and the SIMD level
  irdiv help [COMMAND]            this text, or a command's flags

Run "irdiv help COMMAND" or "irdiv COMMAND -h" for the flags of a command.
`

func main() {
	guard = &memoryGuard{stderr: os.Stderr, exit: os.Exit}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors in the command line itself (exit status 2).
var errUsage = errors.New("usage")

type command func(args []string, stdout, stderr io.Writer) error

var commands = map[string]command{
	"eval":     evalCmd,
	"run":      runCmd,
	"info":     infoCmd,
	"bench":    benchCmd,
	"convert":  convertCmd,
	"validate": validateCmd,
	"fix":      fixCmd,
	"version":  versionCmd,
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "irdiv: want a command (eval, run, info, bench, convert, validate, fix, version)\n\n%s", usage)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	case "-version", "--version":
		args = []string{"version"}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "irdiv: unknown command %s (commands: eval, run, info, bench, convert, validate, fix, version; see irdiv help)\n", oneLine(strconv.Quote(args[0])))
		return 2
	}
	err := cmd(args[1:], stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "irdiv: %s: %s (see irdiv %s -h)\n", args[0], oneLine(strings.TrimPrefix(err.Error(), "usage: ")), args[0])
		return 2
	default:
		msg := err.Error()
		if errors.Is(err, ir.ErrTooLarge) && slices.Contains([]string{"eval", "run", "bench", "convert"}, args[0]) {
			msg += "; --max-tensor raises the limit"
		}
		if errors.Is(err, plugin.ErrMemory) && slices.Contains([]string{"run", "bench"}, args[0]) {
			msg += "; --max-memory raises the limit"
		}
		fmt.Fprintf(stderr, "irdiv: %s\n", oneLine(msg))
		return 1
	}
}

// maxMessage bounds an error line: values from a file can be long.
const maxMessage = 2000

// oneLine folds white space so that an error is one line, escapes the
// control characters left (a name's ESC must not reach the terminal), and
// cuts it.
func oneLine(s string) string {
	s = escapeControls(strings.Join(strings.Fields(s), " "))
	if len(s) > maxMessage {
		s = strings.ToValidUTF8(s[:maxMessage], "") + " ... (cut)"
	}
	return s
}

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// flagSet is a subcommand's flags. Errors are reported by run, so the
// set prints nothing itself; -h prints the usage to stdout.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stdout   io.Writer
}

func newFlagSet(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, synopsis: synopsis, stdout: stdout}
}

func (fs *flagSet) printUsage() {
	fmt.Fprintf(fs.stdout, "Usage: irdiv %s %s\n\nFlags:\n", fs.Name(), fs.synopsis)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(fs.stdout, "%s\n    \t%s", line, usage)
		if f.DefValue != "" && f.DefValue != "false" && !strings.Contains(usage, "(default") {
			fmt.Fprintf(fs.stdout, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(fs.stdout)
	})
}

// parse parses flags and positional arguments in any order, so that
// "eval A B --type i32" works, and treats negative numbers such as "-5" as
// positional values rather than flags. A lone "--" ends the flags.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case a == "-h" || a == "-help" || a == "--help":
			fs.printUsage()
			return nil, flag.ErrHelp
		case !strings.HasPrefix(a, "-") || a == "-" || isNumber(a):
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	if err := fs.Parse(flags); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return positional, nil
}

// isNumber reports whether s is a number (inf and nan included, and
// numbers too large for a float64, which are still numbers).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// multiFlag collects a repeated flag such as -i NAME=FILE.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
