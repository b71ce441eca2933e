#!/usr/bin/env python3
"""Scores reflection.dates.resolver (and dateparser, side by side) on the peer corpus
(Microsoft Recognizers-Text English DateTimeModel cases), with the scoring rule of
/work/shared/peer/README.md:

- scorable cases: a reference time and exactly one expected entity of type date or datetime whose
  resolutions are all of type date/datetime and each carry a single `value` (247 cases);
- the whole sentence goes in, with the reference read as UTC wall time (tz "UTC"); of the returned
  expressions, the one overlapping the expected span most is scored;
- correct when one of its candidates equals one of the expected values (dates compare the date,
  datetimes compare to the second); a "not resolved" value is correct only if nothing is resolved;
- also reported: mean candidates per scored expression, "silent wrong" (an answer none of whose
  candidates is expected), time per case.

Usage (from the repo root):
    .venv/bin/python bench/bench_resolver_peer.py /work/shared/peer/recognizers-datetime-en.jsonl [-v] [--scaling]

--scaling also times the grammar on the corpus sentences joined into texts of growing length (past
resolve()'s MAX_TEXT_CHARS cap, through the pipeline behind it), to show the time grows linearly.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from datetime import date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reflection.dates.resolver import resolve


def scorable(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        c = json.loads(line)
        if not c.get("reference"):
            continue
        ex = c.get("expected") or []
        if len(ex) != 1:
            continue
        e = ex[0]
        if e.get("type") not in ("date", "datetime"):
            continue
        rs = e.get("resolutions") or []
        if not rs or not all(r.get("type") in ("date", "datetime") and "value" in r for r in rs):
            continue
        yield c


def ref_of(c) -> datetime:
    s = c["reference"]
    if "." in s:                       # 2017-09-28T14:11:10.9626841: more digits than Python reads
        head, frac = s.split(".", 1)
        s = head + "." + frac[:6]
    return datetime.fromisoformat(s)


def cand_key(v, want_time: bool) -> str:
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S") if want_time else v.strftime("%Y-%m-%d")
    if isinstance(v, date):
        return v.isoformat() if not want_time else v.isoformat() + " (date only)"
    return str(v)


def judge(values: list[str], cands: list, resolved: bool):
    """-> (correct, silent_wrong)."""
    if values == ["not resolved"] or "not resolved" in values:
        return (not resolved), resolved
    want_time = " " in values[0]
    keys = {cand_key(v, want_time) for v in cands}
    ok = bool(keys & set(values))
    return ok, (not ok and bool(cands))


def overlap(a0, a1, b0, b1):
    return max(0, min(a1, b1) - max(a0, b0))


def run_ours(cases, verbose):
    n = ok = silent = 0
    ncand = nexpr = 0
    t_total = 0.0
    fails = []
    for c in cases:
        e = c["expected"][0]
        values = [r["value"] for r in e["resolutions"]]
        ref = ref_of(c)
        t0 = time.perf_counter()
        res = resolve(c["input"], ref, "UTC")
        t_total += time.perf_counter() - t0
        s0, s1 = e["start"], e["end"] + 1
        best, bo = None, 0
        for x in res.expressions:
            o = overlap(s0, s1, x.start_index, x.end_index)
            if o > bo:
                best, bo = x, o
        cands = [cd.start for cd in best.candidates] if best else []
        if best is not None:
            nexpr += 1
            ncand += len(best.candidates)
        good, sw = judge(values, cands, bool(cands))
        n += 1
        ok += good
        silent += sw
        if not good:
            fails.append((c["id"], c["reference"], c["input"], e["text"], values,
                          best.span if best else None, [str(x) for x in cands],
                          best.contradiction if best else None))
    if verbose:
        for f in fails:
            print("FAIL", *f, sep=" | ")
    return {"n": n, "ok": ok, "silent": silent, "mean_cands": ncand / max(nexpr, 1), "scored": nexpr,
            "ms": 1000 * t_total / max(n, 1)}


def run_dateparser(cases):
    try:
        from dateparser.search import search_dates
    except ImportError:
        return None
    warnings.filterwarnings("ignore")
    n = ok = silent = 0
    ncand = nexpr = 0
    t_total = 0.0
    for c in cases:
        e = c["expected"][0]
        values = [r["value"] for r in e["resolutions"]]
        ref = ref_of(c)
        settings = {"RELATIVE_BASE": ref, "TIMEZONE": "UTC", "RETURN_AS_TIMEZONE_AWARE": False,
                    "PREFER_DATES_FROM": "future"}
        t0 = time.perf_counter()
        try:
            found = search_dates(c["input"], languages=["en"], settings=settings) or []
        except Exception:  # noqa: BLE001 - the other parser's failure scores as "nothing found"
            found = []
        t_total += time.perf_counter() - t0
        s0, s1 = e["start"], e["end"] + 1
        best, bo = None, 0
        pos = 0
        low = c["input"]
        for sub, dt in found:
            i = low.find(sub, pos)
            if i < 0:
                i = low.find(sub)
            if i < 0:
                continue
            pos = i + len(sub)
            o = overlap(s0, s1, i, i + len(sub))
            if o > bo:
                best, bo = dt, o
        cands = [best] if best is not None else []
        if best is not None:
            nexpr += 1
            ncand += 1
        good, sw = judge(values, cands, bool(cands))
        n += 1
        ok += good
        silent += sw
    return {"n": n, "ok": ok, "silent": silent, "mean_cands": ncand / max(nexpr, 1), "scored": nexpr,
            "ms": 1000 * t_total / max(n, 1)}


def run_scaling(cases, sizes=(5_000, 20_000, 120_000, 480_000)):
    """Seconds to resolve texts of each size made of the corpus sentences (one run each)."""
    from zoneinfo import ZoneInfo

    from reflection.dates.parse import find_expressions
    from reflection.dates.values import Ctx
    blob = " ".join(c["input"] for c in cases)
    now = datetime(2025, 10, 22, 9, tzinfo=ZoneInfo("UTC"))
    ctx = Ctx(now=now, tz=ZoneInfo("UTC"), today=now.date())
    out = []
    for n in sizes:
        text = (blob * (n // len(blob) + 1))[:n]
        t0 = time.perf_counter()
        k = len(find_expressions(text, ctx))
        out.append((n, k, time.perf_counter() - t0))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("-v", "--verbose", action="store_true", help="list our failures")
    ap.add_argument("--no-dateparser", action="store_true")
    ap.add_argument("--scaling", action="store_true", help="also time texts of growing length")
    a = ap.parse_args(argv)
    cases = list(scorable(a.corpus))
    ours = run_ours(cases, a.verbose)
    rows = [("reflection.dates.resolver", ours)]
    if not a.no_dateparser:
        dp = run_dateparser(cases)
        if dp:
            rows.append(("dateparser.search_dates", dp))
    print(f"scorable cases: {len(cases)}")
    print(f"{'resolver':26} {'correct':>10} {'accuracy':>9} {'cands/expr':>11} {'scored':>7} "
          f"{'silent wrong':>13} {'ms/case':>8}")
    for name, r in rows:
        print(f"{name:26} {r['ok']:>4}/{r['n']:<5} {100 * r['ok'] / r['n']:>8.1f}% {r['mean_cands']:>11.2f} "
              f"{r['scored']:>7} {r['silent']:>13} {r['ms']:>8.3f}")
    if a.scaling:
        print(f"{'text chars':>10} {'expressions':>12} {'seconds':>8}")
        for n, k, secs in run_scaling(cases):
            print(f"{n:>10} {k:>12} {secs:>8.2f}")


if __name__ == "__main__":
    main()
