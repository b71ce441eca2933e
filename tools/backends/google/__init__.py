"""Google Calendar: the backend, its event resources and ids, and the sign-in."""
