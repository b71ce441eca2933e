"""Conversation history that survives restarts, and the slice of it sent with each request.

Messages are stored as the Anthropic message dicts they were sent as. The context sent keeps the
newest messages within a token budget and always starts at a person's own message, so a
`tool_result` is never sent without the `tool_use` it answers.
"""
from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from sqlmodel import AutoString, Field, Session, SQLModel, col
from sqlmodel import select as select_rows

from tools.store.database import Store

ConversationKind = Literal["chat", "replay", "demo"]
"""Which door a conversation came through; each resumes only its own kind."""


def _now() -> datetime:
    return datetime.now(UTC)


class ConversationRow(SQLModel, table=True):
    __tablename__ = "conversations"
    id: str = Field(primary_key=True)
    started_at: datetime = Field(default_factory=_now)
    kind: ConversationKind = Field(default="chat", sa_type=AutoString)


class MessageRow(SQLModel, table=True):
    __tablename__ = "messages"
    id: int | None = Field(default=None, primary_key=True)
    conversation_id: str = Field(index=True)
    turn_id: str | None = None
    role: Literal["user", "assistant"] = Field(sa_type=AutoString)
    content: str  # JSON
    created_at: datetime = Field(default_factory=_now)


def estimate_tokens(message: dict[str, Any]) -> int:
    """About four characters a token: good enough to keep a budget, and the SDK's count_tokens
    would cost a request per turn."""
    return max(1, len(json.dumps(message["content"], ensure_ascii=False)) // 4)


def is_person_message(message: dict[str, Any]) -> bool:
    content = message["content"]
    if message["role"] != "user":
        return False
    if isinstance(content, str):
        return True
    return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)


class History:
    def __init__(self, store: Store, conversation_id: str | None = None, kind: ConversationKind = "chat",
                 resume: bool = True) -> None:
        self.store = store
        self.engine = store.engine
        store.migrate("state")
        with Session(self.engine) as session:
            if conversation_id is None and resume:
                row = session.exec(select_rows(ConversationRow).where(col(ConversationRow.kind) == kind)
                                   .order_by(col(ConversationRow.started_at).desc())).first()
                conversation_id = row.id if row else None
            if conversation_id is None:
                conversation_id = uuid.uuid4().hex
            if session.get(ConversationRow, conversation_id) is None:
                session.add(ConversationRow(id=conversation_id, kind=kind))
                session.commit()
        self.conversation_id = conversation_id
        self.kind = kind

    def start_new(self) -> str:
        """Begin a fresh conversation (`/clear`, the new-conversation key): what is sent to the
        model from now on starts empty, and a restart resumes the new one. The old conversation
        stays stored; it is only no longer the latest."""
        conversation_id = uuid.uuid4().hex
        with Session(self.engine) as session:
            session.add(ConversationRow(id=conversation_id, kind=self.kind))
            session.commit()
        self.conversation_id = conversation_id
        return conversation_id

    def messages(self) -> list[dict[str, Any]]:
        with Session(self.engine) as session:
            rows = session.exec(select_rows(MessageRow).where(
                col(MessageRow.conversation_id) == self.conversation_id).order_by(col(MessageRow.id))).all()
            return [{"role": r.role, "content": json.loads(r.content)} for r in rows]

    def append(self, messages: list[dict[str, Any]], turn_id: str | None = None) -> None:
        with Session(self.engine) as session:
            for m in messages:
                session.add(MessageRow(conversation_id=self.conversation_id, turn_id=turn_id,
                                       role=m["role"], content=json.dumps(m["content"], ensure_ascii=False)))
            session.commit()

    def context(self, budget_tokens: int) -> list[dict[str, Any]]:
        """The newest whole exchanges that fit the budget, starting at a person's message."""
        messages = self.messages()
        kept: list[dict[str, Any]] = []
        used = 0
        for message in reversed(messages):
            cost = estimate_tokens(message)
            if used + cost > budget_tokens and kept:
                break
            kept.append(message)
            used += cost
        kept.reverse()
        while kept and not is_person_message(kept[0]):
            kept.pop(0)
        return kept

    def for_display(self) -> list[tuple[str, str]]:
        out = []
        for message in self.messages():
            content = message["content"]
            if isinstance(content, str):
                text = content
            else:
                text = "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
            if text.strip() and (message["role"] == "assistant" or is_person_message(message)):
                out.append((message["role"], text))
        return out
