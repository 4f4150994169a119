#!/usr/bin/env python3
"""Draw session time against nodes and against pods (log-log) as an SVG, from
bench/run_table.sh's JSON lines. No plotting library needed.

  plot_svg.py results.jsonl out.svg
"""
import json
import math
import sys

W, H, PAD = 420, 320, 56
SERIES = [("session_ms", "vcsched", "#1f77b4"), ("reference_session_ms", "reference path", "#d62728")]


def log_ticks(lo, hi):
    return [10 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def panel(rows, xkey, xlabel, ox):
    xs = [r[xkey] for r in rows]
    ys = [r[k] for r in rows for k, _, _ in SERIES if r.get(k, 0) > 0]
    xt, yt = log_ticks(min(xs), max(xs)), log_ticks(min(ys), max(ys))
    x0, x1, y0, y1 = math.log10(xt[0]), math.log10(xt[-1]), math.log10(yt[0]), math.log10(yt[-1])
    px = lambda v: ox + PAD + (math.log10(v) - x0) / max(x1 - x0, 1e-9) * (W - 2 * PAD)
    py = lambda v: H - PAD - (math.log10(v) - y0) / max(y1 - y0, 1e-9) * (H - 2 * PAD)
    out = [f'<rect x="{ox + PAD}" y="{PAD}" width="{W - 2 * PAD}" height="{H - 2 * PAD}" fill="none" stroke="#888"/>']
    for t in xt:
        out.append(f'<line x1="{px(t):.1f}" y1="{H - PAD}" x2="{px(t):.1f}" y2="{PAD}" stroke="#eee"/>')
        out.append(f'<text x="{px(t):.1f}" y="{H - PAD + 16}" text-anchor="middle">{t:g}</text>')
    for t in yt:
        out.append(f'<line x1="{ox + PAD}" y1="{py(t):.1f}" x2="{ox + W - PAD}" y2="{py(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{ox + PAD - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{ox + W / 2}" y="{H - 14}" text-anchor="middle">{xlabel} (log)</text>')
    out.append(f'<text x="{ox + 14}" y="{H / 2}" text-anchor="middle" transform="rotate(-90 {ox + 14} {H / 2})">'
               f'session ms (log)</text>')
    for key, _, color in SERIES:
        for r in rows:
            if r.get(key, 0) <= 0:
                continue
            x, y = px(r[xkey]), py(r[key])
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{color}"/>')
            out.append(f'<text x="{x + 6:.1f}" y="{y - 6:.1f}" fill="{color}">{r["name"]}</text>')
    return out


def main():
    # Session plots: the ingest-only row (no reference path) is left out.
    rows = [r for r in (json.loads(line) for line in open(sys.argv[1]) if line.strip()) if "reference_session_ms" in r]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H + 24}" '
             f'font-family="sans-serif" font-size="11">', '<rect width="100%" height="100%" fill="white"/>']
    parts += panel(rows, "nodes", "nodes", 0)
    parts += panel(rows, "pods", "pods", W)
    for i, (_, label, color) in enumerate(SERIES):
        parts.append(f'<circle cx="{PAD + 10 + i * 130}" cy="{H + 12}" r="4" fill="{color}"/>')
        parts.append(f'<text x="{PAD + 18 + i * 130}" y="{H + 16}">{label}</text>')
    parts.append(f'<text x="{W}" y="20" text-anchor="middle" font-size="13">Session time (median), single thread'
                 f'</text></svg>')
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
