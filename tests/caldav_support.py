"""A real Radicale CalDAV server on 127.0.0.1 for the tests, started once per session.

`radicale_server()` starts it on first use (a subprocess of this very interpreter, so nothing
outside the virtual environment is needed: `python -m radicale`, a temporary storage folder, a
plain htpasswd file, a free port) and waits until it answers; conftest stops it at the end of
the session. `caldav_backend(tmp_path)` gives a CalDAVBackend on a calendar of its own.
"""
from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

USERNAME = "family"
PASSWORD = "radicale-test-password"
START_TIMEOUT = 30.0


@dataclass
class RadicaleServer:
    url: str
    folder: Path
    process: subprocess.Popen[bytes]
    requests_seen: list[str]

    @property
    def log(self) -> Path:
        return self.folder / "radicale.log"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.process.kill()
                self.process.wait()
        if not os.environ.get("RADICALE_KEEP"):  # keep the store and log to look into a failure
            shutil.rmtree(self.folder, ignore_errors=True)


_SERVER: RadicaleServer | None = None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=1)
    except urllib.error.HTTPError:
        return True  # 401/403/404: it is up
    except OSError:
        return False
    return True


def start_radicale() -> RadicaleServer:
    folder = Path(tempfile.mkdtemp(prefix="calendar-assistant-radicale-"))
    (folder / "users").write_text(f"{USERNAME}:{PASSWORD}\n", encoding="utf-8")
    port = _free_port()
    (folder / "config").write_text(
        "[server]\n"
        f"hosts = 127.0.0.1:{port}\n"
        "[auth]\n"
        "type = htpasswd\n"
        f"htpasswd_filename = {folder / 'users'}\n"
        "htpasswd_encryption = plain\n"
        "[storage]\n"
        f"filesystem_folder = {folder / 'collections'}\n"
        "[web]\n"
        "type = none\n"
        "[logging]\n"
        f"level = {os.environ.get('RADICALE_LOG_LEVEL', 'warning')}\n", encoding="utf-8")
    log = (folder / "radicale.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "radicale", "--config", str(folder / "config")],
                               stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + START_TIMEOUT
    while not _answers(url):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("Radicale did not start: "
                               + (folder / "radicale.log").read_text(errors="replace")[-2000:])
        time.sleep(0.05)
    return RadicaleServer(url, folder, process, [])


def radicale_server() -> RadicaleServer:
    """The session's server, started on first use."""
    global _SERVER
    if _SERVER is None or _SERVER.process.poll() is not None:
        _SERVER = start_radicale()
        atexit.register(_SERVER.stop)
    return _SERVER


def stop_radicale() -> None:
    global _SERVER
    if _SERVER is not None:
        _SERVER.stop()
        _SERVER = None


def new_calendar_url(server: RadicaleServer, name: str = "Family") -> str:
    """A fresh, empty calendar collection on the server."""
    from caldav import DAVClient

    with DAVClient(server.url, username=USERNAME, password=PASSWORD, auth_type="basic") as client:
        made = client.principal().make_calendar(name=name, cal_id="cal" + secrets.token_hex(6))
        return str(made.url)


def caldav_backend(tmp_path: Path | None = None, *, time_zone: str = "America/Los_Angeles",
                   **options: Any) -> Any:
    """A CalDAVBackend on a calendar of its own on the session's Radicale."""
    from tools.backends.caldav.backend import CalDAVBackend

    server = radicale_server()
    backend = CalDAVBackend(server.url, USERNAME, PASSWORD, calendar=new_calendar_url(server),
                            default_timezone=time_zone, **options)
    backend.radicale = server  # type: ignore[attr-defined]
    return backend
