"""The app's log file: `calendar-assistant.log` in the home dir (CONTRACT section 1's data dir).

What a person reads about a failure is one sentence (`tools.backends.errors`); what a developer
needs to find its cause (the exception, its causes and traceback, the service's own words) is
written here instead, with every secret masked (`tools.masking`). The file is opened only when
the first line is written (a command that logs nothing leaves no file), is private (mode 0600, in
the 0700 home dir) and rotates at 1 MB, keeping two old files.
"""
from __future__ import annotations

import io
import logging
import logging.handlers
import os
import threading
from pathlib import Path

from tools.masking import mask_secrets

LOG_NAME = "calendar-assistant.log"
MAX_BYTES = 1_000_000
BACKUPS = 2
LOGGER = logging.getLogger("calendar_assistant")

_LOCK = threading.Lock()


class MaskingFormatter(logging.Formatter):
    """The usual format, then every secret of the whole record (traceback included) masked."""

    def format(self, record: logging.LogRecord) -> str:
        return mask_secrets(super().format(record))


class PrivateFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file created 0600 (its folder 0700) when the first record comes."""

    def _open(self) -> io.TextIOWrapper:
        path = Path(self.baseFilename)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return io.TextIOWrapper(io.FileIO(fd, "a"), encoding=self.encoding or "utf-8",
                                errors=self.errors, line_buffering=False)


def log_path(home: Path) -> Path:
    return home / LOG_NAME


def open_log(home: Path) -> Path:
    """Send the app's log to the file in `home` (once per home; a new home replaces the old
    one, as tests and `CALENDAR_ASSISTANT_HOME` change it). Returns the file's path."""
    path = log_path(home).absolute()
    with _LOCK:
        for handler in list(LOGGER.handlers):
            if isinstance(handler, PrivateFileHandler):
                if Path(handler.baseFilename) == path:
                    return path
                LOGGER.removeHandler(handler)
                handler.close()
        handler = PrivateFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                                     encoding="utf-8", delay=True)
        handler.setFormatter(MaskingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        LOGGER.addHandler(handler)
        if LOGGER.level == logging.NOTSET or LOGGER.level > logging.INFO:
            LOGGER.setLevel(logging.INFO)
    return path


__all__ = ["LOG_NAME", "open_log", "log_path"]
