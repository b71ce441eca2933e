"""The chat's building blocks, one a file: the conversation and its lines, a turn (reply, working
state, cards, outcome), an undo, the agenda.

Their methods run on the UI thread; a worker thread reaches them only through
`assistant.tui.ui_thread.call_ui` (the turn's `assistant.tui.turns.TurnBridge`, the agenda's own
loader), because Textual widgets are not thread-safe.
"""
