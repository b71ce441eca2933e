"""DESIGN's "who may import whom", held against the code: no arrow back up (tools imports neither
reflection nor assistant; reflection never imports assistant), and the guard, the date grammar and
the tool catalog load nothing heavy (each checked in a fresh interpreter, so what another test
imported first cannot hide a heavy import)."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sqlalchemy", "sqlmodel", "alembic", "anthropic", "textual", "mcp", "googleapiclient", "caldav")
FORBIDDEN = {"tools": ("reflection", "assistant"), "reflection": ("assistant",)}


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_goes_back_up(package: str) -> None:
    offenders = [f"{path.relative_to(ROOT)}: {name}"
                 for path in sorted((ROOT / package).rglob("*.py"))
                 for name in _imported(path)
                 if name.split(".")[0] in FORBIDDEN[package]]
    assert offenders == []


def _loaded_by(module: str) -> list[str]:
    code = (f"import {module}, sys, json; "
            f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    loaded: list[str] = json.loads(out)
    return loaded


@pytest.mark.parametrize("module", ["reflection.guard", "reflection.dates.resolver", "tools.specs"])
def test_the_guard_the_date_grammar_and_the_catalog_load_nothing_heavy(module: str) -> None:
    """The guard reads the tool catalog (names, schemas, kinds), never the handlers or the store,
    so judging a case (`check`, the MCP door's per-call guard) never pays for SQLAlchemy, the
    Anthropic SDK, Textual or the MCP SDK."""
    assert _loaded_by(module) == []


def test_the_local_calendar_and_its_journal_load_no_postgresql_dialect() -> None:
    """Every command opens the local calendar and the journal; SQLAlchemy's PostgreSQL dialect is
    loaded only for a PostgreSQL store (it cost every `agenda` ~20 ms when a prebuilt statement
    or an index's `postgresql_where` pulled it in at import)."""
    code = ("import sys; import assistant.services, tools.backends.local, tools.journal.journal; "
            "print(sorted(m for m in sys.modules if m.startswith('sqlalchemy.dialects.postgresql')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
