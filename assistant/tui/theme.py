"""The person's theme, kept across runs: the window opens in the theme chosen last time (ctrl+p,
"Change theme"), and a new choice is saved to the config file as it is made."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.theme import Theme

from assistant.settings import Settings


def keep_theme(app: App[Any], settings: Settings, save: Callable[[str], None] | None) -> None:
    """Apply `settings.theme` (when Textual knows it) and save each theme chosen from now on
    with `save` (`settings.theme` is what was saved last, so choosing it again writes nothing)."""
    if settings.theme and settings.theme in app.available_themes:
        app.theme = settings.theme

    def chosen(theme: Theme) -> None:
        if save is not None and theme.name != settings.theme:
            try:
                save(theme.name)
            except Exception as exc:  # noqa: BLE001 - a config file we cannot write is a notice
                app.notify(f"Could not save the theme: {exc}", severity="warning")

    app.theme_changed_signal.subscribe(app, chosen)
