"""The journal's property tests (`tests/journal/test_journal_properties.py`: random turns rolled
back exactly, a concurrent edit kept and reported), run once more with each backend seen
through the composite of several accounts: the backend is the second account (`work`) of an
`AccountsBackend` whose first is a local calendar of its own, so every write and every journal
snapshot goes through the routing and the prefixed calendar ids."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import conftest
import pytest
from conftest import PERSON_TZ

from tools.backends.accounts import Account, AccountsBackend
from tools.backends.base import CalendarBackend
from tools.backends.local import LocalBackend

pytestmark = pytest.mark.slow  # property tests, on every backend and store (as the module run)

_PROPERTIES = Path(__file__).parents[1] / "journal" / "test_journal_properties.py"
_spec = importlib.util.spec_from_file_location("journal_properties_on_accounts", _PROPERTIES)
assert _spec is not None and _spec.loader is not None
_properties = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_properties)


def _through_accounts(name: str, path: Path) -> CalendarBackend:
    """`conftest.make_backend`'s backend as the `work` account of two."""
    inner = conftest.make_backend(name, path)
    home = LocalBackend(conftest.migrated_file(path / "home-account.db", "calendar"), PERSON_TZ)
    made = AccountsBackend([Account("home", home), Account("work", inner)],
                           default_calendar=f"work/{inner.primary_calendar_id()}")
    return made


_properties.make_backend = _through_accounts  # the module's worlds are built through it
# The random turns, the concurrent edit and the failing call: what routing and prefixed ids could
# break. The split's 200-example properties are left to their own module (they would double
# CI's longest tests; a split is the same creates, patches and deletes routed as these are).
_SHARED = ("test_rollback_restores_the_calendar_exactly",
           "test_concurrent_edit_survives_the_rollback_and_is_reported",
           "test_a_failing_call_writes_nothing")
globals().update({name: getattr(_properties, name) for name in _SHARED})
