"""From a worker thread back to the screen: Textual widgets are not thread-safe, so a worker
hands what it has to the UI thread and waits until it is shown."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App


def call_ui(app: App[Any], callback: Callable[..., object], *args: object) -> None:
    """Run `callback` on the UI thread and wait for it (a coroutine is awaited there). Once the
    app is closing nobody is watching: there is nothing to show, and no error either."""
    try:
        app.call_from_thread(callback, *args)
    except RuntimeError:
        pass
