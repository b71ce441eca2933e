"""One way to keep secrets out of what people, the model and the log read.

A secret is a setting's value (the API key, the CalDAV password, the password inside
`database_url` or any other URL), a token (OAuth access and refresh tokens, client secrets, a
`Bearer` header), or anything that looks like one in text we did not write: a URL with a password
in it (`https://me:hunter2@host/`), `password=...` in a query string or `"refresh_token": "..."` in a
quoted response. `mask_secrets` replaces every one of them by `***`, and every place a message
leaves the program goes through it: `config show`/`get`/`set`, the command line's error line,
the chat's notices, the tool results the model reads, and the log file.

Values the program knows are secret (the settings above, a loaded Google token) are remembered
with `remember_secret` when they are read, so they are masked even where no pattern would catch
them (a password repeated in a server's error text).
"""
from __future__ import annotations

import re
import threading
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
MIN_SECRET_CHARS = 4  # shorter values would mask ordinary words

SECRET_NAME = r"(?:pass(?:word|wd)?|pwd|secret|client_secret|api[_-]?key|apikey|key|token|" \
              r"access_token|refresh_token|id_token|auth|authorization|credentials?|sig|signature)"
"""Names whose value is a secret in a URL's query or a quoted response field."""
STRONG_NAME = r"(?:password|passwd|pwd|client_secret|api[_-]?key|apikey|access_token|" \
              r"refresh_token|id_token|token|secret)"
"""Names whose value is a secret even in running text (`password=hunter2`, `token: abc`)."""
_URL_USERINFO_RE = re.compile(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)(?P<user>[^\s:/@'\"]*):"
                              r"(?P<password>[^\s@/'\"]+)@", re.IGNORECASE)
_BARE_USERINFO_RE = re.compile(r"(?<![\w/:.@-])(?P<user>[\w.+-]+):(?P<password>[^\s@/:'\"]+)@"
                               r"(?=[\w.-]+)")
"""`user:password@host` without a scheme (a URL typed without one)."""
_QUERY_RE = re.compile(rf"(?P<name>[?&;]{SECRET_NAME}=)(?P<value>[^&\s'\"#]+)", re.IGNORECASE)
_QUOTED_RE = re.compile(rf"(?P<name>[\"']{SECRET_NAME}[\"']\s*[:=]\s*[\"'])(?P<value>[^\"']+)",
                        re.IGNORECASE)
_ASSIGNED_RE = re.compile(rf"(?P<name>\b{STRONG_NAME}\s*[=:]\s*)(?P<value>[^\s,;&'\")]+)",
                          re.IGNORECASE)
_BEARER_RE = re.compile(r"(?P<name>\b(?:Bearer|Basic)\s+)(?P<value>[A-Za-z0-9._~+/=-]{8,})")
_KEY_RE = re.compile(r"\bsk-(?:ant-)?[A-Za-z0-9_-]{8,}")
_GOOGLE_TOKEN_RE = re.compile(r"\bya29\.[A-Za-z0-9._-]+|\b1//[A-Za-z0-9._-]{10,}")

_KNOWN: set[str] = set()
_KNOWN_LOCK = threading.Lock()


def remember_secret(value: str | None) -> None:
    """Mask `value` wherever it shows up from now on (in this process)."""
    if value and len(value) >= MIN_SECRET_CHARS:
        with _KNOWN_LOCK:
            _KNOWN.add(value)


def url_password(url: str | None) -> str | None:
    """The password inside a URL (`scheme://user:password@host`), if it has one."""
    if not url:
        return None
    try:
        return urlsplit(url).password
    except ValueError:
        match = _URL_USERINFO_RE.search(url)
        return match.group("password") if match else None


def mask_url(url: str) -> str:
    """`url` with its password and any secret-looking query value replaced by `***`; the rest
    (scheme, user, host, path) kept, so a person can still tell which server it is."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            user = parts.username or ""
            host = netloc.rsplit("@", 1)[1]
            netloc = f"{user}:{MASK}@{host}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(re.fullmatch(SECRET_NAME, k, re.IGNORECASE) for k, _ in pairs):
                query = urlencode([(k, MASK if re.fullmatch(SECRET_NAME, k, re.IGNORECASE) else v)
                                   for k, v in pairs], safe="*")
        return mask_secrets(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))
    except ValueError:
        return mask_secrets(url)


def mask_secrets(text: str) -> str:
    """`text` with every secret in it replaced by `***` (see the module's docstring)."""
    if not text:
        return text
    with _KNOWN_LOCK:
        known = sorted(_KNOWN, key=len, reverse=True)
    for value in known:
        if value in text:
            text = text.replace(value, MASK)
    text = _URL_USERINFO_RE.sub(lambda m: f"{m.group('scheme')}{m.group('user')}:{MASK}@", text)
    text = _BARE_USERINFO_RE.sub(lambda m: f"{m.group('user')}:{MASK}@", text)
    for pattern in (_QUERY_RE, _QUOTED_RE, _BEARER_RE, _ASSIGNED_RE):
        text = pattern.sub(lambda m: m.group("name") + MASK, text)
    text = _KEY_RE.sub(MASK, text)
    return _GOOGLE_TOKEN_RE.sub(MASK, text)


__all__ = ["MASK", "mask_secrets", "mask_url", "remember_secret", "url_password"]
