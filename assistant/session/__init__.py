"""The session layer: what every door (the chat, `ask`, `replay`, the MCP server) runs the same way.

`attempt.GuardedAttempt` is one guarded attempt (journal, calls, guard, rollback, lessons);
`words` says its outcomes to a person; `chat.ChatSession` is all a chat window asks of the
assistant (`AgentSession` is the real one).
"""
