"""irdiv.validate: runs ``irdiv validate --json`` and reads its report."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

from ._binary import Error, binary
from ._report import Finding, Report, parse_report
from ._safename import files as _files

#: What validate() takes as a model: a path, or an onnx.ModelProto.
ModelLike = Union[str, "os.PathLike[str]", Any]

# Keywords that validate() sets itself and does not pass through.
_RESERVED = {"json", "counter_examples", "format"}


def _is_model_proto(obj: Any) -> bool:
    """Whether obj is an onnx.ModelProto, without importing onnx."""
    desc = getattr(obj, "DESCRIPTOR", None)
    return getattr(desc, "full_name", None) == "onnx.ModelProto" and hasattr(obj, "SerializeToString")


def _flags(options: Mapping[str, Any]) -> List[str]:
    """Keyword options as command-line flags: some_flag="x" is
    --some-flag=x, True a bare flag, False --flag=false, None nothing,
    a list or tuple the flag once per item."""
    out: List[str] = []
    for key, value in options.items():
        if value is None:
            continue
        flag = "--" + key.replace("_", "-")
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                out.append(flag)
            elif v is False:
                out.append(flag + "=false")
            else:
                out.append(f"{flag}={os.fspath(v) if isinstance(v, os.PathLike) else v}")
    return out


def _write_proto(proto: Any, folder: str, name: str) -> str:
    path = os.path.join(folder, name)
    try:
        data = proto.SerializeToString()
    except ValueError as e:  # protobuf's 2 GiB limit
        raise Error(
            f"irdiv: cannot serialise the onnx.ModelProto ({e}): save it with its weights as external "
            "data (onnx.save_model(..., save_as_external_data=True)) and validate the file"
        ) from e
    with open(path, "wb") as f:
        f.write(data)
    return path


def _load_counter_example(finding: Finding, folder: str) -> Dict[str, Any]:
    """The arrays of a counter-example folder, by model input name."""
    try:  # only here: a report without counter-examples needs no numpy
        import numpy as np
    except ImportError as e:
        raise Error(f"irdiv: the counter-example of {finding.code} is .npy files, read with NumPy, which is not installed (pip install numpy)") from e

    names = finding.evidence.get("inputs")
    if isinstance(names, Mapping) and names:
        files = {name: os.path.join(folder, file) for name, file in _files(names).items()}
    else:  # no names in the evidence: the files' own names
        files = {p.stem: str(p) for p in sorted(Path(folder).glob("*.npy"))}
    arrays = {}
    for name, path in files.items():
        try:
            arrays[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise Error(f"irdiv: cannot read the counter-example input {name!r} of {finding.code} from {path}: {e}") from e
    return arrays


def _inside(path: str, folder: str) -> bool:
    """Whether path names folder or something in it."""
    try:
        return os.path.commonpath([os.path.abspath(path), os.path.abspath(folder)]) == os.path.abspath(folder)
    except ValueError:  # another drive, or not a path at all
        return False


def validate(
    model: ModelLike,
    *,
    severity: Optional[str] = None,
    onnx: Optional[ModelLike] = None,
    seed: Optional[int] = None,
    counter_examples: Optional[Union[str, "os.PathLike[str]"]] = None,
    **options: Any,
) -> Report:
    """Validates one model with ``irdiv validate`` and returns its report.

    Args:
        model: the model: a path to an ``.onnx`` or ``.xml`` file (an IR's
            ``.bin`` beside it), or an in-memory ``onnx.ModelProto``, which
            is written to a temporary file (onnx itself is not needed).
        severity: report findings of this severity and worse: ``"note"``
            (the default), ``"warning"`` or ``"error"`` (``--severity``).
        onnx: with an IR as ``model``, the ONNX model it was converted
            from, as a path or an ``onnx.ModelProto`` (``--onnx``).
        seed: seed of the random operands of ``onnx`` (``--seed``).
        counter_examples: a folder to keep the counter-examples in
            (``--counter-examples``); each finding's
            ``evidence["counter_example_dir"]`` names its folder there.
            Without it they are written to a temporary folder, read, and
            removed, and the evidence names none of those files
            (``counter_example_dir``, ``openvino_model``).
        **options: any other flag of ``irdiv validate``, by its name with
            ``_`` for ``-``: ``fail_on="warning"`` is
            ``--fail-on=warning``, ``baseline="irdiv-baseline.json"`` is
            ``--baseline=irdiv-baseline.json``; True is a bare flag, False
            ``--flag=false``, None leaves it out. A flag the command does
            not have raises Error.

    Returns:
        The report: its findings (with each counter-example's inputs as
        NumPy arrays), summary and coverage. A report with errors is
        returned, not raised: see ``Report.ok`` (the command's exit
        status) and ``Report.errors``.

    Raises:
        Error: the command failed: a usage error (exit status 2), a model
            that cannot be read, or no binary. The message is the
            command's.
    """
    for key in options:
        if key in _RESERVED:
            raise TypeError(f"validate() sets --{key.replace('_', '-')} itself")
    flags = _flags({"severity": severity, "seed": seed, **options})
    with tempfile.TemporaryDirectory(prefix="irdiv-") as tmp:
        shown: Optional[str] = None
        if _is_model_proto(model):
            path = _write_proto(model, tmp, "model.onnx")
            shown = "<onnx.ModelProto>"
        elif isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
            if os.path.isdir(path):
                raise Error(f"irdiv: {path} is a folder: validate() takes one model file (the irdiv command takes folders)")
        else:
            raise TypeError(f"validate() takes a path or an onnx.ModelProto, not {type(model).__name__}")
        if onnx is not None:
            if _is_model_proto(onnx):
                flags.append("--onnx=" + _write_proto(onnx, tmp, "source.onnx"))
            else:
                flags.append("--onnx=" + os.fspath(onnx))
        keep = counter_examples is not None
        cex = os.fspath(counter_examples) if keep else os.path.join(tmp, "counter-examples")  # type: ignore[arg-type]
        cmd = [binary(), "validate", "--json", "--counter-examples=" + cex, *flags, "--", path]
        try:
            proc = subprocess.run(cmd, capture_output=True)
        except OSError as e:
            raise Error(f"irdiv: cannot run {cmd[0]}: {e}", command=cmd) from e
        stdout = proc.stdout.decode("utf-8", "replace")
        stderr = proc.stderr.decode("utf-8", "replace").strip()
        data = None
        if proc.returncode in (0, 1) and stdout.strip():
            try:
                data = json.loads(stdout)
            except ValueError:
                data = None
        if not isinstance(data, dict) or "findings" not in data:
            message = stderr or f"irdiv validate exited with status {proc.returncode} and printed no report"
            raise Error(message, returncode=proc.returncode, stderr=stderr, command=cmd)
        report = parse_report(data, proc.returncode)
        for finding in report.findings:
            folder = finding.evidence.get("counter_example_dir")
            if isinstance(folder, str):
                finding.counter_example = _load_counter_example(finding, folder)
            if not keep:  # the files are removed: the evidence names none of them
                for key, value in list(finding.evidence.items()):
                    if isinstance(value, str) and _inside(value, cex):
                        del finding.evidence[key]
        if shown is not None:
            report.model = shown
        return report
