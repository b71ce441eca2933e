"""What an MCP client sees of the tools: the chat's tool specs, plus what the MCP door needs.

One source of truth: each tool's name, description and input schema come from its `ToolSpec`
(`tools.specs`), so the chat's model and an MCP client's model read the same words. The MCP door
adds, per CONTRACT section 7: the required `request` (the person's own words the call carries out,
which the guard judges it against) and the optional `confirmed` on every guarded tool, the
`readOnlyHint` / `destructiveHint` annotations, and `undo_last_change`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from mcp_types import ToolAnnotations

from tools.specs import SpecRegistry, ToolSpec, all_specs

REQUEST_FIELD = "request"
CONFIRMED_FIELD = "confirmed"
UNDO_TOOL = "undo_last_change"

REQUEST_SCHEMA: dict[str, Any] = {
    "type": "string", "minLength": 1,
    "description": "The person's own words this call carries out, quoted, not paraphrased: the "
                   "change is checked against them and rolled back if it does not match."}
CONFIRMED_SCHEMA: dict[str, Any] = {
    "type": "boolean",
    "description": "True only once the person said yes to this change, after a call answered "
                   "that it needs their confirmation."}

UNDO_DESCRIPTION = ("Undo the most recent change to the calendar that still stands (made through "
                    "these tools or the person's chat), putting every event it touched back as it "
                    "was. Returns the events as restored.")

_DESTRUCTIVE_KINDS = ("delete", "bulk_update")
"""The writes CONTRACT section 7 marks `destructiveHint`: they take events away or change many at
once. Other writes are marked not destructive (the hint defaults to true when absent)."""


@dataclass(frozen=True)
class McpToolDef:
    """One tool as listed to an MCP client."""

    name: str
    description: str
    input_schema: dict[str, Any]
    annotations: ToolAnnotations
    guarded: bool


def input_schema(spec: ToolSpec) -> dict[str, Any]:
    """The spec's schema; a guarded tool's also takes `request` (required) and `confirmed`."""
    schema = copy.deepcopy(spec.input_schema)
    if not spec.guarded:
        return schema
    schema.setdefault("properties", {})
    schema["properties"][REQUEST_FIELD] = dict(REQUEST_SCHEMA)
    schema["properties"][CONFIRMED_FIELD] = dict(CONFIRMED_SCHEMA)
    schema["required"] = [*schema.get("required", []), REQUEST_FIELD]
    return schema


def tool_annotations(spec: ToolSpec) -> ToolAnnotations:
    """A tool that writes nothing is read-only; deletes and bulk updates are destructive."""
    if not spec.writes:
        return ToolAnnotations(read_only_hint=True)
    return ToolAnnotations(read_only_hint=False,
                           destructive_hint=spec.guard_kind in _DESTRUCTIVE_KINDS)


def tool_defs(catalog: SpecRegistry | None = None) -> list[McpToolDef]:
    """Every spec's tool of `catalog` (the app's unless given) in the order the chat's model
    sees them, then `undo_last_change`: a tool added to the specs is served without a change
    here."""
    defs = [McpToolDef(spec.name, spec.description, input_schema(spec), tool_annotations(spec),
                       spec.guarded) for spec in catalog or all_specs()]
    defs.append(McpToolDef(UNDO_TOOL, UNDO_DESCRIPTION,
                           {"type": "object", "properties": {}, "additionalProperties": False},
                           ToolAnnotations(read_only_hint=False, idempotent_hint=False),
                           guarded=False))
    return defs
