"""The report of ``irdiv validate --json`` as dataclasses.

The JSON schema is README.md's (``--json`` under "Validate an exported
model"); these classes mirror it field by field, so a key the command
adds later is still in ``Report.raw`` and ``Finding.evidence``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

if TYPE_CHECKING:  # numpy is imported only when counter-examples are loaded
    import numpy as np

#: The severities, mildest first.
SEVERITIES = ("note", "warning", "error")


@dataclass(frozen=True)
class Layer:
    """A layer of the model, as findings name it."""

    id: int
    name: str

    def __str__(self) -> str:
        return f'layer "{self.name}" (id {self.id})'


@dataclass
class Finding:
    """One finding: what is wrong, or provably right, about a layer.

    Attributes:
        severity: ``"error"``, ``"warning"`` or ``"note"``.
        code: the stable code (``divide/floor-trunc``...; README.md's table
            lists them with their evidence keys).
        layer: the layer it is about, or None for the model as a whole.
        message: one line for people.
        evidence: the facts behind it, by name, as the JSON has them.
        counter_example: for a finding with a counter-example, the model's
            inputs that show it, by input name, as NumPy arrays read from
            the ``.npy`` files the command wrote; otherwise None (also when
            the command did not write it: ``--max-files``, evidence
            ``counter_example_not_written``).
        baselined: the finding is in the baseline given (``baseline=``),
            so it does not fail the run.
        targets: the devices it concerns (``"reference"``, ``"cpu"``,
            ``"gpu"``) when not all of them; empty when all (or when the
            irdiv that ran names none).
    """

    severity: str
    code: str
    layer: Optional[Layer]
    message: str
    evidence: Dict[str, Any] = field(default_factory=dict)
    counter_example: Optional[Dict[str, "np.ndarray"]] = field(default=None, repr=False)
    baselined: bool = False
    targets: List[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = f"{self.layer}: " if self.layer else ""
        return f"{self.severity} {self.code}: {where}{self.message}"


@dataclass
class Summary:
    """How many findings of each severity the report lists."""

    errors: int = 0
    warnings: int = 0
    notes: int = 0


@dataclass
class NotAnalysed:
    """An integer Divide that irdiv did not analyse, and why.

    Attributes:
        layer: the Divide, or for one inside an If, Loop or TensorIterator
            body, the outer layer that holds the body.
        divide: for a Divide inside a body, the path to it; else "".
        reason: why it was not analysed.
    """

    layer: Optional[Layer]
    divide: str
    reason: str


@dataclass
class Coverage:
    """How many integer Divides the model holds and what became of them."""

    integer_divides: int = 0
    proven: int = 0
    errors: int = 0
    warnings: int = 0
    clean: int = 0
    not_analysed: List[NotAnalysed] = field(default_factory=list)


@dataclass
class Report:
    """What ``irdiv validate`` found in one model.

    Attributes:
        model: the model as it was given (its path), or
            ``"<onnx.ModelProto>"`` for an in-memory model.
        findings: the findings at the requested severity and worse.
        summary: the findings' count by severity, as the command counts
            them (those that ``severity=`` hides included, in irdiv
            versions that report ``hidden``).
        hidden: the findings ``severity=`` left out, by severity, or None.
        coverage: the model's integer Divides and their verdicts, or None
            when the command's JSON has no coverage.
        returncode: the command's exit status: 0, or 1 when a finding fails
            the run (an error by default; see ``fail_on=`` and
            ``baseline=``).
        raw: the command's JSON, whole.
    """

    model: str
    findings: List[Finding]
    summary: Summary
    hidden: Optional[Summary] = None
    coverage: Optional[Coverage] = None
    returncode: int = 0
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def errors(self) -> List[Finding]:
        """The findings of severity error."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> List[Finding]:
        """The findings of severity warning."""
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def notes(self) -> List[Finding]:
        """The findings of severity note."""
        return [f for f in self.findings if f.severity == "note"]

    @property
    def ok(self) -> bool:
        """Whether the run passed: exit status 0, no finding that fails it."""
        return self.returncode == 0


def _layer(obj: Any) -> Optional[Layer]:
    if not isinstance(obj, Mapping):
        return None
    return Layer(id=int(obj.get("id", -1)), name=str(obj.get("name", "")))


def _ints(obj: Any, cls: Any, names: List[str]) -> Any:
    obj = obj if isinstance(obj, Mapping) else {}
    return cls(**{n: int(obj.get(n, 0)) for n in names})


def parse_report(data: Mapping[str, Any], returncode: int = 0) -> Report:
    """Builds a Report from one model's JSON (counter-examples not loaded)."""
    findings = [
        Finding(
            severity=str(f.get("severity", "")),
            code=str(f.get("code", "")),
            layer=_layer(f.get("layer")),
            message=str(f.get("message", "")),
            evidence=dict(f.get("evidence") or {}),
            baselined=bool(f.get("baselined", False)),
            targets=[str(t) for t in f.get("targets") or []],
        )
        for f in data.get("findings") or []
    ]
    coverage = None
    c = data.get("coverage")
    if isinstance(c, Mapping):
        coverage = _ints(c, Coverage, ["integer_divides", "proven", "errors", "warnings", "clean"])
        coverage.not_analysed = [
            NotAnalysed(layer=_layer(u.get("layer")), divide=str(u.get("divide", "")), reason=str(u.get("reason", "")))
            for u in c.get("not_analysed") or []
        ]
    return Report(
        model=str(data.get("model", "")),
        findings=findings,
        summary=_ints(data.get("summary"), Summary, ["errors", "warnings", "notes"]),
        hidden=_ints(data["hidden"], Summary, ["errors", "warnings", "notes"]) if isinstance(data.get("hidden"), Mapping) else None,
        coverage=coverage,
        returncode=returncode,
        raw=dict(data),
    )
