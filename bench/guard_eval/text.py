"""Surface variation of messages: typos, casing and emoji, politeness and filler."""

from __future__ import annotations

import random

POLITE = (
    "hey, could you {core} please? thanks!",
    "Hi! When you get a chance, {core}. Thank you so much",
    "ok so {core}, sorry for the last-minute change",
    "{Core}, if that's not too much trouble",
    "good morning! quick one: {core}",
    "um, can you {core}? this week is a mess lol",
    "Would you mind if we {core}? Much appreciated.",
    "so sorry to bother you again but {core}",
)


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def polite(rng: random.Random, core: str) -> str:
    """Wrap an imperative ``core`` in politeness and filler."""
    return rng.choice(POLITE).format(core=core, Core=capitalize(core))


def typo(rng: random.Random, text: str) -> str:
    """One human typo in a long-enough word of ``text`` (swap, drop or double a letter)."""
    words = text.split(" ")
    idx = [i for i, w in enumerate(words) if w.isalpha() and len(w) >= 5 and w[0].islower()]
    if not idx:
        idx = [i for i, w in enumerate(words) if w.isalpha() and len(w) >= 5]
    if not idx:
        return text
    i = rng.choice(idx)
    w = words[i]
    for _ in range(10):
        k = rng.randint(1, len(w) - 2)
        kind = rng.choice(("swap", "drop", "double"))
        if kind == "swap":
            new = w[:k] + w[k + 1] + w[k] + w[k + 2:]
        elif kind == "drop":
            new = w[:k] + w[k + 1:]
        else:
            new = w[:k] + w[k] + w[k:]
        if new != w:
            words[i] = new
            break
    return " ".join(words)


def casing_emoji(rng: random.Random, ref: str, emoji: str) -> str:
    """A reference with odd casing and/or its emoji."""
    shapes = [ref.upper(), ref.title(), f"{ref} {emoji}".strip(), f"{ref.upper()} {emoji}".strip(),
              f"{emoji} {ref}".strip(), ref.lower()]
    return rng.choice(shapes)


def message_case(rng: random.Random, message: str) -> str:
    """Whole-message casing: all caps, all lower, or as written."""
    return rng.choice((message.upper(), message.lower(), message, message))
