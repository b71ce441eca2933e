"""The chat's screens, one a file: the yes-or-no confirmation, the findings behind a turn's
confidence, help, the recent changes, and the first-run setup."""
