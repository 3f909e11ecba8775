"""Builds the irdiv wheel: the Python package plus the static irdiv binary.

pyproject.toml holds the metadata; this file adds what it cannot say:

- build_py compiles ``CGO_ENABLED=0 go build -trimpath -o ... ./cmd/irdiv``
  in the repository that holds this folder (``..``, or ``$IRDIV_SOURCE``)
  and puts the binary in the package as ``irdiv/bin/irdiv`` (``irdiv.exe``
  on Windows). ``$IRDIV_BINARY`` bundles a binary built elsewhere instead;
  ``$GO`` names the go command (default: ``go`` on PATH). The binary's
  version (``irdiv version``) is the package's, in Go's terms
  (``-ldflags=-X main.version=...``). The binary is run once (``irdiv
  version``) so that a binary this host cannot execute (a GOOS or GOARCH
  set in the environment) is not packed under this host's tag.
- BinaryDistribution and bdist_wheel tag the wheel ``py3-none-<platform>``:
  it holds a native binary, for this platform only, and no Python
  extension, so any Python 3 on this platform can use it.
- version() derives the version from git (see its docstring);
  ``$IRDIV_VERSION`` overrides it.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 has its own; before that, wheel's
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    try:
        from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]
    except ImportError:
        if {"bdist_wheel", "dist_info"} & set(sys.argv):
            raise SystemExit(
                "building the irdiv wheel needs the wheel package with this setuptools "
                "(Debian: apt-get install python3-wheel)"
            ) from None
        from setuptools import Command as bdist_wheel  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
MODULE = "module github.com/irdiv/irdiv"
EXE = "irdiv.exe" if sys.platform == "win32" else "irdiv"


def repo_root() -> Path | None:
    """The irdiv repository: $IRDIV_SOURCE, else the folder above python/."""
    env = os.environ.get("IRDIV_SOURCE")
    root = Path(env).resolve() if env else HERE.parent
    try:
        first = (root / "go.mod").read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError):
        return None
    if first.strip() != MODULE or not (root / "cmd" / "irdiv").is_dir():
        return None
    return root


def git(root: Path, *args: str) -> str | None:
    """The output of a git command in root, or None when it fails."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "TZ": "UTC0"},
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip()


def version() -> str:
    """The package version, in PEP 440's terms, after Go's module versions.

    - ``$IRDIV_VERSION`` when set (a release sets it, or tags).
    - At a tag ``vX.Y.Z`` with no uncommitted change: ``X.Y.Z``.
    - Otherwise Go's pseudo-version rendered for Python: Go's
      ``v0.0.0-20261128075704-ad26d1d0a1b2`` (commit time in UTC, commit)
      is ``0.0.0.dev20261128075704+gad26d1d0a1b2``; after a tag ``vX.Y.Z``
      the base is ``X.Y.(Z+1)``, as Go's is; ``.dirty`` is added with
      uncommitted changes (Go's ``+dirty``).
    - Without git: ``0.0.0+unknown``.

    The local part (``+g...``) keeps such builds off package indexes, which
    refuse it: only tags and ``$IRDIV_VERSION`` make publishable versions.
    """
    return versions()[0]


def versions() -> tuple[str, str]:
    """The package version (see version()) and the same in Go's terms, for
    ``irdiv version`` (-X main.version; "" leaves the binary's own)."""
    env = os.environ.get("IRDIV_VERSION")
    if env:
        return env, ("v" + env if env[:1].isdigit() else env)
    root = repo_root() or HERE.parent
    commit = git(root, "rev-parse", "--short=12", "HEAD")
    when = git(root, "show", "-s", "--format=%cd", "--date=format-local:%Y%m%d%H%M%S", "HEAD")
    if not commit or not when:
        return "0.0.0+unknown", ""
    dirty = bool(git(root, "status", "--porcelain"))
    go_dirty = "+dirty" if dirty else ""
    base, go_base = "0.0.0", "v0.0.0-"
    tag = git(root, "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD")
    m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", tag or "")
    if m:
        major, minor, patch = (int(g) for g in m.groups())
        exact = git(root, "describe", "--tags", "--exact-match", "--match", tag or "", "HEAD")
        if exact:
            return f"{major}.{minor}.{patch}" + ("+dirty" if dirty else ""), f"{tag}{go_dirty}"
        base, go_base = f"{major}.{minor}.{patch + 1}", f"v{major}.{minor}.{patch + 1}-0."
    return (
        f"{base}.dev{when}+g{commit}" + (".dirty" if dirty else ""),
        f"{go_base}{when}-{commit}{go_dirty}",
    )


class BuildPy(build_py):
    """build_py that also builds (or copies) the irdiv binary into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            target = HERE / "src" / "irdiv" / "bin" / EXE
        else:
            target = Path(self.build_lib).resolve() / "irdiv" / "bin" / EXE
        target.parent.mkdir(parents=True, exist_ok=True)
        prebuilt = os.environ.get("IRDIV_BINARY")
        if prebuilt:
            self.announce(f"bundling $IRDIV_BINARY={prebuilt}", level=2)
            shutil.copyfile(prebuilt, target)
        else:
            self.go_build(target)
        target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        try:
            out = subprocess.run([str(target), "version"], check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(
                f"the irdiv binary {target} does not run on this host ({e}); the wheel is tagged for "
                "this platform, so build it without GOOS/GOARCH set for another"
            ) from e
        print(f"bundled {target}: {out.stdout.strip()}")

    def go_build(self, target: Path) -> None:
        root = repo_root()
        if root is None:
            raise SystemExit(
                f"irdiv's Go source is not at {HERE.parent} (no go.mod of github.com/irdiv/irdiv with "
                "cmd/irdiv): build the wheel from a clone of irdiv (pip wheel --no-build-isolation "
                "python/, not from an sdist), or set IRDIV_SOURCE to the clone, or IRDIV_BINARY to a "
                "built irdiv binary"
            )
        go = os.environ.get("GO") or shutil.which("go")
        if not go:
            raise SystemExit("building the irdiv wheel needs Go (https://go.dev/dl/), or IRDIV_BINARY set to a built irdiv binary")
        cmd = [go, "build", "-trimpath", "-o", str(target), "./cmd/irdiv"]
        go_version = versions()[1]
        if go_version:  # the package's version, also where GOFLAGS=-buildvcs=false
            cmd[2:2] = ["-ldflags=-X main.version=" + go_version]
        print(f"(cd {root} && CGO_ENABLED=0 {' '.join(cmd)})")
        subprocess.run(cmd, cwd=root, check=True, env={**os.environ, "CGO_ENABLED": "0"})


class BinaryDistribution(Distribution):
    """A distribution with a native binary: installed to platlib, its wheel
    not pure (the binary is as platform-bound as an extension module)."""

    def has_ext_modules(self) -> bool:
        return True


class BdistWheel(bdist_wheel):
    """bdist_wheel for a package with a native binary and no extension."""

    def get_tag(self) -> tuple[str, str, str]:
        _, _, plat = super().get_tag()
        return "py3", "none", plat


cmdclass = {"build_py": BuildPy}
if hasattr(bdist_wheel, "get_tag"):
    cmdclass["bdist_wheel"] = BdistWheel
setup(version=version(), cmdclass=cmdclass, distclass=BinaryDistribution)
