#!/usr/bin/env python3
"""Rewrites a multi-document YAML scenario as one `kubectl get -o json`-style List.

    to_json.py L.yaml > L.json
"""
import json
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def main() -> None:
    with open(sys.argv[1]) as f:
        items = [d for d in yaml.load_all(f, Loader=Loader) if d]
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, sys.stdout, indent=4)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
