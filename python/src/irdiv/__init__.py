"""irdiv for Python: validate ONNX and OpenVINO IR models with irdiv.

irdiv finds what a model's integer Divides compute wrong under OpenVINO:
floor versus truncation in models from ONNX (with counter-examples at the
model's inputs, or proofs), zero divisors, MIN / -1, structure, and what
OpenVINO's CPU plugin computes differently. This package runs the irdiv
binary bundled in its wheel::

    import irdiv
    report = irdiv.validate("model.onnx")
    for f in report.errors:
        print(f.code, f.layer, f.counter_example)

``irdiv.validate`` returns a :class:`Report`; ``irdiv.fix(model, output)``
writes a model that every reading of Div computes alike and returns a
:class:`FixResult`; :class:`Error` is raised when
the command cannot do what was asked. The ``irdiv`` command (or ``python -m
irdiv``) is the binary itself, with the same arguments and exit status.
"""

from __future__ import annotations

from ._binary import Error, binary
from ._report import SEVERITIES, Coverage, Finding, Layer, NotAnalysed, Report, Summary
from ._fix import FixResult, fix
from ._validate import validate

try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__ = _version("irdiv")
except (ImportError, PackageNotFoundError):  # not installed: run from the source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "SEVERITIES",
    "Coverage",
    "Error",
    "Finding",
    "FixResult",
    "Layer",
    "NotAnalysed",
    "Report",
    "Summary",
    "__version__",
    "binary",
    "fix",
    "validate",
]
