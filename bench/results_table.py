#!/usr/bin/env python3
"""Print bench/run_table.sh's JSON lines as the markdown table of bench/README.md."""
import json
import sys

TARGET_MS = {"S": 2, "M": 50, "O": 50, "L": 250}
TARGET_M_MIB = 70
TARGET_INGEST_MB_S = 200


def verdict(ok: bool, ratio: float) -> str:
    """ratio: how far past the target (above 1); near misses in percent, as 1.0x hides them."""
    if ok:
        return "met"
    return "missed by %.0f %%" % ((ratio - 1) * 100) if ratio < 1.5 else "missed by %.1fx" % ratio


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    print("| scenario | nodes | pods | binds | session ms (median) | session ms (min) | placements/s "
          "| beside reference ms | reference path ms | speedup | load ms | MB/s loaded | peak RSS MiB | target |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in rows:
        name = r["name"]
        mb_s = r["file_bytes"] / 1e6 / (r["load_ms"] / 1000) if r["load_ms"] > 0 else 0
        if name in TARGET_MS:
            t = TARGET_MS[name]
            target = f"≤ {t} ms: {verdict(r['session_ms'] <= t, r['session_ms'] / t)}"
            if name == "M":
                mib = r["peak_rss_mib"]
                target += f"; ≤ {TARGET_M_MIB} MiB: {verdict(mib <= TARGET_M_MIB, mib / TARGET_M_MIB)}"
        elif name.startswith("L (JSON"):
            target = f"ingest ≥ {TARGET_INGEST_MB_S} MB/s: {verdict(mb_s >= TARGET_INGEST_MB_S, TARGET_INGEST_MB_S / mb_s)}"
        else:
            per_s = r["placements_per_s"]
            target = f"≥ 1M placements/s: {verdict(per_s >= 1e6, 1e6 / per_s)}"
        ref = f"{r['reference_session_ms']:.1f}" if "reference_session_ms" in r else "–"
        beside = f"{r['session_ms_beside_reference']:.2f}" if "session_ms_beside_reference" in r else "–"
        speedup = f"{r['speedup']:.1f}x" if "speedup" in r else "–"
        print(f"| {name} | {r['nodes']} | {r['pods']} | {r['binds']} | {r['session_ms']:.2f} "
              f"| {r['session_ms_min']:.2f} | {r['placements_per_s']:,.0f} | {beside} | {ref} | {speedup} "
              f"| {r['load_ms']:.0f} | {mb_s:.1f} | {r['peak_rss_mib']:.0f} | {target} |")


if __name__ == "__main__":
    main()
