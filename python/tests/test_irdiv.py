"""Tests of the irdiv package: run with the package installed from its wheel,

    python3 -m unittest discover -s python/tests -t python/tests

from any folder (.ci/run runs them from outside the source tree, in a fresh
virtual environment). They use the repository's examples/unet/model.onnx,
found above this folder or at $IRDIV_REPO. With IRDIV_TEST_INSTALLED=1 they
also check that the package under test is an installed one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import irdiv

REPO = Path(os.environ.get("IRDIV_REPO") or Path(__file__).resolve().parents[2])
UNET = REPO / "examples" / "unet" / "model.onnx"

try:
    import numpy as np
except ImportError:  # a dependency of the wheel: missing only outside an install
    np = None  # type: ignore[assignment]

try:
    import onnx
except ImportError:
    onnx = None  # type: ignore[assignment]


def console_command() -> list[str] | None:
    """The installed irdiv console script, beside this Python."""
    for folder in (Path(sys.executable).parent, Path(sys.prefix) / "bin", Path(sys.prefix) / "Scripts"):
        for name in ("irdiv", "irdiv.exe"):
            if (folder / name).is_file():
                return [str(folder / name)]
    return None


@unittest.skipUnless(UNET.is_file(), f"{UNET} is absent (set IRDIV_REPO to a clone of irdiv)")
class ValidateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.report = irdiv.validate(str(UNET))

    def test_path(self) -> None:
        r = self.report
        self.assertEqual(r.model, str(UNET))
        self.assertFalse(r.ok)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.summary, irdiv.Summary(errors=2, warnings=0, notes=6))
        self.assertEqual(len(r.findings), 8)
        self.assertEqual([f.code for f in r.errors], ["divide/floor-trunc"] * 2)
        self.assertEqual([f.layer for f in r.errors], [irdiv.Layer(108, "/Div"), irdiv.Layer(118, "/Div_1")])
        self.assertTrue(str(r.errors[0]).startswith('error divide/floor-trunc: layer "/Div" (id 108): floors where ONNX truncates'), str(r.errors[0]))
        self.assertTrue(r.errors[0].evidence["counter_example"].startswith("-5 / 2: ONNX gives -2, "))
        self.assertFalse(r.errors[0].baselined)
        self.assertEqual(r.errors[0].targets, ["reference"])
        self.assertEqual(sorted({t for f in r.notes for t in f.targets}), ["cpu", "gpu", "reference"])
        self.assertEqual(len(r.notes), 6)
        self.assertEqual(r.warnings, [])
        self.assertTrue(all(f.counter_example is None for f in r.notes))
        self.assertEqual(r.coverage, irdiv.Coverage(integer_divides=4, proven=2, errors=2))
        self.assertIsNone(r.hidden)
        self.assertIn("findings", r.raw)

    def test_pathlike(self) -> None:
        r = irdiv.validate(UNET, severity="error")
        self.assertEqual(r.model, str(UNET))
        self.assertEqual([f.severity for f in r.findings], ["error", "error"])
        self.assertEqual(r.summary, irdiv.Summary(errors=2, notes=6))  # hidden findings are counted
        self.assertEqual(r.hidden, irdiv.Summary(notes=6))

    def test_fail_on(self) -> None:
        r = irdiv.validate(UNET, fail_on="never")
        self.assertTrue(r.ok)
        self.assertEqual(r.returncode, 0)
        self.assertEqual(len(r.errors), 2)

    @unittest.skipIf(np is None, "numpy is not installed")
    def test_counter_example_arrays(self) -> None:
        shapes = [(1, 1, 3, 32), (1, 1, 32, 3)]
        for f, shape in zip(self.report.errors, shapes):
            with self.subTest(layer=f.layer):
                self.assertIsNotNone(f.counter_example)
                self.assertEqual(sorted(f.counter_example), ["x"])
                x = f.counter_example["x"]
                self.assertIsInstance(x, np.ndarray)
                self.assertEqual(x.dtype, np.float32)
                self.assertEqual(x.shape, shape)
                # The arrays are the ones the JSON previews.
                shown = f.evidence["inputs"]["x"]
                self.assertEqual((shown["type"], tuple(shown["shape"])), ("f32", shape))
                first = [np.float32(v) for v in shown["values"].strip("[.]").split(",")[:4]]
                self.assertEqual(list(x.reshape(-1)[:4]), first)
                # A temporary folder, gone: the evidence does not name it.
                self.assertNotIn("counter_example_dir", f.evidence)
                self.assertNotIn("openvino_model", f.evidence)
                self.assertFalse([v for v in f.evidence.values() if isinstance(v, str) and "irdiv-" in v and os.sep in v], f.evidence)

    @unittest.skipIf(np is None, "numpy is not installed")
    def test_counter_examples_kept(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            r = irdiv.validate(UNET, counter_examples=tmp)
            for f in r.errors:
                folder = Path(f.evidence["counter_example_dir"])
                self.assertTrue(folder.is_relative_to(tmp) if hasattr(folder, "is_relative_to") else str(folder).startswith(tmp))
                np.testing.assert_array_equal(np.load(folder / "x.npy"), f.counter_example["x"])
                if "openvino_model" in f.evidence:  # the model as OpenVINO imports it, beside
                    self.assertTrue(Path(f.evidence["openvino_model"]).is_file())

    @unittest.skipIf(onnx is None, "onnx is not installed (Debian: apt-get install python3-onnx; pip: irdiv[onnx])")
    def test_model_proto(self) -> None:
        proto = onnx.load(str(UNET))
        r = irdiv.validate(proto)
        self.assertEqual(r.model, "<onnx.ModelProto>")
        self.assertEqual(r.summary, self.report.summary)
        self.assertEqual([(f.code, f.layer) for f in r.findings], [(f.code, f.layer) for f in self.report.findings])
        for f, g in zip(r.errors, self.report.errors):
            np.testing.assert_array_equal(f.counter_example["x"], g.counter_example["x"])

    def test_fix(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "fixed.onnx")
            result = irdiv.fix(UNET, out)
            self.assertEqual(result.output, out)
            self.assertEqual(len(result.rewritten), 2, result.text)
            self.assertTrue(result.checked.startswith("checked: validate proves every rewritten Div"), result.text)
            fixed = irdiv.validate(out)
            self.assertEqual(fixed.summary.errors, 0)
            self.assertEqual(fixed.coverage.proven, 4)
            self.assertIsNone(irdiv.fix(out, os.path.join(tmp, "again.onnx")).output)
            self.assertFalse(os.path.exists(os.path.join(tmp, "again.onnx")))
            with self.assertRaises(irdiv.Error):
                irdiv.fix(UNET, UNET)

    def test_missing_file(self) -> None:
        missing = REPO / "examples" / "no-such-model.onnx"
        with self.assertRaises(irdiv.Error) as cm:
            irdiv.validate(missing)
        self.assertEqual(cm.exception.returncode, 1)
        self.assertIn(str(missing), str(cm.exception))
        self.assertIn("no such file", str(cm.exception))
        self.assertTrue(str(cm.exception).startswith("irdiv: "))

    def test_usage_errors(self) -> None:
        with self.assertRaises(irdiv.Error) as cm:
            irdiv.validate(UNET, severity="fatal")
        self.assertEqual(cm.exception.returncode, 2)
        self.assertIn("--severity fatal: must be one of note, warning, error", str(cm.exception))
        with self.assertRaises(irdiv.Error) as cm:
            irdiv.validate(UNET, no_such_option=3)
        self.assertEqual(cm.exception.returncode, 2)
        self.assertIn("no-such-option", str(cm.exception))
        with self.assertRaises(irdiv.Error):
            irdiv.validate(UNET.parent)  # a folder
        with self.assertRaises(TypeError):
            irdiv.validate(UNET, json=False)
        with self.assertRaises(TypeError):
            irdiv.validate(42)

    def test_unreadable_model(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "bad.onnx"
            bad.write_bytes(b"not a model")
            with self.assertRaises(irdiv.Error) as cm:
                irdiv.validate(bad)
            self.assertEqual(cm.exception.returncode, 1)
            self.assertIn("bad.onnx", str(cm.exception))


@unittest.skipUnless(UNET.is_file(), f"{UNET} is absent (set IRDIV_REPO to a clone of irdiv)")
class CommandTest(unittest.TestCase):
    def check_exit_codes(self, command: list[str]) -> None:
        run = lambda *args: subprocess.run([*command, *args], capture_output=True, text=True)  # noqa: E731
        p = run("validate", str(UNET), "--severity", "error")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("2 errors", p.stdout)
        self.assertEqual(p.stderr, "irdiv: 2 errors in 1 model\n")
        p = run("version")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("irdiv "), p.stdout)
        p = run("validate", "--severity", "fatal", str(UNET))
        self.assertEqual(p.returncode, 2)
        self.assertIn("--severity fatal", p.stderr)
        p = run("info", "--json", str(UNET))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_console_script(self) -> None:
        command = console_command()
        if command is None:
            self.skipTest(f"no irdiv console script beside {sys.executable} (the package is not installed here)")
        self.check_exit_codes(command)

    def test_python_m(self) -> None:
        self.check_exit_codes([sys.executable, "-m", "irdiv"])

    def test_main_with_args(self) -> None:
        from irdiv._cli import main

        self.assertEqual(main(["version"]), 0)
        self.assertEqual(main(["validate", "--severity", "fatal", str(UNET)]), 2)


README_SECTION = "## Python"


def readme_example() -> tuple[str, str]:
    """The README's Python program and the output it shows."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split(README_SECTION + "\n", 1)[1].split("\n## ", 1)[0]
    m = re.search(r"```python\n(.*?)```\n+[^`]*?```\n(.*?)```", section, re.S)
    if m is None:
        raise AssertionError(f"README.md's {README_SECTION} section lacks a python block followed by its output")
    return m.group(1), m.group(2)


@unittest.skipUnless((REPO / "README.md").is_file() and UNET.is_file(), f"no README.md or example model in {REPO}")
class ReadmeTest(unittest.TestCase):
    def test_readme_example(self) -> None:
        program, want = readme_example()
        p = subprocess.run([sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, want)


class PackageTest(unittest.TestCase):
    def test_safename(self) -> None:
        # The cases of internal/safename/safename_test.go, which this ports.
        from irdiv import _safename

        for name, want in [("x", "x"), ("a/b", "a_b"), ("in:0/x", "in_0_x"), ("", "_"), (".", "_."), ("..", "_.."), ("...", "_..."), (".hidden", "_.hidden"), ("x\ny", "x_y"), ("é", "_")]:
            self.assertEqual(_safename.stem(name), want, name)
        long = "n" * 300
        self.assertTrue(_safename.stem(long).startswith("n" * 100 + "~"))
        self.assertLessEqual(len(_safename.stem(long)), _safename.MAX_LEN)
        self.assertNotEqual(_safename.stem(long + "a"), _safename.stem(long + "b"))
        for names, want in [
            (["a/b", "a_b"], ["a_b~2", "a_b"]),
            (["a_b", "a/b"], ["a_b", "a_b~2"]),
            (["a/b", "a:b", "a_b"], ["a_b~2", "a_b~3", "a_b"]),
            (["model", "model"], ["model", "model~2"]),
            (["A", "a"], ["A", "a~2"]),
            (["..", "_.."], ["_..~2", "_.."]),
            (["x"], ["x"]),
        ]:
            self.assertEqual(_safename.unique(names), want, names)
        want = {"p/q": "p_q~2.npy", "p_q": "p_q.npy", "z": "z.npy"}
        self.assertEqual(_safename.files(["p/q", "p_q", "z"]), want)
        self.assertEqual(_safename.files(["z", "p_q", "p/q"]), want)

    def test_flags(self) -> None:
        from irdiv._validate import _flags

        got = _flags({"max_tensor": "1GiB", "json": True, "pythondiv": False, "seed": None, "i": ["a=x.npy", "b=y.npy"], "onnx": Path("m.onnx"), "n": -1})
        want = ["--max-tensor=1GiB", "--json", "--pythondiv=false", "--i=a=x.npy", "--i=b=y.npy", "--onnx=m.onnx", "--n=-1"]
        self.assertEqual(got, want)

    def test_binary(self) -> None:
        path = irdiv.binary()
        self.assertTrue(os.access(path, os.X_OK), f"{path} is not executable")

    @unittest.skipUnless(os.environ.get("IRDIV_TEST_INSTALLED") == "1", "IRDIV_TEST_INSTALLED=1 is not set")
    def test_installed(self) -> None:
        package = Path(irdiv.__file__).resolve().parent
        self.assertFalse(
            package.is_relative_to(REPO.resolve()) if hasattr(package, "is_relative_to") else str(package).startswith(str(REPO.resolve())),
            f"irdiv was imported from the source tree ({package}), not from its installation",
        )
        self.assertNotIn("IRDIV_BINARY", os.environ)
        self.assertEqual(Path(irdiv.binary()).resolve(), package / "bin" / ("irdiv.exe" if os.name == "nt" else "irdiv"))
        self.assertNotEqual(irdiv.__version__, "0.0.0+unknown")
        # The binary says the package's version, in Go's terms.
        out = subprocess.run([irdiv.binary(), "version"], capture_output=True, text=True, check=True).stdout
        commit = re.search(r"\+g([0-9a-f]{12})", irdiv.__version__)
        self.assertIn(commit.group(1) if commit else irdiv.__version__, out.splitlines()[0])
        self.assertTrue((package / "py.typed").is_file())

    def test_pre_commit_hook(self) -> None:
        hooks = REPO / ".pre-commit-hooks.yaml"
        if not hooks.is_file():
            self.skipTest(f"{hooks} is absent")
        text = hooks.read_text(encoding="utf-8")
        self.assertIn("- id: irdiv-validate\n", text)
        self.assertIn("  entry: irdiv validate\n", text)
        self.assertIn("  language: golang\n", text)
        files = re.search(r"^  files: (.*)$", text, re.M)
        self.assertIsNotNone(files)
        pattern = re.compile(files.group(1).strip("'\""))
        for name in ["model.onnx", "ir/model.xml", "a/b.c.onnx"]:
            self.assertTrue(pattern.search(name), name)
        for name in ["model.bin", "model.onnx.bak", "onnx.md", "model.xml.orig"]:
            self.assertFalse(pattern.search(name), name)


if __name__ == "__main__":
    unittest.main()
