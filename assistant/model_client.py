"""The model client on the `anthropic` SDK (2.x): main calls stream, reflection calls return JSON.

The SDK retries 408/409/429/5xx itself (honouring `retry-after`), so this layer adds none of its
own; it only caches the system prompt and tool definitions (prompt caching), records the usage of
every call, and turns SDK failures into `ModelError` with a sentence a person can read.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import anthropic
import httpx
from anthropic.types import MessageParam, StopReason, TextBlockParam, ToolUnionParam

from assistant.report import Usage
from assistant.settings import Settings

LOCAL_PLACEHOLDER_KEY = "local-server"


class ModelError(Exception):
    """The model could not be reached or answered in a way we cannot use."""

    def __init__(self, message: str, retryable: bool = True) -> None:
        super().__init__(message)
        self.retryable = retryable


def readable_error(exc: BaseException) -> ModelError:
    if isinstance(exc, anthropic.AuthenticationError):
        return ModelError("The API key was refused. Set ANTHROPIC_API_KEY (or api_key in the config).", False)
    if isinstance(exc, anthropic.RateLimitError):
        return ModelError("The model service is rate limiting us; wait a moment and retry.")
    if isinstance(exc, anthropic.APIStatusError) and exc.status_code == 529:
        return ModelError("The model service is overloaded; retry in a moment.")
    if isinstance(exc, anthropic.APITimeoutError):
        return ModelError("The model service did not answer in time; retry.")
    if isinstance(exc, anthropic.APIConnectionError):
        return ModelError("Cannot reach the model service (network down?); retry when connected.")
    if isinstance(exc, anthropic.BadRequestError):
        return ModelError(f"The model service refused the request: {exc.message}", False)
    if isinstance(exc, anthropic.APIStatusError):
        return ModelError(f"The model service failed ({exc.status_code}); retry.")
    if isinstance(exc, ValueError):  # the SDK raises JSONDecodeError on a malformed body
        return ModelError("The model service sent an answer that could not be read; retry.")
    return ModelError(f"The model call failed: {exc}")


@dataclass
class ModelResponse:
    content: list[dict[str, Any]]
    stop_reason: StopReason | None
    usage: Usage = field(default_factory=Usage)

    @property
    def tool_uses(self) -> list[dict[str, Any]]:
        return [b for b in self.content if b.get("type") == "tool_use"]

    @property
    def text(self) -> str:
        return "".join(b.get("text", "") for b in self.content if b.get("type") == "text")


def _cached_system(system: list[str]) -> list[TextBlockParam]:
    """System text blocks, the stable first one marked for prompt caching."""
    blocks: list[TextBlockParam] = [{"type": "text", "text": s} for s in system if s]
    if blocks:
        blocks[0]["cache_control"] = {"type": "ephemeral"}
    return blocks


def _cached_tools(tools: list[dict[str, Any]]) -> list[ToolUnionParam]:
    """The tool definitions (plain JSON from the tool specs), the last one marked for caching."""
    out = [dict(t) for t in tools]
    if out:
        out[-1]["cache_control"] = {"type": "ephemeral"}
    return cast(list[ToolUnionParam], out)


def _block_dict(block: Any) -> dict[str, Any]:
    data = block.model_dump(exclude_none=True) if hasattr(block, "model_dump") else dict(block)
    keep = {"text": ("type", "text"), "tool_use": ("type", "id", "name", "input")}
    fields = keep.get(data.get("type", ""))
    return {k: data[k] for k in fields if k in data} if fields else data


class ModelClient:
    def __init__(self, settings: Settings, base_url: str | None = None,
                 max_retries: int = 2, timeout: float = 120.0) -> None:
        self.settings = settings
        key = settings.api_key or os.environ.get("ANTHROPIC_API_KEY")
        base = base_url or os.environ.get("ANTHROPIC_BASE_URL")
        if not key and base:
            key = LOCAL_PLACEHOLDER_KEY  # Ollama and other local servers take any key
        self.client = anthropic.Anthropic(api_key=key, base_url=base, max_retries=max_retries,
                                          timeout=timeout)
        self.structured_output = True

    def stream(self, *, system: list[str], messages: list[dict[str, Any]], tools: list[dict[str, Any]],
               on_text: Callable[[str], None] | None = None,
               on_tool_start: Callable[[], None] | None = None,
               max_tokens: int | None = None) -> ModelResponse:
        """One main-model call, streamed: text deltas reach `on_text` until a tool_use block starts."""
        try:
            with self.client.messages.stream(
                model=self.settings.model, max_tokens=max_tokens or self.settings.max_tokens,
                system=_cached_system(system), messages=cast(list[MessageParam], messages),
                tools=_cached_tools(tools),
            ) as stream:
                tool_started = False
                for event in stream:
                    if event.type == "content_block_start" and event.content_block.type == "tool_use":
                        if not tool_started and on_tool_start:
                            on_tool_start()
                        tool_started = True
                    elif event.type == "text" and on_text and not tool_started:
                        on_text(event.text)
                final = stream.get_final_message()
        except (anthropic.APIError, ValueError) as exc:
            raise readable_error(exc) from exc
        except httpx.HTTPError as exc:  # the connection dropped mid-stream
            raise ModelError("The model's answer was cut off before it finished (the connection "
                             "dropped); retry.") from exc
        usage = Usage()
        usage.add(final.usage)
        return ModelResponse([_block_dict(b) for b in final.content], final.stop_reason, usage)

    def reflect(self, system: str, prompt: str, schema: dict[str, Any],
                usage_sink: Usage | None = None) -> str:
        """One reflection call: JSON out through structured output, 1000 tokens at most."""
        from reflection.reflect import MAX_REFLECTION_TOKENS

        kwargs: dict[str, Any] = dict(model=self.settings.reflection_model,
                                      max_tokens=MAX_REFLECTION_TOKENS,
                                      system=_cached_system([system]),
                                      messages=[{"role": "user", "content": prompt}])
        if self.structured_output:
            kwargs["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
        try:
            message = self.client.messages.create(**kwargs)
        except anthropic.BadRequestError as exc:
            if "output_config" not in kwargs or "output" not in str(exc.message).lower():
                raise readable_error(exc) from exc
            # A compatible server without structured output: ask again, the prompt asks for JSON.
            self.structured_output = False
            kwargs.pop("output_config")
            try:
                message = self.client.messages.create(**kwargs)
            except (anthropic.APIError, ValueError) as exc2:
                raise readable_error(exc2) from exc2
        except (anthropic.APIError, ValueError) as exc:
            raise readable_error(exc) from exc
        if usage_sink is not None:
            usage_sink.add(message.usage)
        return "".join(getattr(b, "text", "") for b in message.content)


def reflection_call_from_settings(settings: Settings) -> Callable[[str, str, dict[str, Any]], str]:
    client = ModelClient(settings)
    return lambda system, prompt, schema: client.reflect(system, prompt, schema)
