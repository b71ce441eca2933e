"""`json.dumps` with its default settings, without its cost per call.

Every `json.dumps(value)` builds a new C encoder and walks `JSONEncoder.encode` and
`iterencode` in Python before any byte is written: for the journal's small documents (a
snapshot, an event, ~250-500 characters) that set-up was most of the time (bench_backend: four
texts per event of a 50-event bulk update took 2.5x as long through `json.dumps` as through one
encoder made once). `dumps` here is that one encoder, with exactly the settings `json.dumps`
uses by default (ASCII escapes, `", "` and `": "`, keys in their order, NaN allowed), so it
writes the very same text: stored texts keep their spelling, and an old reader reads them.

The encoder is made without the circular-reference check (no dict of markers shared between
threads): the values given here are plain data built from rows, snapshots and events, never
cyclic. Without the C accelerator (`json.encoder.c_make_encoder` is None) it is `json.dumps`.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as _encoder
from typing import Any

__all__ = ["dumps"]


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
