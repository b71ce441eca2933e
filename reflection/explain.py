"""A verdict's proofs in words, for `calendar-assistant check --explain`: why each error is an
error (the phrase, what part it plays, which call it is bound to, every reading accepted, what was
written), so a person can check the guard's reasoning without reading its code."""
from __future__ import annotations

from typing import Any

from reflection.findings import Finding, Verdict

_ROLES = {"target": "where the event goes", "current": "how things are now", "source": "where it comes from",
          "negated": "what it must not be", "end": "when it ends", "length": "how long it lasts"}


def _value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(value)


def proof_words(proof: dict[str, Any]) -> list[str]:
    """One line per fact of the proof."""
    lines: list[str] = []
    if proof.get("check"):
        lines.append(f"found by the check of {proof['check']}")
    for phrase in proof.get("phrases") or []:
        lines.append(f"'{phrase['text']}' says {_ROLES.get(phrase.get('role', ''), phrase.get('role', ''))}")
    if proof.get("phrase") and not proof.get("phrases"):
        role = proof.get("role")
        lines.append(f"the words '{proof['phrase']}'" + (f" say {_ROLES.get(role, role)}" if role else ""))
    if proof.get("event"):
        lines.append(f"bound to the call on {proof['event']}")
    if proof.get("readings"):
        lines.append(f"every reading accepted: {_value(proof['readings'])}")
    if proof.get("rule"):
        lines.append(f"rule: {proof['rule']}")
    if proof.get("instruction_in"):
        lines.append(f"the instruction sits in {proof['instruction_in']}: \"{proof.get('instruction', '')}\"")
    if proof.get("scope_said"):
        lines.append(f"scope said: {proof['scope_said']}; scope written: {proof.get('scope_written')}")
    if "written_local" in proof:
        lines.append(f"written: {proof['written_local']} ({proof.get('written')})")
    elif "written" in proof:
        lines.append(f"written: {_value(proof['written'])}")
    elif proof.get("wrote"):
        lines.append(f"the call wrote: {_value(proof['wrote'])}")
    return lines


def explain_finding(finding: Finding) -> str:
    head = f"{finding.severity} ({finding.type}): {finding.issue}"
    if finding.correction:
        head += f"\n    fix: {finding.correction}"
    if finding.proof:
        head += "".join(f"\n    - {line}" for line in proof_words(finding.proof))
    return head


def explain(verdict: Verdict, case_id: Any = None) -> str:
    """The verdict in words: valid or not, whether a model would still look, each finding."""
    label = f"case {case_id}: " if case_id is not None else ""
    if not verdict.valid:
        state = "wrong, proven in code" if any(f.source == "symbolic" for f in verdict.errors) else "wrong"
    elif verdict.llm_needed:
        state = "not verified in full (the reflection model would look): " + "; ".join(verdict.doubts[:3])
    else:
        state = "verified in full"
    lines = [label + state]
    lines += ["  " + explain_finding(f) for f in verdict.findings]
    return "\n".join(lines)
