"""`json.dumps` and `json.loads` with their default settings, without their cost per call.

Every `json.dumps(value)` builds a new C encoder and walks `JSONEncoder.encode` and
`iterencode` in Python before any byte is written; for the journal's small texts (a snapshot,
an event, ~250-500 characters) that set-up is a third of the time: the four texts of one entry
of a bulk update take 12.4 us through `json.dumps`, 9.0 us through one encoder made once (one
document of all four through `json.dumps` would take 9.8 us). `dumps` here is that one encoder,
with exactly the settings `json.dumps` uses by default (ASCII escapes, `", "` and `": "`, keys
in their order, NaN allowed), so it writes the very same text: stored texts keep their
spelling, and an old reader reads them. Reading, `loads` skips `json.loads`'s checks of its
argument and goes to the decoder they lead to for text (four texts: 9.1 us -> 6.5 us).

The encoder is made without the circular-reference check (no dict of markers shared between
threads): the values given here are plain data built from rows, snapshots and events, never
cyclic. Without the C accelerator (`json.encoder.c_make_encoder` is None) it is `json.dumps`.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as _encoder
from typing import Any

__all__ = ["dumps", "loads"]


def _one_encoder() -> Callable[[Any], str]:
    make = getattr(_encoder, "c_make_encoder", None)  # not in the typeshed stubs
    if make is None:  # pragma: no cover - CPython always has it
        return json.dumps
    # the arguments `JSONEncoder.iterencode` passes for `json.dumps(value)`, markers aside
    encode = make(None, json.JSONEncoder().default, _encoder.encode_basestring_ascii, None,
                  ": ", ", ", False, False, True)

    def dumps(value: Any) -> str:
        """`json.dumps(value)`, the same text."""
        return "".join(encode(value, 0))

    return dumps


dumps: Callable[[Any], str] = _one_encoder()


_DECODER = json.JSONDecoder()
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def loads(text: Any) -> Any:
    """`json.loads(text)`: for a `str` without a byte-order mark, the very decoder `json.loads`
    hands it to; anything else through `json.loads` itself (its errors, word for word). A text
    that is one value from its first character to its last (what `dumps` writes) is read by
    the decoder's scanner directly, without `decode`'s two whitespace matches around it; any
    other (spaces around it, more after it, not JSON) goes through `decode`, as before."""
    if type(text) is not str or text.startswith("\ufeff"):
        return json.loads(text)
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError):
        return _DECODER.decode(text)  # its error, word for word
    if end == len(text):
        return value
    return _DECODER.decode(text)
