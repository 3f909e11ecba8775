"""irdiv.fix: runs ``irdiv fix`` and returns what it did."""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Any, List, Optional, Union

from ._binary import Error, binary
from ._validate import ModelLike, _flags, _is_model_proto, _write_proto


@dataclass
class FixResult:
    """What ``irdiv fix`` did.

    Attributes:
        output: the fixed model's path, or None when there was nothing to
            fix (no file is written then).
        rewritten: the outputs of the Divs rewritten (an ``.onnx``), or
            the lines naming the Divides fixed (an IR).
        checked: the command's last line: what it checked before writing
            (validate's proof, and on what the outputs were compared).
        text: everything the command printed.
    """

    output: Optional[str]
    rewritten: List[str]
    checked: str
    text: str


def fix(model: ModelLike, output: Union[str, "os.PathLike[str]"], *, keep_proven: bool = True, **options: Any) -> FixResult:
    """Writes a model that gives ONNX's answer however its Divs are read.

    Runs ``irdiv fix MODEL -o OUTPUT``: every integer Div that validate
    does not prove safe becomes ``Mod(a, b, fmod=1)``, ``Sub``, ``Div``, an
    exact division that ONNX's truncation and OpenVINO's floor compute
    alike (an IR from ONNX gets ``m_pythondiv="false"``, one from PyTorch a
    flooring correction). Nothing is written unless validate proves every
    rewritten Div and the outputs of both models agree on the model's test
    data and counter-examples.

    Args:
        model: a path to an ``.onnx`` or ``.xml``, or an ``onnx.ModelProto``.
        output: where to write the fixed model (``.onnx``, or ``.xml`` and
            its ``.bin``).
        keep_proven: leave the Divs validate proves safe as they are
            (``--keep-proven``).
        **options: any other flag of ``irdiv fix``, as for validate().

    Raises:
        Error: the command failed or refused (an opset without Mod, a
            rewritten Div not proven, outputs that differ); the message is
            the command's.
    """
    flags = _flags({"keep_proven": keep_proven, **options})
    with tempfile.TemporaryDirectory(prefix="irdiv-") as tmp:
        if _is_model_proto(model):
            path = _write_proto(model, tmp, "model.onnx")
        elif isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
        else:
            raise TypeError(f"fix() takes a path or an onnx.ModelProto, not {type(model).__name__}")
        out = os.fspath(output)
        cmd = [binary(), "fix", "-o", out, *flags, "--", path]
        try:
            proc = subprocess.run(cmd, capture_output=True)
        except OSError as e:
            raise Error(f"irdiv: cannot run {cmd[0]}: {e}", command=cmd) from e
    text = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        raise Error(stderr or f"irdiv fix exited with status {proc.returncode}", returncode=proc.returncode, stderr=stderr, command=cmd)
    lines = text.splitlines()
    if any("nothing to fix" in line for line in lines):
        return FixResult(output=None, rewritten=[], checked="", text=text)
    rewritten = [line.strip() for line in lines if line.startswith("  ") and not line.startswith("    ")]
    checked = next((line for line in lines if line.startswith("checked:")), "")
    return FixResult(output=out, rewritten=rewritten, checked=checked, text=text)
