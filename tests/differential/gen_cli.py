"""The command line the decorating generators share (gen_sharding, gen_tdm, gen_rsf):
SEED and gen_mixed's size options, the scenario on stdout under a line saying how it was
made."""
import argparse
import sys

from gen_mixed import DEFAULTS


def run(script, doc, generate):
    """Parses the command line for `script` and prints generate(seed, opts)'s documents."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    for k, v in DEFAULTS.items():
        ap.add_argument("--" + k.replace("_", "-"), type=int, default=v)
    a = ap.parse_args()
    opts = {k: getattr(a, k) for k in DEFAULTS}
    family, docs = generate(a.seed, opts)
    flags = "".join(f" --{k.replace('_', '-')} {v}" for k, v in opts.items() if v != DEFAULTS[k])
    sys.stdout.write(f"# {script}{flags} {a.seed}  (family={family})\n" + "---\n".join(docs))
