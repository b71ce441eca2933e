"""Helpers to run backend tests against the fake Google server, with the network cut off.

`google_backend_for(server, home)` gives a GoogleBackend signed in to the fake, so the
backend-neutral suite can run unchanged on Google; `block_network(monkeypatch)` makes any
non-loopback connection (or DNS lookup) fail loudly instead of reaching the internet.
"""
from __future__ import annotations

import ipaddress
import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from google.oauth2.credentials import Credentials

from fixtures.fake_google import FakeGoogleCalendar
from tools.backends.google.auth import SCOPES, TokenManager, save_credentials
from tools.backends.google.backend import GoogleBackend

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback_host(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def block_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse every connection and lookup that is not to this machine."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def guarded_connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_host(address[0]):
            raise ConnectionRefusedError(f"network disabled in tests: {address!r}")
        return real_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_host(address[0]):
            raise ConnectionRefusedError(f"network disabled in tests: {address!r}")
        return real_connect_ex(self, address)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _is_loopback_host(host):
            raise socket.gaierror(f"network disabled in tests: {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)  # the fake is on loopback: never via a proxy
    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)


def write_token(server: FakeGoogleCalendar, home_dir: Path | str, *,
                expired: bool = False) -> Credentials:
    """Store a token the fake accepts (or one whose access token has run out)."""
    access, refresh = server.issue_tokens()
    expiry = datetime.now(UTC).replace(tzinfo=None) + (
        timedelta(hours=-1) if expired else timedelta(hours=1))
    credentials = Credentials(token=access, refresh_token=refresh, token_uri=server.token_uri,
                              client_id=server.client_id, client_secret=server.client_secret,
                              scopes=SCOPES, expiry=expiry)
    save_credentials(credentials, home_dir)
    return credentials


def google_backend_for(server: FakeGoogleCalendar, home_dir: Path | str,
                       calendar_id: str = "primary", **options: Any) -> GoogleBackend:
    """A GoogleBackend on the fake server, signed in through a token file in `home_dir`.

    Backoff sleeps are no-ops so retry tests stay fast.
    """
    if not (Path(home_dir) / "google-token.json").exists():
        write_token(server, home_dir)
    tokens = TokenManager.from_home(home_dir, token_uri=server.token_uri)
    options.setdefault("sleep", lambda _seconds: None)
    return GoogleBackend(tokens, api_endpoint=server.api_endpoint, calendar_id=calendar_id,
                         **options)


def fake_google_backend(home_dir: Path | str, *, time_zone: str = "America/Los_Angeles",
                        **options: Any) -> GoogleBackend:
    """A GoogleBackend on a fake server of its own, stopped by `backend.close()`.

    For `make_backend(name, tmp_path)`-style factories that have nowhere to keep a server:
    `if name == "google": return fake_google_backend(tmp_path / "google-home", time_zone=PERSON_TZ)`.
    The server is reachable as `backend.fake_server` (to inject faults or edit concurrently).
    """
    server = FakeGoogleCalendar(time_zone=time_zone).start()
    backend = google_backend_for(server, home_dir, **options)
    backend.fake_server = server  # type: ignore[attr-defined]
    inner_close = backend.close

    def close() -> None:
        try:
            inner_close()
        finally:
            server.stop()

    backend.close = close  # type: ignore[method-assign]
    return backend
