"""A calendar service that failed, said in one sentence; what failed inside goes to the log.

When the CalDAV server was down, the person read what the HTTP library said:
`HTTPConnectionPool(host='127.0.0.1', port=5232): Max retries exceeded with url: /dav/cal/ (Caused
by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f…>: …'))`, and so did the
model in its tool result. Neither can act on pool names, object addresses or the server's paths.

`service_error(service, exc, doing)` reads what went wrong from the exception and its causes and
gives a `ServiceFailure` (a `CalendarError`) whose message is one sentence for the person:

- the server cannot be reached (refused, no such host, network down),
- it did not answer in time,
- it refused the sign-in (401/403, a refused password, a revoked Google grant),
- anything else: it could not do what was asked.

The exception itself (its type, message, causes and traceback, with secrets masked) is written to
the `calendar_assistant.errors` logger, which the app sends to its log file
(`assistant.logfile`). Every backend (CalDAV, Google, the database behind the local calendar)
raises these, so the CLI's error line, the chat's notices and the tool results the model reads
all carry the same sentence.
"""
from __future__ import annotations

import errno
import logging
import re
import socket
from collections.abc import Iterator
from typing import Literal

from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tools.backends.base import CalendarError
from tools.masking import mask_secrets

LOG = logging.getLogger("calendar_assistant.errors")
_ROOT = logging.getLogger("calendar_assistant")
if not _ROOT.handlers:
    _ROOT.addHandler(logging.NullHandler())  # nothing reaches stderr when no log file is open
_ROOT.propagate = False

Service = Literal["caldav", "google", "database"]
Failure = Literal["down", "timeout", "login", "other"]

_NAMES: dict[Service, str] = {"caldav": "The CalDAV server", "google": "Google Calendar",
                              "database": "The calendar database"}
_DOWN_HINT: dict[Service, str] = {
    "caldav": "check that it is running and that its address (caldav_url) is right",
    "google": "check the internet connection",
    "database": "check that the database server is running and that database_url is right",
}
_LOGIN_HINT: dict[Service, str] = {
    "caldav": "check the user name and password (iCloud and Fastmail need an app password)",
    "google": "run `calendar-assistant login` again",
    "database": "check the user name and password in database_url",
}
_DOWN_ERRNOS = {errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ECONNRESET,
                errno.ECONNABORTED, errno.EHOSTDOWN, errno.ENOENT, errno.EPIPE}
_DOWN_WORDS = ("connection refused", "could not connect", "failed to establish", "name or service "
               "not known", "nodename nor servname", "could not translate host name",
               "temporary failure in name resolution", "network is unreachable", "no route to host",
               "connection reset", "server closed the connection", "connection aborted",
               "remote end closed", "connection to server", "is the server running",
               "unable to find the server", "no such file or directory")
_TIMEOUT_WORDS = ("timed out", "timeout expired", "read timeout", "connect timeout")
_ROLE_MISSING = re.compile(r'role "[^"]*" does not exist')  # PostgreSQL's answer to an unknown user
_LOGIN_WORDS = ("password authentication failed", "authentication failed", "no password supplied",
                "unauthorized", "invalid_grant", "invalid credentials", "401", "403 forbidden")


class ServiceFailure(CalendarError):
    """A calendar service that failed: `str()` is the sentence for the person."""

    def __init__(self, message: str, service: Service, failure: Failure) -> None:
        super().__init__(message)
        self.service = service
        self.failure = failure


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, its causes and contexts, and exceptions kept in their arguments (urllib3 keeps
    the connection error in a `reason`), each once."""
    seen: set[int] = set()
    todo = [exc]
    while todo and len(seen) < 32:
        item = todo.pop(0)
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        for nested in (item.__cause__, item.__context__, getattr(item, "reason", None),
                       getattr(item, "orig", None), *getattr(item, "args", ())):
            if isinstance(nested, BaseException):
                todo.append(nested)


def _status(item: BaseException) -> int | None:
    for holder in (item, getattr(item, "resp", None), getattr(item, "response", None)):
        for name in ("status", "status_code"):
            value = getattr(holder, name, None)
            if isinstance(value, int):
                return value
            if isinstance(value, str) and value.isdigit():
                return int(value)
    return None


def failure_of(exc: BaseException) -> Failure:
    """What kind of failure `exc` is, from its type, status and words, causes included."""
    items = list(_chain(exc))
    names = [cls.__name__.lower() for item in items for cls in type(item).__mro__]
    texts = " ".join(str(item).lower() for item in items)
    if any(_status(item) in (401, 403) for item in items) or _ROLE_MISSING.search(texts) or \
            any(n in ("authorizationerror", "refresherror", "loginrequired") for n in names) or \
            any(word in texts for word in _LOGIN_WORDS[:-2]):
        return "login"
    if any(isinstance(item, (ConnectionRefusedError, ConnectionResetError, ConnectionAbortedError,
                             socket.gaierror)) for item in items) or \
            any(isinstance(item, OSError) and item.errno in _DOWN_ERRNOS for item in items) or \
            any(n in ("newconnectionerror", "nameresolutionerror", "servernotfounderror",
                      "connecterror") for n in names) or \
            any(w in texts for w in _DOWN_WORDS):
        return "down"  # before timeouts: urllib3's refused connection is a kind of timeout error
    if any(isinstance(item, (TimeoutError, socket.timeout)) for item in items) or \
            any("timeout" in n for n in names) or any(w in texts for w in _TIMEOUT_WORDS):
        return "timeout"
    if any(isinstance(item, ConnectionError) for item in items) or \
            any(n in ("connectionerror", "maxretryerror", "requestnotsent") for n in names):
        return "down"
    if any(word in texts for word in _LOGIN_WORDS[-2:]):
        return "login"
    return "other"


def describe(service: Service, failure: Failure, doing: str = "do this") -> str:
    """The sentence the person (and the model) reads for a failure."""
    name = _NAMES[service]
    if failure == "down":
        return f"{name} cannot be reached: {_DOWN_HINT[service]}."
    if failure == "timeout":
        return f"{name} did not answer in time; please try again in a moment."
    if failure == "login":
        who = "Google" if service == "google" else name
        return f"{who} refused the sign-in: {_LOGIN_HINT[service]}."
    return f"{name} could not {doing}; the details are in the log file."


def service_error(service: Service, exc: BaseException, doing: str = "do this") -> ServiceFailure:
    """The `ServiceFailure` to raise for `exc` (raise it `from exc`); `exc` is logged."""
    if isinstance(exc, ServiceFailure):
        return exc
    failure = failure_of(exc)
    sentence = describe(service, failure, doing)
    LOG.error("%s (%s, while trying to %s): %s", sentence, service, doing,
              mask_secrets(f"{type(exc).__name__}: {exc}"), exc_info=(type(exc), exc, exc.__traceback__))
    return ServiceFailure(sentence, service, failure)


def is_database_failure(exc: BaseException) -> bool:
    """Whether `exc` is the database failing (SQLAlchemy's driver errors), not our code."""
    return isinstance(exc, (DBAPIError, DisconnectionError, PoolTimeout))


def person_message(exc: BaseException, doing: str = "do this") -> str:
    """What to tell a person about `exc`, in words: a calendar error's own sentence (secrets
    masked), a database failure's sentence, else a plain line (the details go to the log)."""
    if isinstance(exc, CalendarError) or getattr(exc, "speaks_for_itself", False):
        return mask_secrets(str(exc))  # a sentence written for people (a store naming its file)
    if is_database_failure(exc):
        return str(service_error("database", exc, doing))
    LOG.error("unexpected error while trying to %s: %s", doing,
              mask_secrets(f"{type(exc).__name__}: {exc}"), exc_info=(type(exc), exc, exc.__traceback__))
    return f"Something went wrong inside the assistant ({type(exc).__name__}); the details are in " \
           "the log file."


__all__ = ["LOG", "ServiceFailure", "describe", "failure_of", "is_database_failure",
           "person_message", "service_error"]
