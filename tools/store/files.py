"""Private files of the home dir, written whole: the config file (it may hold an API key) and the
Google token.

`write_private_file` writes a temp file in the same dir (mkstemp creates it 0600 before any byte
is written), syncs it, and renames it over the target: the file is never readable by others, not
even for a moment, and never half-written, whatever kills the process.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_private_file(path: Path, text: str, prefix: str) -> None:
    """Put `text` at `path` atomically with mode 0600 (the temp file is named `prefix*.tmp`)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
