"""Where calendars live, behind one interface (`tools.backends.base.CalendarBackend`): the local
store, Google Calendar and CalDAV.
"""
