"""MCP serves the calendars of every account (issue 27 item 6, CONTRACT section 7): the real
`mcp` client lists `list_calendars` as read-only, calls it, and `list_events` through MCP says
each event's calendar as `<account>/<calendar id>`."""
from __future__ import annotations

from pathlib import Path

import mcp_support
import pytest
from family_support import NOW, local_family, seed
from mcp import Client

from assistant.mcp.server import build_server
from assistant.services import build_services
from assistant.settings import load_settings

anyio_backend = mcp_support.anyio_backend


@pytest.mark.anyio
async def test_mcp_serves_list_calendars_and_listings_across_accounts(home: Path) -> None:
    local_family(home)
    with build_services(load_settings()) as services:
        made = seed(services)
    server = build_server(load_settings(), now=lambda: NOW, configured=lambda: None)
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        calendars = await client.call_tool("list_calendars", {})
        listing = await client.call_tool("list_events", {"start": "2025-10-20", "end": "2025-10-27"})
    tool = tools["list_calendars"]
    assert tool.annotations is not None and tool.annotations.read_only_hint
    assert not calendars.is_error
    facts = (calendars.structured_content or {})["calendars"]
    assert {(c["account"], c["name"]) for c in facts} == {
        ("home", "Family"), ("home", "Leo"), ("work", "Dad"), ("work", "Mom")}
    assert [c["id"] for c in facts if c["primary"]] == ["home/primary"]
    events = (listing.structured_content or {})["events"]
    assert {e["title"]: e["calendar_id"] for e in events} == {t: c for t, (c, _) in made.items()}
