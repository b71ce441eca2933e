"""iCalendar: one event as a VEVENT, .ics files read and written, and a file imported as one change."""
