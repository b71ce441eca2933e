"""Google sign-in: the stored token, its refresh, and the installed-app login flow.

The token lives in `google-token.json` in the app's home dir (never the working directory), in the
authorized-user format `Credentials.to_json()` writes, with mode 0600, written atomically so a
crash mid-write never leaves half a token. Refreshes go to the token endpoint from the setting or
`CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI` (default Google's): a `token_uri` inside the file is ignored,
as `google-auth` itself does, so a planted file cannot send the refresh token elsewhere.

A revoked or expired grant (`invalid_grant`) is not retried: the dead token is deleted and
`LoginRequired` tells the person to run `calendar-assistant login` again.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from google.auth import exceptions as google_auth_exceptions
from google.auth import transport as google_auth_transport
from google.oauth2.credentials import Credentials

from tools.backends.base import CalendarError
from tools.backends.errors import service_error
from tools.store.files import write_private_file

GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
GOOGLE_AUTH_URI = "https://accounts.google.com/o/oauth2/auth"
GOOGLE_REVOKE_URI = "https://oauth2.googleapis.com/revoke"
SCOPES = ["https://www.googleapis.com/auth/calendar.events",
          "https://www.googleapis.com/auth/calendar.calendarlist.readonly"]
TOKEN_FILENAME = "google-token.json"
TOKEN_URI_ENV = "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI"
LOGIN_AGAIN = ("Your Google sign-in has expired or was revoked; "
               "run `calendar-assistant login` again.")


class LoginRequired(CalendarError):
    """There is no usable Google sign-in; the person must run `calendar-assistant login`."""

    def __init__(self, message: str = LOGIN_AGAIN) -> None:
        super().__init__(message)


def token_path(home_dir: Path | str, token_file: str = TOKEN_FILENAME) -> Path:
    """Where a sign-in is kept: `google-token.json` in the home dir, or, for one account of
    several (`[[accounts]]`), that account's own `google-token-<name>.json` beside it."""
    return Path(home_dir) / token_file


def account_token_file(account: str) -> str:
    """The token file of the Google account named `account` in `[[accounts]]`: one file per
    account, so signing in to one never replaces another's grant."""
    return f"google-token-{account}.json"


def resolve_token_uri(token_uri: str | None = None) -> str:
    """The explicit setting, else the environment, else Google's endpoint."""
    return token_uri or os.environ.get(TOKEN_URI_ENV) or GOOGLE_TOKEN_URI


# ---------------------------------------------------------------------- token file
def save_credentials(credentials: Credentials, home_dir: Path | str,
                     token_file: str = TOKEN_FILENAME) -> Path:
    """Write the token atomically with mode 0600 (`tools.store.files.write_private_file`): never
    readable by others, not even for a moment, and never half-written."""
    home = Path(home_dir)
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = token_path(home, token_file)
    text = credentials.to_json()  # type: ignore[no-untyped-call]  # unannotated in google-auth
    write_private_file(target, text, prefix=".google-token-")
    return target


def delete_token(home_dir: Path | str, token_file: str = TOKEN_FILENAME) -> bool:
    """Remove the stored token; True when there was one."""
    try:
        token_path(home_dir, token_file).unlink()
        return True
    except FileNotFoundError:
        return False


def tighten_token_file(path: Path) -> bool:
    """A token file others can read (copied in by hand, or made by an older version) is made
    0600 at once, with a one-line warning: the refresh token in it is a standing key to the
    person's calendar. True when the mode was changed."""
    try:
        current = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return False
    if not current & 0o077:
        return False
    os.chmod(path, 0o600)
    print(f"calendar-assistant: warning: {path} was readable by other users (mode {current:o}); "
          "it is now 0600. If anyone else could read it, run `calendar-assistant logout` and "
          "`login` again.", file=sys.stderr)
    return True


def load_credentials(home_dir: Path | str, *, token_uri: str | None = None,
                     token_file: str = TOKEN_FILENAME) -> Credentials:
    """The stored credentials, bound to the configured token endpoint (not the file's)."""
    path = token_path(home_dir, token_file)
    tighten_token_file(path)
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        # ignores the file's token_uri; unannotated in google-auth
        credentials: Credentials = Credentials.from_authorized_user_info(info)  # type: ignore[no-untyped-call]
    except FileNotFoundError:
        raise LoginRequired("Not signed in to Google; run `calendar-assistant login`.") from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise LoginRequired(f"The stored Google sign-in ({path}) cannot be read ({exc}); "
                            "run `calendar-assistant login` again.") from None
    bound: Credentials = credentials.with_token_uri(resolve_token_uri(token_uri))  # Any: undecorated in google-auth
    bound.expiry = credentials.expiry  # google-auth's copy drops the expiry: keep it, or an
    return bound                       # expired token would look valid until a 401


def is_invalid_grant(exc: google_auth_exceptions.RefreshError) -> bool:
    for arg in exc.args:
        if isinstance(arg, dict) and arg.get("error") == "invalid_grant":
            return True
        if isinstance(arg, str) and "invalid_grant" in arg:
            return True
    return False


# ---------------------------------------------------------------------- transport for google-auth
class _AuthResponse(google_auth_transport.Response):
    def __init__(self, response: httpx.Response) -> None:
        self._response = response

    @property
    def status(self) -> int:
        return self._response.status_code

    @property
    def headers(self) -> dict[str, str]:
        return dict(self._response.headers)

    @property
    def data(self) -> bytes:
        return self._response.content


class HttpxAuthRequest(google_auth_transport.Request):
    """google-auth's transport interface on httpx, so refreshes use the same client as the API."""

    def __init__(self, client: httpx.Client | None = None, timeout: float = 30.0) -> None:
        self._client = client or httpx.Client(timeout=timeout, follow_redirects=False)
        self._timeout = timeout

    def __call__(self, url: str, method: str = "GET", body: Any = None,
                 headers: dict[str, str] | None = None, timeout: float | None = None,
                 **kwargs: Any) -> _AuthResponse:
        try:
            response = self._client.request(method, url, content=body, headers=headers,
                                            timeout=timeout or self._timeout)
        except httpx.HTTPError as exc:
            # google-auth leaves its exceptions' __init__ unannotated
            raise google_auth_exceptions.TransportError(exc) from exc  # type: ignore[no-untyped-call]
        return _AuthResponse(response)


class TokenManager:
    """Hands out a valid access token, refreshing (and saving) it when it runs out.

    One lock so that parallel requests trigger one refresh, not one each.
    """

    def __init__(self, credentials: Credentials, home_dir: Path | str | None,
                 request: google_auth_transport.Request | None = None,
                 token_file: str = TOKEN_FILENAME) -> None:
        self.credentials = credentials
        self.home_dir = Path(home_dir) if home_dir is not None else None
        self.token_file = token_file
        self._request = request or HttpxAuthRequest()
        self._lock = threading.Lock()

    @classmethod
    def from_home(cls, home_dir: Path | str, *, token_uri: str | None = None,
                  request: google_auth_transport.Request | None = None,
                  token_file: str = TOKEN_FILENAME) -> TokenManager:
        return cls(load_credentials(home_dir, token_uri=token_uri, token_file=token_file),
                   home_dir, request, token_file)

    def authorization(self) -> str:
        """The `Authorization` header value, refreshed first if the token has (nearly) expired."""
        with self._lock:
            if not self.credentials.valid:
                self._refresh()
            return f"Bearer {self.credentials.token}"

    def force_refresh(self, rejected_token: str | None = None) -> None:
        """After a 401: refresh unless another thread already replaced the rejected token."""
        with self._lock:
            if rejected_token is None or f"Bearer {self.credentials.token}" == rejected_token:
                self._refresh()

    def _refresh(self) -> None:
        if not self.credentials.refresh_token:
            raise LoginRequired("The stored Google sign-in has no refresh token; "
                                "run `calendar-assistant login` again.")
        try:
            self.credentials.refresh(self._request)  # type: ignore[no-untyped-call]  # unannotated in google-auth
        except google_auth_exceptions.RefreshError as exc:
            if is_invalid_grant(exc):
                if self.home_dir is not None:
                    delete_token(self.home_dir, self.token_file)
                raise LoginRequired() from exc
            raise service_error("google", exc, "renew the sign-in") from exc
        except google_auth_exceptions.TransportError as exc:
            raise service_error("google", exc, "renew the sign-in") from exc
        if self.home_dir is not None:
            save_credentials(self.credentials, self.home_dir, self.token_file)


# ---------------------------------------------------------------------- login / logout
def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1")


@contextlib.contextmanager
def _insecure_transport_for_loopback(token_uri: str) -> Iterator[None]:
    """oauthlib refuses plain http; allow it only for a token endpoint on this machine (tests)."""
    if not _is_loopback(token_uri):
        yield
        return
    key = "OAUTHLIB_INSECURE_TRANSPORT"
    saved = os.environ.get(key)
    os.environ[key] = "1"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = saved


def _client_config(client_secrets_file: Path | str, token_uri: str | None,
                   auth_uri: str | None) -> dict[str, Any]:
    try:
        config: dict[str, Any] = json.loads(Path(client_secrets_file).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalendarError(f"client secrets file not found: {client_secrets_file}") from None
    except ValueError as exc:
        raise CalendarError(f"client secrets file {client_secrets_file} is not JSON: {exc}") from None
    kind = "installed" if "installed" in config else "web" if "web" in config else None
    if kind is None:
        raise CalendarError(f"{client_secrets_file}: expected an 'installed' OAuth client "
                            "(Desktop app) from the Google Cloud console")
    section = config[kind]
    section["token_uri"] = resolve_token_uri(token_uri)
    section["auth_uri"] = auth_uri or section.get("auth_uri") or GOOGLE_AUTH_URI
    return config


def login(client_secrets_file: Path | str, home_dir: Path | str, *, open_browser: bool,
          port: int = 0, token_uri: str | None = None, auth_uri: str | None = None,
          on_url: Callable[[str], None] | None = None, timeout_seconds: int | None = 300,
          print_fn: Callable[[str], None] = print, token_file: str = TOKEN_FILENAME) -> Credentials:
    """Run the installed-app OAuth flow (PKCE, loopback redirect) and store the token.

    Without a browser (`open_browser=False`, e.g. over SSH) it prints the URL and how to forward
    the loopback port, because the redirect must reach this machine's local server. `on_url` is
    called with the authorization URL once the local server listens (tests drive the redirect).
    """
    import webbrowser

    from google_auth_oauthlib.flow import InstalledAppFlow

    config = _client_config(client_secrets_file, token_uri, auth_uri)
    if open_browser:
        try:
            webbrowser.get()
        except webbrowser.Error:
            open_browser = False  # no browser here (SSH, container): print the URL instead

    class _Flow(InstalledAppFlow):  # type: ignore[misc]  # google-auth-oauthlib ships no type information
        def authorization_url(self, **kwargs: Any) -> tuple[str, str]:
            url, state = super().authorization_url(**kwargs)
            local_port = urlsplit(self.redirect_uri).port
            if not open_browser:
                print_fn("Open this URL in a browser to sign in to Google:\n" + url)
                print_fn(f"If that browser is on another machine, forward the port first: "
                         f"ssh -L {local_port}:localhost:{local_port} <this host>")
            if on_url is not None:
                on_url(url)
            return url, state

    flow = _Flow.from_client_config(config, scopes=SCOPES, autogenerate_code_verifier=True)
    with _insecure_transport_for_loopback(config[next(iter(config))]["token_uri"]):
        credentials: Credentials = flow.run_local_server(
            host="localhost", port=port, open_browser=open_browser,
            authorization_prompt_message="" if not open_browser else
            "Your browser has been opened to sign in to Google: {url}",
            success_message="Signed in. You can close this window and return to calendar-assistant.",
            timeout_seconds=timeout_seconds, access_type="offline", prompt="consent")
    if not credentials.refresh_token:
        raise CalendarError("Google did not return a refresh token; run login again.")
    save_credentials(credentials, home_dir, token_file)
    return credentials


def logout(home_dir: Path | str, *, revoke: bool = False, revoke_uri: str = GOOGLE_REVOKE_URI,
           client: httpx.Client | None = None, token_file: str = TOKEN_FILENAME) -> bool:
    """Forget the stored sign-in; with `revoke`, also ask Google to revoke the grant (best effort).

    Returns True when a token was stored. Revocation failing never keeps the local token.
    """
    path = token_path(home_dir, token_file)
    if revoke and path.exists():
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
            token = info.get("refresh_token") or info.get("token")
            if token:
                http = client or httpx.Client(timeout=10.0)
                http.post(revoke_uri, data={"token": token})
        except (OSError, ValueError, httpx.HTTPError):
            pass
    return delete_token(home_dir, token_file)
