"""`calendar-assistant lessons`: the --json contract shape, resolve/forget, unknown ids exit 2,
export, all against the configured home's state database."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.settings import load_settings
from reflection.findings import Finding
from reflection.lessons.store import LessonStore
from tools.store.database import Store

NOW = datetime(2025, 10, 22, 16, 15, tzinfo=UTC)


def seed(home: Path) -> LessonStore:
    store = LessonStore(Store.sqlite(load_settings().state_db))
    friday = Finding("date", "error", "'next Friday' is Friday 2025-10-24; the call uses Friday 2025-10-31 18:00",
                     "use Friday 2025-10-24", "symbolic", 1, "next Friday")
    home_f = Finding("location", "error", "'home' means the person's home, but the lookup returned a business",
                     "use the home address", "symbolic", 0, "home")
    store.learn("t1", [friday, home_f], guard_version="1", when=NOW)
    store.learn("t2", [friday], guard_version="1", when=NOW + timedelta(days=1))
    return store


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["lessons", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_exactly_the_contract_list(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json")
    assert code == 0 and json.loads(out) == []
    seed(home)
    code, out, _ = run(capsys, "--json")
    items = json.loads(out)
    assert code == 0 and len(items) == 2
    for item in items:
        assert set(item) == {"id", "type", "text", "seen_count", "first_seen", "last_seen", "resolved"}
        assert isinstance(item["id"], int) and isinstance(item["resolved"], bool)
        datetime.fromisoformat(item["first_seen"]), datetime.fromisoformat(item["last_seen"])
    first = items[0]
    assert (first["type"], first["seen_count"], first["resolved"]) == ("date", 2, False)
    assert first["first_seen"] == "2025-10-22T16:15:00+00:00"
    assert first["last_seen"] == "2025-10-23T16:15:00+00:00"


def test_table_lists_lessons(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "No lessons" in out
    seed(home)
    code, out, _ = run(capsys)
    assert code == 0 and "“next” and a weekday" in out and "location" in out
    assert "2025-10-24" not in out  # a lesson keeps the kind of the mistake, not its dates


def test_resolve_and_forget(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(home)
    ids = [i["id"] for i in json.loads(run(capsys, "--json")[1])]
    code, out, _ = run(capsys, "--resolve", str(ids[0]))
    assert code == 0 and "resolved" in out
    code, out, _ = run(capsys, "--forget", str(ids[1]))
    assert code == 0 and "forgotten" in out
    items = json.loads(run(capsys, "--json")[1])
    assert [(i["id"], i["resolved"]) for i in items] == [(ids[0], True)]


@pytest.mark.parametrize("flag", ["--resolve", "--forget"])
def test_unknown_id_exits_2_with_one_line(home: Path, capsys: pytest.CaptureFixture[str], flag: str) -> None:
    seed(home)
    code, out, err = run(capsys, flag, "999")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "999" in err and "Traceback" not in err


def test_non_numeric_id_exits_2(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--resolve", "abc")
    assert code == 2 and err.count("\n") == 1


def test_export_writes_lessons(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(home)
    target = tmp_path / "lessons.json"
    code, _, _ = run(capsys, "--export", str(target))
    data = json.loads(target.read_text())
    assert code == 0 and len(data["lessons"]) == 2
    assert data["lessons"][0]["provenance"][0]["turn_id"] == "t1"
    code, _, err = run(capsys, "--export", str(tmp_path / "missing" / "dir" / "x.json"))
    assert code == 2 and err.count("\n") == 1


def test_the_removed_constitution_flag_is_a_usage_error(home: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--constitution")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--constitution" in err
