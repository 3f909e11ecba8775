package main

import (
	"runtime/debug"
	"testing"
)

// TestModuleVersion: each kind of build says what it is, once.
func TestModuleVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	rev := "97ee53f2d56f88a8b321661ce54e5330b3d4b06f"
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "(unknown)"},
		{"go install @tag", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"go build in a clone", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125182833-97ee53f2d56f"}, Settings: vcs(rev, "false")}, "v0.0.0-20261125182833-97ee53f2d56f"},
		{"go build in a changed clone", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125182833-97ee53f2d56f+dirty"}, Settings: vcs(rev, "true")}, "v0.0.0-20261125182833-97ee53f2d56f+dirty"},
		{"go run, or -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"Go before 1.24 in a changed clone", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "(devel) 97ee53f2d56f+dirty"},
	} {
		if got := moduleVersion(tc.info); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	version = "v1.2.3-4-gabcdef"
	defer func() { version = "" }()
	if got := moduleVersion(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); got != version {
		t.Errorf("-ldflags -X main.version: %q", got)
	}
}
