"""Plain-text views of events, cards and turn outcomes, kept apart from Textual.

Why a separate module: the wording the person reads ("Thursday, October 23, 5:00 PM",
"Corrected after review: ...") is the product, so it is tested directly, and the widgets, the
findings panel and the snapshot tests all print the same sentences.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Iterable

from tools.events import Event, EventCard, as_date, zone

ACTION_TITLES = {"created": "Added", "updated": "Changed", "deleted": "Removed"}
CONFIDENCE_LABELS = {"high": "high", "medium": "medium", "low": "low"}


def _clock(moment: datetime) -> str:
    """`5:00 PM` (no leading zero: that is how people write times)."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def day_label(day: date) -> str:
    """`Thursday, October 23`: the weekday is always spelled out so a wrong one shows."""
    return f"{day:%A}, {day:%B} {day.day}"


def moment_label(moment: datetime, tz_name: str) -> str:
    """`Thursday, October 23, 5:00 PM` in the person's zone."""
    local = moment.astimezone(zone(tz_name))
    return f"{day_label(local.date())}, {_clock(local)}"


def _local(value: date | datetime, event: Event, tz_name: str) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone(zone(tz_name))
    return datetime.combine(value, datetime.min.time(), tzinfo=event.zone).astimezone(zone(tz_name))


def when_label(event: Event, tz_name: str) -> str:
    """The span of an event in the person's zone, weekday first.

    `Thursday, October 23, 5:00 PM – 5:45 PM`, `Friday, October 24, 11:00 PM – Saturday, October 25,
    1:00 AM`, `Thursday, October 23 (all day)`.
    """
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
    else:
        lines.append(when_label(event, tz_name))
        if event.location:
            lines.append(f"where: {event.location}")
        if card.action == "created" and event.attendees:
            lines.append("guests: " + ", ".join(event.attendees))
    if event.recurrence:
        lines.append("repeats: " + "; ".join(r.removeprefix("RRULE:") for r in event.recurrence))
    title = (card.after.title if card.after else None) or event.title or "(untitled)"
    return CardText(card.action, heading, title, lines)


@dataclass
class Outcome:
    """How sure the assistant is about one turn, in words.

    kind: verified | noted | corrected | doublecheck | error
    """

    kind: str
    confidence: str | None
    title: str
    lines: list[str] = field(default_factory=list)


def _restored_lines(rollback: Any, tz_name: str) -> list[str]:
    out: list[str] = []
    for item in getattr(rollback, "restored", []) or []:
        wrong, back = item.before, item.after
        if back is not None and wrong is not None:
            out.append(f"Put back {back.title}: {when_label(back, tz_name)}"
                       + (f" (it had been set to {when_label(wrong, tz_name)})"
                          if when_label(wrong, tz_name) != when_label(back, tz_name) else ""))
        elif back is not None:
            out.append(f"Brought back {back.title}: {when_label(back, tz_name)}")
        elif wrong is not None:
            out.append(f"Removed {wrong.title} ({when_label(wrong, tz_name)}), added by mistake")
        else:
            out.append(f"Restored {item.event_id}")
    return out


def _issues(findings: Iterable[Any]) -> list[str]:
    return list(dict.fromkeys(f.issue for f in findings if getattr(f, "issue", "")))


def describe_outcome(report: Any, tz_name: str) -> Outcome | None:
    """The outcome line under a reply, or None for a turn that did not touch the calendar.

    A turn the guard corrected says what was wrong and what was put back, because "I fixed it"
    without the what is exactly the kind of claim a person cannot check.
    """
    if report.error:
        return Outcome("error", None, "Something went wrong",
                       [report.error, "Press ctrl+r (or type /retry) to try again."])
    confidence = report.confidence
    if confidence is None:
        return None
    attempts = list(report.attempts)
    final = attempts[-1]
    final_findings = list(final.verdict.findings) if final.verdict else []
    conflicts = list(report.conflicts)
    if confidence == "low":
        lines = [f"Problem: {issue}" for issue in _issues(f for f in final_findings if f.is_error)]
        lines += [f"Could not put back: {c}" for c in conflicts]
        if report.corrected:
            first = attempts[0]
            lines.insert(0, "I tried once, it was wrong and rolled back; the retry still looks off.")
            if first.rollback is not None:
                lines[1:1] = _restored_lines(first.rollback, tz_name)
        if not lines:
            lines = [issue for issue in _issues(final_findings)] or ["The check could not confirm this change."]
        return Outcome("doublecheck", "low", "Please double-check this change", lines)
    notes = _issues(f for f in final_findings if not f.is_error)
    if report.corrected:
        first = attempts[0]
        wrong = _issues(first.verdict.errors) if first.verdict else []
        lines = [f"Caught: {issue}" for issue in wrong]
        if first.rollback is not None:
            lines += _restored_lines(first.rollback, tz_name)
        lines.append("Then redone and checked again.")
        lines += [f"Note: {n}" for n in notes]
        title = "Corrected after review" + (" (with a note)" if notes else "")
        return Outcome("corrected", confidence, title, lines)
    if confidence == "medium" or notes:
        return Outcome("noted", confidence, "Verified, with a note", [f"Note: {n}" for n in notes])
    return Outcome("verified", confidence, "Verified", ["The change matches what you asked."])


def findings_markdown(report: Any, tz_name: str) -> str:
    """The findings panel: every attempt, its verdict, the guard's findings and computed facts."""
    said = report.user_message.replace("\n", " ")
    out: list[str] = [f"**You said:** “{said}”", ""]
    outcome = describe_outcome(report, tz_name)
    if outcome is not None:
        conf = f" — confidence **{outcome.confidence}**" if outcome.confidence else ""
        out += [f"**{outcome.title}**{conf}", ""]
    if not report.attempts:
        out.append("_No attempt was made._")
    for attempt in report.attempts:
        verdict = attempt.verdict
        state = "rolled back" if attempt.rollback is not None else "kept"
        if verdict is None:
            out += [f"### Attempt {attempt.number} — not checked (no calendar change)", ""]
        else:
            judged = "valid" if verdict.valid else "wrong"
            via = "symbolic checks" + (" + reflection model" if verdict.llm_used else "")
            out += [f"### Attempt {attempt.number} — {judged}, {state} "
                    f"(confidence {verdict.confidence}, {via})", ""]
        if attempt.calls:
            out.append("Tool calls: " + ", ".join(f"`{c.name}`" for c in attempt.calls))
            out.append("")
        if verdict is not None:
            if verdict.findings:
                out += ["| severity | type | source | issue | correction |", "|---|---|---|---|---|"]
                for f in verdict.findings:
                    cells = [f.severity, f.type, f.source, f.issue, f.correction or ""]
                    out.append("| " + " | ".join(c.replace("|", "/").replace("\n", " ") for c in cells) + " |")
                out.append("")
            else:
                out += ["No findings.", ""]
            if verdict.facts:
                out.append("Computed facts:")
                out.append("")
                out += [f"- *{fact.kind}* — {fact.statement}" for fact in verdict.facts]
                out.append("")
        if attempt.rollback is not None:
            out += ["Rolled back:", ""]
            out += [f"- {line}" for line in _restored_lines(attempt.rollback, tz_name)]
            out += [f"- conflict: {c.shown}" for c in attempt.rollback.conflicts + attempt.rollback.failures]
            out.append("")
        if attempt.stopped:
            out += [f"Stopped: {attempt.stopped}", ""]
    if report.error:
        out += [f"**Error:** {report.error}", ""]
    return "\n".join(out)


def undo_lines(rollback: Any, tz_name: str) -> list[str]:
    """What an undo brought back, one sentence per event."""
    lines = []
    for item in rollback.restored:
        now, was = item.after, item.before
        if now is not None and was is not None:
            lines.append(f"{now.title}: back to {when_label(now, tz_name)}"
                         + (f" (was {when_label(was, tz_name)})"
                            if when_label(was, tz_name) != when_label(now, tz_name) else ""))
        elif now is not None:
            lines.append(f"{now.title}: restored, {when_label(now, tz_name)}")
        elif was is not None:
            lines.append(f"{was.title}: removed again ({when_label(was, tz_name)})")
    lines += [f"Kept someone else's change: {c.shown}" for c in rollback.conflicts + rollback.failures]
    return lines
