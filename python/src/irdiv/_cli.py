"""The irdiv console command: the bundled binary, with the same arguments."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List, Optional

from ._binary import Error, binary


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the bundled irdiv binary with argv (default: sys.argv[1:]).

    On POSIX, with the process's own arguments, the binary replaces this
    process (exec), so its exit status, signals and output are the
    command's own. Elsewhere, or with argv given, it runs as a child and its
    exit status is returned.
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        exe = binary()
    except Error as e:
        print(e, file=sys.stderr)
        return 1
    if argv is None and os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            os.execv(exe, [exe, *args])
        except OSError as e:
            print(f"irdiv: cannot run {exe}: {e}", file=sys.stderr)
            return 1
    try:
        return subprocess.call([exe, *args])
    except OSError as e:
        print(f"irdiv: cannot run {exe}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
