"""Drive the real anthropic SDK against the scripted fake server.

These tests pin down both the fake's behaviour and the SDK behaviour the project relies
on (retry policy, exception classes, stream accumulation), so an SDK upgrade that
changes either shows up here first.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest

from assistant.scripted.fake_anthropic import FakeAnthropicServer, RecordedRequest, load_script, main

MODEL = "claude-test"
MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "Add the dentist on Tuesday at 10"}]
TOOL_INPUT: dict[str, Any] = {"title": "Dentist", "start": "2025-03-04T10:00", "attendees": ["ann", "bob"]}
TEXT = "Sure, I'll add the dentist appointment on Tuesday morning."


def text_item(text: str = "All done.") -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


def tool_item() -> dict[str, Any]:
    return {
        "content": [
            {"type": "text", "text": TEXT},
            {"type": "tool_use", "name": "create_event", "input": TOOL_INPUT},
        ]
    }


def client_for(server: FakeAnthropicServer, max_retries: int = 2) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test", base_url=server.base_url, max_retries=max_retries)


def create(client: anthropic.Anthropic, model: str = MODEL, **kw: Any) -> anthropic.types.Message:
    return client.messages.create(model=model, max_tokens=256, messages=MESSAGES, **kw)


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer([]) as srv:
        yield srv


def test_tool_use_response_round_trips(server: FakeAnthropicServer) -> None:
    server.add("default", tool_item())
    msg = create(client_for(server))
    assert [b.type for b in msg.content] == ["text", "tool_use"]
    tool = msg.content[1]
    assert isinstance(tool, anthropic.types.ToolUseBlock)
    assert tool.id == "toolu_000001" and tool.name == "create_event" and tool.input == TOOL_INPUT
    assert msg.id == "msg_000001" and msg.model == MODEL and msg.role == "assistant"
    assert msg.stop_reason == "tool_use"
    assert msg.usage.input_tokens > 0 and msg.usage.output_tokens > 0
    server.assert_exhausted()


def test_explicit_stop_reason_usage_and_tool_id_are_kept(server: FakeAnthropicServer) -> None:
    usage = {"input_tokens": 11, "output_tokens": 22, "cache_creation_input_tokens": 3, "cache_read_input_tokens": 4}
    server.add(
        "default",
        {"content": [{"type": "tool_use", "id": "toolu_fixed", "name": "x", "input": {}}], "stop_reason": "max_tokens",
         "usage": usage},
        text_item(),
    )
    client = client_for(server)
    msg = create(client)
    assert msg.content[0].id == "toolu_fixed"  # type: ignore[union-attr]
    assert msg.stop_reason == "max_tokens"
    assert msg.usage.model_dump(include=set(usage)) == usage
    assert create(client).stop_reason == "end_turn"


def test_stream_helper_yields_deltas_and_final_message(server: FakeAnthropicServer) -> None:
    server.add("default", tool_item())
    with client_for(server).messages.stream(model=MODEL, max_tokens=256, messages=MESSAGES) as stream:
        deltas = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(deltas) >= 5 and "".join(deltas) == TEXT
    assert [b.type for b in final.content] == ["text", "tool_use"]
    assert final.content[0].text == TEXT  # type: ignore[union-attr]
    assert final.content[1].input == TOOL_INPUT  # type: ignore[union-attr]
    assert final.content[1].id.startswith("toolu_")  # type: ignore[union-attr]
    assert final.stop_reason == "tool_use" and final.usage.output_tokens > 1
    assert server.requests[0].body["stream"] is True


def test_create_stream_true_emits_the_real_event_sequence(server: FakeAnthropicServer) -> None:
    server.add("default", tool_item())
    events = list(create(client_for(server), stream=True))
    kinds = [e.type for e in events]
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    deltas = [e.delta for e in events if e.type == "content_block_delta"]
    text = "".join(d.text for d in deltas if d.type == "text_delta")
    partial = "".join(d.partial_json for d in deltas if d.type == "input_json_delta")
    assert text == TEXT and json.loads(partial) == TOOL_INPUT
    assert sum(d.type == "input_json_delta" for d in deltas) > 1
    assert kinds.count("content_block_start") == kinds.count("content_block_stop") == 2


def sleeps_of(monkeypatch: pytest.MonkeyPatch, module: Any, really: bool = False) -> list[float]:
    """Record every `time.sleep` a module asks for (and skip the wait unless `really`), so a test
    asserts the delay that was asked for instead of timing the wall clock."""
    asked: list[float] = []
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        asked.append(seconds)
        if really:
            real_sleep(seconds)

    class Clock:  # the module's own `time`, with its sleep watched (other modules untouched)
        def __getattr__(self, name: str) -> Any:
            return getattr(time, name)

    clock = Clock()
    clock.sleep = sleep  # type: ignore[attr-defined]
    monkeypatch.setattr(module, "time", clock)
    return asked


def test_chunk_delay_spreads_the_stream_out(server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import assistant.scripted.fake_anthropic as fake

    pauses = sleeps_of(monkeypatch, fake)
    server.add("default", {**text_item("one two three four five"), "chunk_delay": 0.02})
    with client_for(server).messages.stream(model=MODEL, max_tokens=256, messages=MESSAGES) as stream:
        deltas = list(stream.text_stream)
    assert len(deltas) == 5 and pauses.count(0.02) >= len(deltas) - 1


def test_async_client_streams_too(server: FakeAnthropicServer) -> None:
    server.add("default", text_item(TEXT))

    async def run() -> tuple[list[str], str]:
        async with anthropic.AsyncAnthropic(api_key="test", base_url=server.base_url) as client:
            async with client.messages.stream(model=MODEL, max_tokens=256, messages=MESSAGES) as stream:
                deltas = [d async for d in stream.text_stream]
                final = await stream.get_final_message()
        return deltas, final.content[0].text  # type: ignore[union-attr]

    deltas, final_text = asyncio.run(run())
    assert len(deltas) > 3 and final_text == TEXT


@pytest.mark.parametrize(
    "fault",
    [
        {"fault": "status", "status": 529, "retry_after": 0},
        {"fault": "status", "status": 429, "retry_after": 0},
        {"fault": "status", "status": 500, "retry_after_ms": 1},
    ],
    ids=["529", "429", "500"],
)
def test_retryable_status_is_retried_then_succeeds(server: FakeAnthropicServer, fault: dict[str, Any]) -> None:
    server.add("default", fault, text_item())
    msg = create(client_for(server))
    assert msg.content[0].text == "All done."  # type: ignore[union-attr]
    assert len(server.requests) == 2
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]
    server.assert_exhausted()


def test_retry_after_ms_makes_retries_immediate(server: FakeAnthropicServer,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # `retry-after: 0` is *not* honoured as "now": the SDK only obeys values > 0 and
    # otherwise backs off ~0.375-0.5 s. `retry-after-ms` is read first and is precise.
    import anthropic._base_client as sdk

    waits = sleeps_of(monkeypatch, sdk)
    server.add("default", {"fault": "status", "status": 529, "retry_after_ms": 1}, text_item())
    create(client_for(server))
    assert waits == [0.001] and len(server.requests) == 2


def test_status_errors_surface_as_sdk_classes_when_retries_run_out(server: FakeAnthropicServer) -> None:
    overloaded = {"fault": "status", "status": 529, "retry_after_ms": 1}
    server.add("default", overloaded, overloaded, {"fault": "status", "status": 400})
    with pytest.raises(anthropic.OverloadedError) as info:
        create(client_for(server, max_retries=1))
    assert info.value.status_code == 529
    assert info.value.body["error"]["type"] == "overloaded_error"  # type: ignore[index]
    with pytest.raises(anthropic.BadRequestError):  # 400 is not retried at all
        create(client_for(server))
    assert len(server.requests) == 3


def test_malformed_body_raises_a_raw_json_decode_error(server: FakeAnthropicServer) -> None:
    # Surprise: the SDK does not wrap this in an anthropic.APIError, and does not retry.
    server.add("default", {"fault": "malformed"}, {"fault": "malformed"})
    client = client_for(server)
    with pytest.raises(json.JSONDecodeError):
        create(client)
    with pytest.raises(json.JSONDecodeError):
        list(create(client, stream=True))
    assert len(server.requests) == 2


def test_disconnect_is_a_connection_error_that_the_sdk_retries(server: FakeAnthropicServer) -> None:
    server.add("default", {"fault": "disconnect"}, {"fault": "disconnect"}, text_item())
    with pytest.raises(anthropic.APIConnectionError):
        create(client_for(server, max_retries=0))
    assert create(client_for(server, max_retries=1)).content[0].text == "All done."  # type: ignore[union-attr]
    assert len(server.requests) == 3


def test_slow_fault_delays_and_times_out(server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import assistant.scripted.fake_anthropic as fake

    delays = sleeps_of(monkeypatch, fake, really=True)  # the timeout below needs a real wait
    server.add("default", {"fault": "slow", "delay": 0.1, "then": text_item("late")})
    assert create(client_for(server)).content[0].text == "late"  # type: ignore[union-attr]
    assert delays == [0.1]
    server.add("default", {"fault": "slow", "delay": 0.5}, text_item("never seen"), text_item("after"))
    with pytest.raises(anthropic.APITimeoutError):
        create(client_for(server, max_retries=0), timeout=0.1)
    assert create(client_for(server)).content[0].text == "after"  # type: ignore[union-attr]


def test_exhausted_script_fails_loudly(server: FakeAnthropicServer) -> None:
    server.add("main", text_item(), text_item())
    client = client_for(server)
    create(client, model="main")
    create(client, model="main")
    with pytest.raises(anthropic.InternalServerError) as info:
        create(client, model="main")
    assert "script exhausted for queue 'main' (request #3)" in str(info.value)
    assert len(server.requests) == 3  # x-should-retry: false stopped the SDK retrying
    assert len(server.failures) == 1
    with pytest.raises(AssertionError, match="exhausted"):
        server.assert_exhausted()
    server.failures.clear()  # handled: let the fixture's close() pass


def test_unknown_path_and_close_raise() -> None:
    srv = FakeAnthropicServer([text_item()]).start()
    with pytest.raises(anthropic.InternalServerError):
        client_for(srv).models.list()
    with pytest.raises(AssertionError, match="unexpected request GET /v1/models"):
        srv.close()
    with pytest.raises(AssertionError, match="unconsumed in queue 'default'"):
        srv.assert_exhausted()


def test_context_manager_exit_raises_on_failures() -> None:
    with pytest.raises(AssertionError, match="script exhausted"):
        with FakeAnthropicServer([]) as srv:
            with pytest.raises(anthropic.InternalServerError):
                create(client_for(srv))


def test_bad_script_items_are_rejected_up_front() -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        FakeAnthropicServer([{"fault": "explode"}])
    with pytest.raises(ValueError, match="content"):
        FakeAnthropicServer({"x": [{"text": "no content list"}]})


def test_routes_by_model_name_with_default_fallback() -> None:
    script = {"planner": [text_item("from planner")], "default": [text_item("from default")]}
    with FakeAnthropicServer(script) as srv:
        client = client_for(srv)
        assert create(client, model="other").content[0].text == "from default"  # type: ignore[union-attr]
        assert create(client, model="planner").content[0].text == "from planner"  # type: ignore[union-attr]
        assert [r.queue for r in srv.requests] == ["default", "planner"]
        srv.assert_exhausted()


def test_custom_router() -> None:
    def router(body: dict[str, Any]) -> str:
        return "tools" if body.get("tools") else "chat"

    tool = {"name": "noop", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    with FakeAnthropicServer({"tools": [tool_item()], "chat": [text_item()]}, router=router) as srv:
        client = client_for(srv)
        assert create(client).stop_reason == "end_turn"
        assert create(client, tools=[tool]).stop_reason == "tool_use"
        srv.assert_exhausted()


def test_requests_are_recorded(server: FakeAnthropicServer) -> None:
    server.add("default", text_item())
    create(client_for(server), system="You manage a calendar.")
    [req] = server.requests
    assert isinstance(req, RecordedRequest)
    assert req.path == "/v1/messages" and req.queue == "default"
    assert req.body["messages"] == MESSAGES and req.body["system"] == "You manage a calendar."
    assert req.body["model"] == MODEL and req.body["max_tokens"] == 256
    assert "anthropic-version" in req.headers


def test_count_tokens(server: FakeAnthropicServer) -> None:
    result = client_for(server).messages.count_tokens(model=MODEL, messages=MESSAGES)
    assert result.input_tokens > 0


def test_load_script_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps([text_item()]))
    as_queues = tmp_path / "queues.json"
    as_queues.write_text(json.dumps({"queues": {"a": [text_item()], "b": []}}))
    assert load_script(as_list) == {"default": [text_item()]}
    assert load_script(as_queues) == {"a": [text_item()], "b": []}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"a": []}))
    with pytest.raises(ValueError):
        load_script(bad)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--port" in capsys.readouterr().out
