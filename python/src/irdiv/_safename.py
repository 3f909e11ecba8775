"""The file names irdiv gives a counter-example's inputs.

A port of the Go package internal/safename (Stem, Unique, Files), which is
the one source of these names: ``irdiv validate --counter-examples`` writes
each input of a counter-example as ``Files(names)[name]`` in the folder its
JSON names (``counter_example_dir``), but the JSON does not list the files,
so they are found here by the same rule. Keep it in step with
internal/safename/safename.go; tests/test_irdiv.py has its cases.
"""

from __future__ import annotations

import hashlib
import re
from typing import Dict, Iterable, List

MAX_LEN = 200  # the longest stem
_KEEP = 100  # how much of a long name stays before its hash


def stem(name: str) -> str:
    """safename.Stem: name made safe as one path element."""
    s = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if s == "" or s[0] == ".":
        s = "_" + s
    if len(s) > MAX_LEN:
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        s = s[:_KEEP] + "~" + digest
    return s


def unique(names: List[str]) -> List[str]:
    """safename.Unique: a stem per name, unique among them ignoring case."""
    out = [""] * len(names)
    taken = set()
    for i, n in enumerate(names):  # unchanged names first
        s = stem(n)
        if s == n and s.lower() not in taken:
            out[i] = s
            taken.add(s.lower())
    for i, n in enumerate(names):
        if out[i]:
            continue
        s, k = stem(n), 2
        while s.lower() in taken:
            s = f"{stem(n)}~{k}"
            k += 1
        out[i] = s
        taken.add(s.lower())
    return out


def files(names: Iterable[str]) -> Dict[str, str]:
    """safename.Files: the .npy file of each name in one folder."""
    ordered = sorted(set(names), key=lambda n: n.encode("utf-8", "surrogateescape"))
    return {n: s + ".npy" for n, s in zip(ordered, unique(ordered))}
