"""The chat's building blocks, one a file: the transcript's lines, a turn (reply, working state,
cards, outcome), an undo, the agenda.

Every method here runs on the UI thread; the worker thread reaches them only through
`App.call_from_thread` (see `assistant.tui.app.TurnBridge`), because Textual widgets are not
thread-safe.
"""
