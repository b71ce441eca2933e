"""The session layer: what every door (the chat, `ask`, `replay`, the MCP server) runs the same way.

`attempt.GuardedAttempt` is one guarded attempt (journal, calls, guard, rollback, lessons);
`words` says its outcomes to a person.
"""
