"""Plain-text views of events, cards and turn outcomes, kept apart from Textual.

Why a separate module: the wording the person reads ("Thursday, October 23, 5:00 PM",
"Corrected after review: ...") is the product, so it is tested directly, and the widgets, the
findings panel and the snapshot tests all print the same sentences.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from rich.text import Text

from assistant.report import TurnReport
from assistant.session.spoken import counted_words, dates_in_words, without_tautology
from assistant.session.words import RETRY_HINTS, hold_reasons, not_verified_lines, plain
from reflection.findings import Finding
from tools.calendar.events import Event, EventCard, as_date, zone
from tools.calendar.wording import clock_label as _clock
from tools.calendar.wording import day_label, event_repeats, reminder_words, two_zone_span
from tools.journal.changes import RedoReport, rollback_words
from tools.journal.journal import RollbackReport
from tools.specs import all_specs, spec_for

ACTION_TITLES = {"created": "Added", "updated": "Changed", "deleted": "Removed"}
CONFIDENCE_LABELS = {"high": "high", "medium": "medium", "low": "low"}
TOOL_WORDS = {"list": "looking at the calendar", "calculate": "the date calculator",
              "create": "adding an event", "update": "changing an event", "delete": "removing an event",
              "location": "looking up a place"}
"""How a person hears of a tool, by its spec's topic (a tool's own name is never shown)."""


USUAL_REMINDERS = "the calendar's usual reminders"
"""An event with no reminders of its own (None): the calendar's default ones apply."""


def _local(value: date | datetime, event: Event, tz_name: str) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone(zone(tz_name))
    return datetime.combine(value, datetime.min.time(), tzinfo=event.zone).astimezone(zone(tz_name))


def when_label(event: Event, tz_name: str) -> str:
    """The span of an event in the person's zone, weekday first.

    `Thursday, October 23, 5:00 PM – 5:45 PM`, `Friday, October 24, 11:00 PM – Saturday, October 25,
    1:00 AM`, `Thursday, October 23 (all day)`. An event that ends in another zone (a flight)
    says each end in its own zone's time, which is what its traveller reads on the ticket:
    `Thursday, October 23, Chicago 9:00 AM → London 10:40 PM`.
    """
    flight = two_zone_span(event)
    if flight is not None:
        return f"{day_label(event.start_instant.astimezone(event.zone).date())}, {flight}"
    if event.all_day:
        first = as_date(event.start)
        last = as_date(event.end) - timedelta(days=1)
        if last <= first:
            return f"{day_label(first)} (all day)"
        return f"{day_label(first)} – {day_label(last)} (all day)"
    start = _local(event.start, event, tz_name)
    end = _local(event.end, event, tz_name)
    if start.date() == end.date():
        return f"{day_label(start.date())}, {_clock(start)} – {_clock(end)}"
    return f"{day_label(start.date())}, {_clock(start)} – {day_label(end.date())}, {_clock(end)}"


def short_time(event: Event, tz_name: str) -> str:
    """The agenda's time column: `5:00 PM` or `all day`."""
    if event.all_day:
        return "all day"
    return _clock(_local(event.start, event, tz_name))


def event_day(event: Event, tz_name: str) -> date:
    """The day an event is listed under in the agenda (its local start date)."""
    if event.all_day:
        return as_date(event.start)
    return _local(event.start, event, tz_name).date()


@dataclass
class CardText:
    """What one event card says: a heading, the title, and its lines."""

    action: str
    heading: str
    title: str
    lines: list[str] = field(default_factory=list)


def card_text(card: EventCard, tz_name: str) -> CardText:
    """The card for one created, changed or removed event; changes read `before → after`."""
    event = card.event
    heading = ACTION_TITLES.get(card.action, card.action.title())
    lines: list[str] = []
    if card.action == "updated" and card.before is not None and card.after is not None:
        before, after = card.before, card.after
        was, now = when_label(before, tz_name), when_label(after, tz_name)
        if was != now:
            lines.append(f"{was}  →  {now}")
        else:
            lines.append(now)
        if before.title != after.title:
            lines.append(f"title: {before.title}  →  {after.title}")
        if (before.location or "") != (after.location or ""):
            lines.append(f"where: {before.location or '(none)'}  →  {after.location or '(none)'}")
        elif after.location:
            lines.append(f"where: {after.location}")
        if set(before.attendees) != set(after.attendees):
            lines.append(f"guests: {', '.join(before.attendees) or '(none)'}  →  "
                         f"{', '.join(after.attendees) or '(none)'}")
        if before.reminders != after.reminders:
            lines.append(f"{reminder_words(before.reminders) or USUAL_REMINDERS}  →  "
                         f"{reminder_words(after.reminders) or USUAL_REMINDERS}")
        elif after.reminders is not None:
            lines.append(reminder_words(after.reminders) or "")
    else:
        lines.append(when_label(event, tz_name))
        if event.location:
            lines.append(f"where: {event.location}")
        if card.action == "created" and event.attendees:
            lines.append("guests: " + ", ".join(event.attendees))
        if event.reminders is not None:
            lines.append(reminder_words(event.reminders) or "")
    repeats = event_repeats(event)
    if repeats:
        lines.append("repeats: " + repeats)
    if card.calendar:  # several calendars: whose event it is
        lines.insert(0, f"calendar: {card.calendar}")
    title = (card.after.title if card.after else None) or event.title or "(untitled)"
    return CardText(card.action, heading, title, lines)


CALENDAR_COLOURS = ("#5fafff", "#ff875f", "#87d75f", "#d787ff", "#ffd75f", "#5fd7d7", "#ff5f87",
                    "#afaf87")
"""One colour per calendar name, the same in every window and run (a hash of the name picks it)."""


def calendar_colour(name: str) -> str:
    return CALENDAR_COLOURS[zlib.crc32(name.casefold().encode()) % len(CALENDAR_COLOURS)]


CALENDAR_TAG_WIDTH = 10
"""At most this many characters of a calendar's name beside an event (80x24 leaves no more)."""


def calendar_tag(name: str) -> Text:
    """`● Leo` in the calendar's colour: whose event, in the agenda and the changes list. The
    spaces do not break, so a wrapped line never leaves the dot without its name."""
    short = name if len(name) <= CALENDAR_TAG_WIDTH else name[:CALENDAR_TAG_WIDTH - 1] + "…"
    return Text(f"● {short}".replace(" ", "\u00a0"), style=f"bold {calendar_colour(name)}")


@dataclass
class Outcome:
    """How sure the assistant is about one turn, in words.

    kind: verified | noted | corrected | unverified | held | doublecheck | error
    """

    kind: str
    confidence: str | None
    title: str
    lines: list[str] = field(default_factory=list)


def _known_events(report: TurnReport) -> dict[str, str]:
    """Every event id the turn touched, with the title a person knows it by."""
    known: dict[str, str] = {}
    for attempt in report.attempts:
        for call in attempt.calls:
            for card in call.result.cards if call.result else []:
                for event in (card.event, card.before, card.after):
                    if event is not None and event.id:
                        known[event.id] = f"'{event.title}'"
        if attempt.rollback is not None:
            for item in attempt.rollback.restored:
                shown = item.restored or item.wrong
                if shown is not None:
                    known[item.event_id] = f"'{shown.title}'"
    for attempt in report.attempts:
        for call in attempt.calls:
            for key in ("event_id",):
                value = call.input.get(key)
                if isinstance(value, str) and value and value not in known:
                    known[value] = "the event"
    return known


def for_person(text: str, report: TurnReport | None = None, tz_name: str | None = None) -> str:
    """`text` with tool names said in words, the turn's event ids replaced by titles, and dates,
    times and zones said as the cards say them (`assistant.session.spoken`), so no internal name
    or ISO time reaches a person (findings come from code and from a model that sees ids)."""
    for spec in all_specs():
        if spec.name in text:
            text = re.sub(rf"`?\b{re.escape(spec.name)}\b`?", TOOL_WORDS.get(spec.topic, "a calendar tool"), text)
    text = plain(text)
    if report is not None:
        for event_id, title in sorted(_known_events(report).items(), key=lambda kv: -len(kv[0])):
            text = re.sub(rf"'?\b{re.escape(event_id)}\b'?", title, text)
    return counted_words(without_tautology(dates_in_words(text, tz_name)))


def _restored_lines(rollback: RollbackReport | RedoReport, tz_name: str) -> list[str]:
    return rollback_words(rollback, tz_name)


def _issues(findings: Iterable[Finding], report: TurnReport, tz_name: str) -> list[str]:
    return list(dict.fromkeys(for_person(f.issue, report, tz_name) for f in findings if f.issue))


def _for_chat(findings: Iterable[Finding]) -> list[Finding]:
    """Findings a person reads under a reply: how the assistant worked (`process`) is not a
    problem with the change, so it stays on the why screen."""
    return [f for f in findings if f.type != "process"]


def describe_outcome(report: TurnReport, tz_name: str, door: str = "chat") -> Outcome | None:
    """The outcome line under a reply, or None for a turn that did not touch the calendar.

    A turn the guard corrected says what was wrong and what was put back, because "I fixed it"
    without the what is exactly the kind of claim a person cannot check. A change nobody could
    verify is never called verified (CONTRACT 5): it says why and how to take it back (`door`:
    "chat" names the keys, "cli" the command); one held for the person's yes says that nothing
    was changed; an undo that could not finish says what is not back yet.
    """
    if report.error:
        return Outcome("error", None, "Something went wrong",
                       [for_person(report.error, report, tz_name), RETRY_HINTS.get(door, RETRY_HINTS["chat"])])
    unfinished = next((a for a in report.attempts if a.unfinished), None)
    if unfinished is not None and unfinished.rollback is not None:
        caught = _issues(unfinished.verdict.errors, report, tz_name) if unfinished.verdict else []
        lines = [f"Caught: {issue}" for issue in caught]
        lines += _restored_lines(unfinished.rollback, tz_name)
        lines.append("The rest will be undone the next time the assistant starts; nothing was "
                     "tried again meanwhile.")
        return Outcome("doublecheck", "low", "Not everything could be put back yet", lines)
    final_attempt = report.final
    if final_attempt is not None and final_attempt.hold is not None:
        hold = final_attempt.hold
        if not hold.confirmed:
            lines = [for_person(r, report, tz_name) for r in hold_reasons(hold.reasons, hold.doubts)]
            lines.append("Nothing was changed.")
            return Outcome("held", None, "Not done: this change needs your yes", lines)
        lines = [for_person(line, report, tz_name) for line in not_verified_lines(hold.doubts, door)]
        return Outcome("unverified", None, "Done at your word, not verified", lines)
    confidence = report.confidence
    if confidence is None:
        return None
    attempts = list(report.attempts)
    final = attempts[-1]
    final_findings = list(final.verdict.findings) if final.verdict else []
    conflicts = list(report.conflicts)
    unverified = final.verdict is not None and final.verdict.unverified
    if confidence == "low":
        lines = [f"Problem: {issue}" for issue in _issues((f for f in final_findings if f.is_error), report, tz_name)]
        lines += [f"Could not put back: {c}" for c in conflicts]
        if report.corrected:
            first = attempts[0]
            lines.insert(0, "I tried once, it was wrong and rolled back; the retry still looks off.")
            if first.rollback is not None:
                lines[1:1] = _restored_lines(first.rollback, tz_name)
        if not lines:
            lines = _issues(_for_chat(final_findings), report, tz_name) or ["The check could not confirm this change."]
        return Outcome("doublecheck", "low", "Please double-check this change", lines)
    notes = _issues((f for f in _for_chat(final_findings) if not f.is_error
                     and not (unverified and f.type == "reflection_unavailable")), report, tz_name)
    doubts = [for_person(line, report, tz_name) for line in
              not_verified_lines(final.verdict.doubts if final.verdict else [], door)]
    if report.corrected:
        first = attempts[0]
        wrong = _issues(first.verdict.errors, report, tz_name) if first.verdict else []
        lines = [f"Caught: {issue}" for issue in wrong]
        if first.rollback is not None:
            lines += _restored_lines(first.rollback, tz_name)
        if unverified:
            lines.append("Then redone, but the redone change could not be verified:")
            lines += doubts
        else:
            lines.append("Then redone and checked again.")
        lines += [f"Note: {n}" for n in notes]
        title = "Corrected after review" + (", not verified" if unverified else
                                            " (with a note)" if notes else "")
        return Outcome("unverified" if unverified else "corrected",
                       None if unverified else confidence, title, lines)
    if unverified:  # no "sure": nothing could check it
        return Outcome("unverified", None, "Not verified", doubts + [f"Note: {n}" for n in notes])
    if notes:
        return Outcome("noted", confidence, "Verified, with a note", [f"Note: {n}" for n in notes])
    return Outcome("verified", confidence, "Verified", ["The change matches what you asked."])


def _what_it_did(attempt_calls: Iterable[str]) -> str:
    said: list[str] = []
    for name in attempt_calls:
        spec = spec_for(name)
        words = TOOL_WORDS.get(spec.topic, "a calendar tool") if spec else "a calendar tool"
        if words not in said:
            said.append(words)
    return ", ".join(said)


SEVERITY_WORDS = {"error": "Problem", "warning": "Note"}
ORDINALS = {1: "First try", 2: "Second try", 3: "Third try"}


def findings_markdown(report: TurnReport, tz_name: str) -> str:
    """The why screen: every try, what it did, what the check found and the facts it computed,
    in sentences that wrap at any width (no tables, no tool names, no ids)."""
    said = report.user_message.replace("\n", " ")
    out: list[str] = [f"**You said:** “{said}”", ""]
    outcome = describe_outcome(report, tz_name)
    if outcome is not None:
        conf = f" — confidence **{outcome.confidence}**" if outcome.confidence else ""
        out += [f"**{outcome.title}**{conf}", ""]
    if not report.attempts:
        out.append("_Nothing was tried._")
    for attempt in report.attempts:
        verdict = attempt.verdict
        name = ORDINALS.get(attempt.number, f"Try {attempt.number}")
        if verdict is None:
            out += [f"### {name}: nothing to check (the calendar was not changed)", ""]
        else:
            judged = "not verified" if verdict.unverified else "right" if verdict.valid else "wrong"
            state = ", undone" if attempt.rollback is not None else ", kept"
            if attempt.hold is not None:
                state = ", made at your word" if attempt.hold.confirmed else ", undone until you say yes"
            via = "Checked by code" + (" and a second model" if verdict.llm_used else "")
            # the turn's one confidence is said above; a try's own would be a second one
            out += [f"### {name}: {judged}{state}", "", f"{via}.", ""]
            if verdict.unverified:
                out += [f"- {for_person(line, report, tz_name)}" for line in not_verified_lines(verdict.doubts)]
                out.append("")
        if attempt.calls:
            out += ["What it did: " + _what_it_did(c.name for c in attempt.calls) + ".", ""]
        if verdict is not None:
            problems = [f for f in verdict.findings if f.type != "process"]
            process = [f for f in verdict.findings if f.type == "process"]
            if problems:
                for f in problems:
                    fix = f" Fix: {for_person(f.correction, report, tz_name)}." if f.correction else ""
                    out.append(f"- **{SEVERITY_WORDS.get(f.severity, f.severity)}:** "
                               f"{for_person(f.issue, report, tz_name)}.{fix}")
                out.append("")
            elif not process:
                out += ["Nothing wrong found.", ""]
            if process:
                out.append("How it worked it out (the result is what counts; these do not change it):")
                out.append("")
                out += [f"- {for_person(f.issue, report, tz_name)}" for f in process]
                out.append("")
            if verdict.facts:
                out += ["What the check worked out:", ""]
                out += [f"- {for_person(fact.statement, report, tz_name)}" for fact in verdict.facts]
                out.append("")
        if attempt.rollback is not None:
            out += ["Undone:", ""]
            out += [f"- {line}" for line in _restored_lines(attempt.rollback, tz_name)]
            out.append("")
        if attempt.stopped:
            out += [f"Stopped: {for_person(attempt.stopped, report, tz_name)}", ""]
    if report.error:
        out += [f"**Error:** {for_person(report.error, report, tz_name)}", ""]
    return "\n".join(out)


def undo_lines(rollback: RollbackReport | RedoReport, tz_name: str) -> list[str]:
    """What an undo (or redo) did, one sentence per event."""
    return rollback_words(rollback, tz_name)


def report_text(report: TurnReport, tz_name: str, door: str = "cli") -> str:
    """A turn as plain text for `ask`: the reply, the cards in words, what was rolled back, the
    findings a person needs, and how sure the assistant is (the chat shows the same things,
    with its keys where this names commands)."""
    lines: list[str] = []
    if report.reply:
        lines += [report.reply.strip(), ""]
    for card in report.cards:
        ct = card_text(card, tz_name)
        lines.append(f"{ct.heading}: {ct.title}")
        lines += [f"  {line}" for line in ct.lines]
    outcome = describe_outcome(report, tz_name, door)
    if outcome is not None:
        if report.cards:
            lines.append("")
        conf = f" (confidence: {outcome.confidence})" if outcome.confidence else ""
        lines.append(f"{outcome.title}{conf}")
        lines += [f"  {line}" for line in outcome.lines]
    return "\n".join(lines).rstrip()
