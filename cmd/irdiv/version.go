package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/irdiv/irdiv/ops"
)

// versionCmd prints the module version (from the build information: a
// tag for "go install ...@v1.2.3", "(devel)" for a build from a clone),
// the VCS revision when known, Go's version and the SIMD level in use.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "\n\nPrints irdiv's version, the Go version it was built with and the SIMD level it uses here.", stdout)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErr("takes no arguments")
	}
	version, revision := "(unknown)", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		version = info.Main.Version
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				revision = " " + s.Value[:12]
			}
			if s.Key == "vcs.modified" && s.Value == "true" {
				revision += "+dirty"
			}
		}
	}
	fmt.Fprintf(stdout, "irdiv %s%s %s %s/%s simd %s\n", version, revision, runtime.Version(), runtime.GOOS, runtime.GOARCH, ops.SIMDAuto.Resolve())
	return nil
}
