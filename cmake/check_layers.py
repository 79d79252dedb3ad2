#!/usr/bin/env python3
"""Refuses an include that points up the layers (docs/architecture.md).

    check_layers.py SRC_DIR STAMP LAYER...

LAYER... is CMakeLists.txt's KAIZEN_LAYERS, bottom first. Every folder under SRC_DIR must be one of
them; a file in layer L may include a project header of L itself or of a layer below L, and the
public headers (include/kaizen/) of the layer that implements them or below. Tests obey the same
rule as the code they test. Outside store/, only tests include the PostgreSQL backend (store/pg/):
the rest reaches the shared log through store/shared_log.h. On success, touches STAMP (the build's record that the check ran);
otherwise prints one line per offending include, `file:line: ...`, and exits 1.
"""

import os
import re
import sys

# The public API's headers, by the layer that implements them.
PUBLIC = {"kaizen/status.h": "base", "kaizen/event_log.h": "ingest"}
# The shared log's backend: only store/ names it (store/shared_log.h is what the layers above use).
BACKEND = "store/pg/"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, stamp, layers = sys.argv[1], sys.argv[2], sys.argv[3:]
    rank = {name: i for i, name in enumerate(layers)}
    errors = []
    for name in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, name)) and name not in rank:
            errors.append(f"{os.path.join(src, name)}: a folder that is no layer: add it to "
                          f"KAIZEN_LAYERS (CMakeLists.txt) and docs/architecture.md, or move it")
    for dirpath, _, files in os.walk(src):
        rel_dir = os.path.relpath(dirpath, src)
        layer = rel_dir.split(os.sep)[0]
        if layer not in rank:
            continue
        for f in sorted(files):
            if not f.endswith((".h", ".cc")):
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8") as text:
                for n, line in enumerate(text, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = m.group(1)
                    target = PUBLIC.get(header) if header.startswith("kaizen/") else header.split("/")[0]
                    if header.startswith("kaizen/") and target is None:
                        errors.append(f"{path}:{n}: {header} is a public header no layer implements "
                                      f"(cmake/check_layers.py PUBLIC)")
                    elif (header.startswith(BACKEND) and layer != "store"
                          and not f.endswith("_test.cc")):
                        errors.append(f"{path}:{n}: {layer} includes {header}, the PostgreSQL "
                                      f"backend; above store/ the shared log is "
                                      f"store/shared_log.h (tests may set up a real server)")
                    elif target in rank and rank[target] > rank[layer]:
                        below = ", ".join(layers[:rank[layer]]) or "none"
                        errors.append(f"{path}:{n}: {layer} includes {header}, of {target}, a layer "
                                      f"above it; {layer} may include {below}")
    if errors:
        print("\n".join(errors))
        print(f"check_layers: {len(errors)} include(s) against the layers (docs/architecture.md)")
        return 1
    with open(stamp, "w"):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
