"""iCalendar: one event as a VEVENT, and .ics files read and written (RFC 5545). No backend, no I/O
beyond the file."""
