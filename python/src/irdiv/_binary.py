"""Where the irdiv binary is, and the package's one error type."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional, Sequence

EXE = "irdiv.exe" if sys.platform == "win32" else "irdiv"


class Error(Exception):
    """irdiv could not do what was asked.

    The message is the command line's own (``irdiv: open x.onnx: no such
    file or directory``) or, when the binary could not run, why not.

    Attributes:
        returncode: the command's exit status (2 for a usage error, 1 for
            an error such as an unreadable model), or None when it did not
            run.
        stderr: what the command wrote on its standard error.
        command: the command that ran, as a list of arguments.
    """

    def __init__(
        self,
        message: str,
        returncode: Optional[int] = None,
        stderr: str = "",
        command: Sequence[str] = (),
    ) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
        self.command = list(command)


def binary() -> str:
    """The path of the irdiv binary this package runs.

    It is the one bundled in the wheel (``irdiv/bin/irdiv`` inside the
    package), or ``$IRDIV_BINARY`` when that is set.

    Raises:
        Error: no binary is there (the package was not installed from its
            wheel, and ``$IRDIV_BINARY`` is not set).
    """
    env = os.environ.get("IRDIV_BINARY")
    if env:
        return env
    path = Path(__file__).resolve().parent / "bin" / EXE
    if not path.is_file():
        raise Error(
            f"irdiv: the bundled irdiv binary is missing ({path}): install the irdiv wheel, "
            "or set IRDIV_BINARY to an irdiv binary"
        )
    return str(path)
