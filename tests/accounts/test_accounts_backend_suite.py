"""The backend-neutral behaviour suite (`tests/backends/test_backend_suite.py`), every test of it,
run once more on the composite of several accounts: two local accounts, the calendar used being
the second account's (`work/primary`), so every call is routed and every snapshot the journal
keeps carries the prefixed calendar id. What holds for one backend holds for the composite:
create/get/list/patch/delete, version conflicts, restores, recurring events and the journal's
exact rollback."""
from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PERSON_TZ

from tools.backends.accounts import Account, AccountsBackend
from tools.backends.local import LocalBackend

_SUITE = Path(__file__).parents[1] / "backends" / "test_backend_suite.py"
_spec = importlib.util.spec_from_file_location("backend_suite_on_accounts", _SUITE)
assert _spec is not None and _spec.loader is not None
_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_suite)
globals().update({name: getattr(_suite, name) for name in dir(_suite) if name.startswith("test_")})


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[AccountsBackend]:
    made = AccountsBackend([Account("home", LocalBackend(tmp_path / "calendar.db", PERSON_TZ)),
                            Account("work", LocalBackend(tmp_path / "work.db", PERSON_TZ))],
                           default_calendar="work/primary")
    yield made
    made.close()
