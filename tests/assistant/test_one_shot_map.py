"""A command that reads the calendar once (`agenda`, `export`) opens the local file without
SQLite's memory map; the chat and the MCP server, which list again and again, keep it. The map
adds every page a listing touches to the process's resident memory (a 100,000-event agenda
peaked at 116 MB with it, 80 MB without: bench/bench_agenda.py)."""
from __future__ import annotations

from pathlib import Path

from assistant.services import build_services
from assistant.settings import load_settings
from tools.backends.local import LocalBackend


def _mapped(backend: LocalBackend) -> int:
    with backend.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA mmap_size").scalar() or 0)


def test_a_one_shot_command_reads_the_calendar_without_the_map(home: Path) -> None:
    with build_services(load_settings(), one_shot=True) as services:
        assert isinstance(services.backend, LocalBackend)
        assert _mapped(services.backend) == 0


def test_the_chat_keeps_the_map(home: Path) -> None:
    with build_services(load_settings()) as services:
        assert isinstance(services.backend, LocalBackend)
        assert _mapped(services.backend) > 0
