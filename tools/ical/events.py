"""One event as an iCalendar VEVENT, and back: the one home of that mapping.

The CalDAV backend stores every event as a VEVENT and `import`/`export` read and write them, so
the rules live here: a timed event's DTSTART carries its zone as a TZID (UTC as `Z`); an all-day
event uses DATE values with an exclusive DTEND and keeps its zone in `X-CALENDAR-ASSISTANT-
TIMEZONE`, since a DATE has none. Writing an event into an existing component changes only the
fields the Event has and keeps everything else (alarms, attendees' PARTSTAT, X- properties), so a
read-modify-write never loses what another client put there.

Reminders are VALARMs (`reminders_of`, `set_reminders`): a reminder N minutes before the start
is `ACTION:DISPLAY` with `TRIGGER:-PT{N}M`; "no reminder" (`[]`) is RFC 9074's `ACTION:NONE`
alarm, which tells clients not to add their default ones; no VALARM at all is the calendar's
default (None). Alarms are rewritten only when the reminders change, so other clients' alarms
(email, sound, snooze state) stay as they were otherwise. A timed event that ends in another zone
(a flight) has a DTEND with its own TZID.

EXDATEs are not part of `Event.recurrence`: on CalDAV a deleted occurrence is an EXDATE, the way a
cancelled occurrence is a row of its own on the local backend, so the series reads the same on
every backend after an occurrence is removed.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any, cast
from zoneinfo import ZoneInfo

import icalendar
from icalendar.prop import vCalAddress

from tools.calendar.events import UTC, Event, EventFieldError, as_date, zone
from tools.calendar.occurrences import instance_id, instance_stamp, stamp_original

TURN_PROP = "X-CALENDAR-ASSISTANT-TURN"
"""The turn that created the event: a create retried by the same turn is recognised, not duplicated."""
ZONE_PROP = "X-CALENDAR-ASSISTANT-TIMEZONE"
"""The zone of an all-day event (iCalendar DATE values carry none)."""
RULE_PROPS = ("RRULE", "RDATE", "EXRULE")
"""The properties `Event.recurrence` holds (EXDATEs are cancelled occurrences, kept apart)."""
STAMP_PROPS = frozenset({"DTSTAMP"})
"""Properties that say when a copy was made, not what the event is: left out of comparisons."""
PRODID = "-//calendar-assistant//EN"


def prop_value(component: icalendar.Component, name: str) -> Any:
    """The Python value (date, datetime, timedelta) of a date-like property."""
    prop: Any = component[name]
    return prop.dt


def as_list(value: Any) -> list[Any]:
    """A property that may occur once or many times, as a list."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def zone_name(tz: tzinfo | None) -> str | None:
    """The IANA name of a tzinfo, or None when it is not one (a zone built from a VTIMEZONE)."""
    if tz is None:
        return None
    if isinstance(tz, ZoneInfo):
        return tz.key
    if tz.utcoffset(None) == timedelta(0) and tz.tzname(None) in ("UTC", "Z"):
        return "UTC"
    return None


def _when(value: Any, default_tz: str) -> tuple[date | datetime, str | None]:
    """(the date or aware datetime, its zone name if it names one) of a DTSTART-like value."""
    if isinstance(value, datetime):
        if value.tzinfo is None:  # floating time: the person's own zone
            return value.replace(tzinfo=zone(default_tz)), None
        return value, zone_name(value.tzinfo)
    if isinstance(value, date):
        return value, None
    raise EventFieldError("start", f"not a date or a time: {value!r}")


def original_of(component: icalendar.Event, default_tz: str) -> date | datetime | None:
    rid = component.get("RECURRENCE-ID")
    return _when(rid.dt, default_tz)[0] if rid is not None else None


def event_of(component: icalendar.Event, calendar_id: str, version: str,
             default_tz: str) -> Event:
    """The Event a VEVENT holds (an override becomes the occurrence it replaces)."""
    if "DTSTART" not in component:
        raise EventFieldError("start", "the event has no DTSTART")
    start, start_zone = _when(prop_value(component, "DTSTART"), default_tz)
    all_day = not isinstance(start, datetime)
    uid = str(component.get("UID", ""))
    end_tz_name: str | None = None
    if all_day:
        tz_name = str(component.get(ZONE_PROP) or default_tz)
        end: date | datetime
        if "DTEND" in component:
            end = as_date(prop_value(component, "DTEND"))
        elif "DURATION" in component:
            end = start + timedelta(days=max(1, prop_value(component, "DURATION").days))
        else:
            end = start + timedelta(days=1)
        end = max(end, start + timedelta(days=1))
    else:
        assert isinstance(start, datetime)
        tz_name = start_zone or default_tz
        tz = zone(tz_name)
        start = start.astimezone(tz)
        timed_end: datetime = start
        if "DTEND" in component:
            read, end_zone = _when(prop_value(component, "DTEND"), default_tz)
            timed_end = read if isinstance(read, datetime) else datetime.combine(read, start.timetz())
            if end_zone and end_zone != tz_name:
                end_tz_name = end_zone
        elif "DURATION" in component:
            timed_end = start + prop_value(component, "DURATION")
        end = timed_end.astimezone(zone(end_tz_name) if end_tz_name else tz)
    original = original_of(component, default_tz)
    recurrence = None if original is not None else tuple(rule_lines(component)) or None
    return Event(
        id=instance_id(uid, original) if original is not None else uid,
        title=str(component.get("SUMMARY", "")), start=start, end=end, all_day=all_day,
        timezone=tz_name, location=_text(component, "LOCATION"),
        description=_text(component, "DESCRIPTION"),
        attendees=tuple(attendee_emails(component)), recurrence=recurrence,
        calendar_id=calendar_id, version=version,
        recurring_event_id=uid if original is not None else None, original_start=original,
        status="cancelled" if str(component.get("STATUS", "")).upper() == "CANCELLED"
        else "confirmed", reminders=reminders_of(component), end_timezone=end_tz_name)


def end_zone_name(component: icalendar.Component) -> str | None:
    """The IANA zone of a VEVENT's DTEND, when it has one of its own (None otherwise)."""
    prop: Any = component.get("DTEND")
    value = getattr(prop, "dt", None)
    return zone_name(value.tzinfo) if isinstance(value, datetime) else None


NO_ALARM_TRIGGER = datetime(1976, 4, 1, 0, 55, 45, tzinfo=UTC)
"""The TRIGGER RFC 9074 gives an `ACTION:NONE` alarm (a moment long past, so nothing fires)."""


def _alarms(component: icalendar.Component) -> list[icalendar.Component]:
    return [c for c in component.subcomponents if c.name == "VALARM"]


def _alarm_minutes(alarm: icalendar.Component) -> int | None:
    """Minutes before the start of an alarm with a trigger relative to the start, at or before
    it; None for one these words cannot say (after the start, relative to the end, at a set
    moment)."""
    trigger: Any = alarm.get("TRIGGER")
    if trigger is None or not isinstance(trigger.dt, timedelta):
        return None
    if str(trigger.params.get("RELATED", "START")).upper() != "START" or trigger.dt > timedelta(0):
        return None
    return int(-trigger.dt.total_seconds()) // 60


def reminders_of(component: icalendar.Component) -> tuple[int, ...] | None:
    """The reminders a VEVENT's alarms say, in minutes before the start: None with no VALARM
    (the calendar's default) or only alarms that cannot be said in minutes before; () with only
    `ACTION:NONE` alarms (RFC 9074: no reminder)."""
    alarms = _alarms(component)
    if not alarms:
        return None
    minutes: set[int] = set()
    unsaid = False
    for alarm in alarms:
        if str(alarm.get("ACTION", "")).upper() == "NONE":
            continue
        said = _alarm_minutes(alarm)
        if said is None:
            unsaid = True
        else:
            minutes.add(said)
    if unsaid and not minutes:
        return None
    return tuple(sorted(minutes))


def set_reminders(component: icalendar.Component, reminders: tuple[int, ...] | None,
                  title: str) -> None:
    """Replace the VEVENT's alarms with `reminders`: a DISPLAY alarm per reminder (RFC 5545 wants
    a DESCRIPTION on it: the title), RFC 9074's `ACTION:NONE` alarm for (), none for None."""
    component.subcomponents = [c for c in component.subcomponents if c.name != "VALARM"]
    if reminders is None:
        return
    if not reminders:
        alarm = icalendar.Alarm()
        alarm.add("ACTION", "NONE")
        alarm.add("TRIGGER", NO_ALARM_TRIGGER, parameters={"VALUE": "DATE-TIME"})
        component.add_component(alarm)
        return
    for minutes in sorted(set(reminders)):
        alarm = icalendar.Alarm()
        alarm.add("ACTION", "DISPLAY")
        alarm.add("DESCRIPTION", title or "Reminder")
        alarm.add("TRIGGER", timedelta(minutes=-minutes))
        component.add_component(alarm)


def _text(component: icalendar.Event, name: str) -> str | None:
    value = component.get(name)
    return None if value is None else str(value)


def attendee_emails(component: icalendar.Event) -> list[str]:
    return [_email(a) for a in as_list(component.get("ATTENDEE"))]


def _email(address: Any) -> str:
    text = str(address)
    return text[7:] if text.lower().startswith("mailto:") else text


def content_line(name: str, prop: Any) -> str:
    """`NAME;PARAMS:VALUE` of one property, as RFC 5545 writes it (values unescaped)."""
    params = prop.params.to_ical().decode() if getattr(prop, "params", None) else ""
    return f"{name}{';' + params if params else ''}:{prop.to_ical().decode()}"


def rule_lines(component: icalendar.Event) -> list[str]:
    """RRULE, RDATE and EXRULE as the `recurrence` lines of CONTRACT section 2."""
    return [content_line(name, prop) for name in RULE_PROPS
            for prop in as_list(component.get(name))]


def exdates(component: icalendar.Event) -> set[str]:
    """The occurrence stamps (`tools.calendar.occurrences.instance_stamp`) a series' EXDATEs remove."""
    stamps: set[str] = set()
    for prop in as_list(component.get("EXDATE")):
        for value in prop.dts:
            stamps.add(instance_stamp(value.dt if isinstance(value.dt, datetime) and value.dt.tzinfo
                                      else _naive_exdate(value.dt, component)))
    return stamps


def _naive_exdate(value: date | datetime, component: icalendar.Event) -> date | datetime:
    """A floating EXDATE is in the zone of its series' DTSTART."""
    if isinstance(value, datetime):
        start = prop_value(component, "DTSTART")
        tz = start.tzinfo if isinstance(start, datetime) and start.tzinfo else UTC
        return value.replace(tzinfo=tz)
    return value


def set_exdates(component: icalendar.Event, originals: Iterable[date | datetime],
                tz_name: str) -> None:
    """Replace the EXDATEs with `originals`, one property, sorted, in the series' own zone."""
    component.pop("EXDATE", None)
    values = sorted({_local(o, tz_name) for o in originals}, key=_sort_key)
    if values:
        component.add("EXDATE", values)


def _keep_exdates_of_kind(component: icalendar.Event, all_day: bool, tz_name: str) -> None:
    """A series that turns all-day (or timed) keeps only the EXDATEs of its new kind: the
    others can remove no occurrence any more, and one property must not mix DATE and
    DATE-TIME values (servers refuse it)."""
    stamps = exdates(component)
    kept = {s for s in stamps if ("T" in s) != all_day}
    if kept != stamps or (kept and "EXDATE" in component):
        set_exdates(component, [stamp_original(s) for s in kept], tz_name)


def _local(value: date | datetime, tz_name: str) -> date | datetime:
    if isinstance(value, datetime):
        return value.astimezone(UTC if tz_name == "UTC" else zone(tz_name))
    return value


def _sort_key(value: date | datetime) -> str:
    return instance_stamp(value)


def _put(component: icalendar.Event, name: str, value: Any) -> None:
    component.pop(name, None)
    if value is not None:
        component.add(name, value)


def _stored_time(value: date | datetime, tz_name: str, all_day: bool) -> date | datetime:
    if all_day:
        return as_date(value)
    assert isinstance(value, datetime)
    return value.astimezone(UTC if tz_name == "UTC" else zone(tz_name))


def write_event(component: icalendar.Event, event: Event, *, override: bool = False) -> None:
    """Set `event`'s fields on `component`, keeping every property it does not own.

    An override (a RECURRENCE-ID component) holds no rule of its own."""
    _put(component, "SUMMARY", event.title)
    _put(component, "DTSTART", _stored_time(event.start, event.timezone, event.all_day))
    component.pop("DURATION", None)
    _put(component, "DTEND", _stored_time(event.end, event.end_timezone or event.timezone,
                                          event.all_day))
    _put(component, ZONE_PROP, event.timezone if event.all_day else None)
    _put(component, "LOCATION", event.location)
    _put(component, "DESCRIPTION", event.description)
    kept = {_email(a).casefold(): a for a in as_list(component.get("ATTENDEE"))}
    component.pop("ATTENDEE", None)
    for email in event.attendees:
        component.add("ATTENDEE", kept.get(email.casefold()) or vCalAddress(f"mailto:{email}"))
    wanted = tuple(sorted(set(event.reminders))) if event.reminders is not None else None
    if reminders_of(component) != wanted:  # untouched otherwise: others' alarms stay as they are
        set_reminders(component, wanted, event.title)
    for name in RULE_PROPS:
        component.pop(name, None)
    if not override:
        _keep_exdates_of_kind(component, event.all_day, event.timezone)
        for line in event.recurrence or ():
            if line.upper().startswith("EXDATE"):
                stamps = exdates(_one_line(line)) | exdates(component)
                tz = event.timezone
                set_exdates(component, [_stamp_value(s, tz) for s in stamps], tz)
                continue
            parsed = _one_line(line)
            for name in RULE_PROPS:
                for prop in as_list(parsed.get(name)):
                    component.add(name, prop)


def _one_line(line: str) -> icalendar.Event:
    """A recurrence line read as iCalendar (params such as TZID included)."""
    try:
        parsed = icalendar.Event.from_ical(f"BEGIN:VEVENT\r\n{line}\r\nEND:VEVENT\r\n")
    except ValueError as exc:
        raise EventFieldError("recurrence", f"not an RFC 5545 line: {line!r} ({exc})") from None
    if getattr(parsed, "errors", None):
        raise EventFieldError("recurrence", f"not an RFC 5545 line: {line!r}")
    return cast(icalendar.Event, parsed)


def _stamp_value(stamp: str, tz_name: str) -> date | datetime:
    return _local(stamp_original(stamp), tz_name)


def new_component(event: Event, uid: str, *, turn_id: str | None = None,
                  original: date | datetime | None = None) -> icalendar.Event:
    """A fresh VEVENT for `event` (an override of `original` when given)."""
    component = icalendar.Event()
    component.add("UID", uid)
    component.add("DTSTAMP", datetime.now(UTC))
    if original is not None:
        component.add("RECURRENCE-ID", _stored_time(original, event.timezone, event.all_day))
    if turn_id:
        component.add(TURN_PROP, turn_id)
    write_event(component, event, override=original is not None)
    return component


def calendar_of(components: Iterable[icalendar.Component]) -> icalendar.Calendar:
    """A VCALENDAR holding `components` and a VTIMEZONE for every zone they use."""
    cal = icalendar.Calendar()
    cal.add("PRODID", PRODID)
    cal.add("VERSION", "2.0")
    for component in components:
        if "DTSTAMP" not in component and component.name == "VEVENT":
            component.add("DTSTAMP", datetime.now(UTC))
        cal.add_component(component)
    for tzid in sorted(cal.get_missing_tzids()):
        found = vtimezone(tzid)
        if found is not None:
            cal.add_component(found)
    return cal


@lru_cache(maxsize=128)
def vtimezone(tzid: str) -> icalendar.Timezone | None:
    """The VTIMEZONE of an IANA zone, made once per zone (making one costs milliseconds, more
    than the rest of a write); None for a name that is no zone."""
    try:
        zone(tzid)
        return icalendar.Timezone.from_tzid(tzid)
    except (EventFieldError, ValueError, KeyError):
        return None


def canonical(component: icalendar.Component) -> str:
    """The component as text that does not depend on the order of its properties or on when it
    was copied: two copies of one event compare equal whatever server stored them."""
    props = [(name, content_line(name, prop)) for name, prop in component.property_items(
        recursive=False, sorted=False) if name not in ("BEGIN", "END", *STAMP_PROPS)]
    # by name only: a stable sort keeps the order of repeated ones (the attendees' order)
    lines = [line for _, line in sorted(props, key=lambda item: item[0])]
    subs = sorted(canonical(sub) for sub in component.subcomponents)
    return "\r\n".join([f"BEGIN:{component.name}", *lines, *subs, f"END:{component.name}"])


def component_from(text: str) -> icalendar.Event:
    return cast(icalendar.Event, icalendar.Event.from_ical(text))
