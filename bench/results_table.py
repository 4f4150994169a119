#!/usr/bin/env python3
"""Print bench/run_table.sh's JSON lines as the markdown table of bench/README.md."""
import json
import sys

TARGET_MS = {"S": 2, "M": 50, "O": 50, "L": 250}


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    print("| scenario | nodes | pods | binds | session ms (median) | reference path ms | speedup "
          "| placements/s | load ms | MB/s loaded | peak RSS MiB | target |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in rows:
        name = r["name"]
        if name in TARGET_MS:
            t = TARGET_MS[name]
            target = f"≤ {t} ms: {'met' if r['session_ms'] <= t else 'missed by %.1fx' % (r['session_ms'] / t)}"
        else:
            per_s = r["placements_per_s"]
            target = f"≥ 1M placements/s: {'met' if per_s >= 1e6 else 'missed by %.1fx' % (1e6 / per_s)}"
        mb_s = r["file_bytes"] / 1e6 / (r["load_ms"] / 1000) if r["load_ms"] > 0 else 0
        print(f"| {name} | {r['nodes']} | {r['pods']} | {r['binds']} | {r['session_ms']:.2f} "
              f"| {r['reference_session_ms']:.1f} | {r['speedup']:.1f}x | {r['placements_per_s']:,.0f} "
              f"| {r['load_ms']:.0f} | {mb_s:.1f} | {r['peak_rss_mib']:.0f} | {target} |")


if __name__ == "__main__":
    main()
