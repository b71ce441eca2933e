"""Which Claude models the installed `anthropic` SDK knows, and which of them are retiring.

The SDK keeps both lists (the `ModelParam` names, newest first, and the deprecated ones with
their end-of-life dates); this reads them so the defaults and `config set model` follow the SDK
that is installed instead of a list of our own that would age. The deprecated list sits in a
private module of the SDK: when it moves, nothing is said rather than something wrong.
"""
from __future__ import annotations

from typing import get_args


def known_models() -> list[str]:
    """The model names the installed SDK lists, newest first."""
    from anthropic.types.model_param import ModelParam

    names: list[str] = []
    for part in get_args(ModelParam):
        names += [a for a in get_args(part) if isinstance(a, str)]
    return names


def retirement(model: str) -> str | None:
    """The date the SDK says `model` reaches end-of-life, or None when it is not retiring (or the
    installed SDK does not say)."""
    try:
        from anthropic._data import DEPRECATED_MODELS
    except ImportError:
        return None
    date = DEPRECATED_MODELS.get(model)
    return str(date) if date else None
