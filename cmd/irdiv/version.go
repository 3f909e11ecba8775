package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/irdiv/irdiv/ops"
)

// versionCmd prints the module version, Go's version and the SIMD level
// in use.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "\n\nPrints irdiv's version, the Go version it was built with and the SIMD level it uses here.", stdout)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErr("takes no arguments")
	}
	info, _ := debug.ReadBuildInfo()
	v := moduleVersion(info)
	fmt.Fprintf(stdout, "irdiv %s %s %s/%s simd %s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH, ops.SIMDAuto.Resolve())
	if v == "(devel)" {
		fmt.Fprintln(stdout, "(devel): this build recorded no version: built by go run, or with -buildvcs=false (as GOFLAGS sets on many CI images), or outside a git checkout; build in a clone with VCS stamping, or give one with -ldflags \"-X main.version=$(git describe --tags --always --dirty)\"")
	}
	return nil
}

// version is the version a build sets with -ldflags "-X main.version=...",
// for builds that record no version control information (-buildvcs=false,
// a source tarball): it wins over what the build recorded.
var version string

// moduleVersion is the version -ldflags set (version), else the version
// the build recorded: a tag (v1.2.3) for
// "go install ...@v1.2.3"; from a git checkout, the pseudo-version Go
// derives from the commit (v0.0.0-20261125182833-97ee53f2d56f, +dirty
// with uncommitted changes); "(devel)" when the build recorded no version
// control information (go run, -buildvcs=false, no git), followed by the
// commit when it recorded one but no version (Go before 1.24).
func moduleVersion(info *debug.BuildInfo) string {
	if version != "" {
		return version
	}
	if info == nil {
		return "(unknown)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var revision string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value[:min(12, len(s.Value))]
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	// Go 1.24 and later put the commit into the version already.
	if revision != "" && !strings.Contains(version, revision) {
		version += " " + revision
		if modified {
			version += "+dirty"
		}
	}
	return version
}
