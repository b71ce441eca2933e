"""Date words inside the window's titles (issue 25): a phrase of several words ("a week from
tuesday") is read against the window's titles joined in its order only when it may sit across
the space joining two of them; otherwise the distinct titles tell, and the window's 2,000
events at 100,000 are not read."""
from __future__ import annotations

import itertools
import random

from reflection.checks.dates import _may_span


def test_a_phrase_no_title_order_can_hold_is_decided_without_the_order() -> None:
    titles = ["yoga", "ballet - maya", "dentist - leo", "swim meet"]
    assert not _may_span("a week from tuesday", titles)   # "yog|a" ends a title, nothing goes on
    assert not _may_span("swim meet", titles)             # inside one title: found whatever the order
    assert not _may_span("friday", titles)                # one word never spans a join
    assert _may_span("leo swim", titles)                  # "dentist - leo" then "swim meet"
    assert _may_span("a swim", titles)                    # "yoga" then "swim meet"
    assert _may_span("leo yoga ballet", titles)           # across a whole title in the middle


def test_whatever_the_order_a_phrase_found_across_titles_is_one_that_may_span() -> None:
    """Every phrase found in some order of the titles joined by spaces, and in no title alone,
    is one `_may_span` says may span: the distinct titles never decide a phrase the order would
    find."""
    rng = random.Random(11)
    pieces = ["a", "b", "ab", "b a", "a b", "", "ba b", "c"]
    for _ in range(300):
        titles = rng.sample(pieces, rng.randrange(1, 5))
        for order in itertools.permutations(titles):
            joined = " ".join(order)
            for i in range(len(joined)):
                for j in range(i + 1, min(len(joined), i + 8) + 1):
                    phrase = joined[i:j]
                    if " " in phrase and not any(phrase in t for t in titles):
                        assert _may_span(phrase, list(titles)), (phrase, order)
