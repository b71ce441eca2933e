"""Where the command palette's screenshot is saved: Textual's default fails outright when there
is no Downloads directory, so the first existing, writable one of Downloads, home, cwd."""
from __future__ import annotations

import os
from pathlib import Path


def screenshot_dir() -> Path:
    """The first existing, writable one of Downloads, home, the current directory."""
    from platformdirs import user_downloads_dir

    for candidate in (Path(user_downloads_dir()), Path.home(), Path.cwd()):
        if candidate.is_dir() and os.access(candidate, os.W_OK):
            return candidate
    return Path.cwd()
