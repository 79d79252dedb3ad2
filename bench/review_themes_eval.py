#!/usr/bin/env python3
"""Precision and recall of kaizen's shipped theme taxonomy on real, hand-labelled review comments.

    python3 bench/review_themes_eval.py [--bin build/kaizen] [--data PATH] [--examples THEME]

The data is ../shared/realdata/review-comments/review_comments.jsonl (1,828 inline comments that
people wrote on OpenStack Nova changes, labelled by hand by Turzo et al., ESEM 2023; GPL-3.0, so
it is read where it lies and never copied into this repository). Each comment goes through the
real pipeline: it becomes the `freeText.disliked` of a feedback event, `kaizen import` stores it
in a temporary home (enrichment extracts `_extractedThemes`) and `kaizen export` reads it back.

The dataset's categories are not kaizen's themes. A theme is scored only against the categories
that are its counterpart by the dataset authors' own definitions (COUNTERPARTS below); for it:
n = comments labelled with a counterpart category, predicted = comments that got the theme,
TP = both, precision = TP / predicted, recall = TP / n. A counterpart category can be broader
than the theme (organization_of_code holds dead code among much else), which caps the recall
that theme can reach; the table says which. Themes without a counterpart (types, security, ...)
are listed with how many comments got them and under which labels. Standard library only.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DATA = os.path.join(REPO, "..", "shared", "realdata", "review-comments",
                            "review_comments.jsonl")
NOW = "2026-01-01T00:00:00Z"

# kaizen theme -> the dataset categories (`category`) that mean it, and a note when the category
# is broader than the theme.
COUNTERPARTS = {
    "documentation": (["documentation"], ""),
    "naming": (["naming_convention"], ""),
    "error-handling": (["validation"], "validation = missing checks and tests"),
    "input-validation": (["validation"], "validation = missing checks and tests"),
    "null-handling": (["validation"], "validation = missing checks and tests"),
    "readability": (["visual_representation"], "visual_representation = layout, style"),
    "performance": (["resource"], "resource = variables, memory, resources"),
    "concurrency": (["timing"], ""),
    "dependencies": (["support"], "support = libraries, imports, versions"),
    "dead-code": (["organization_of_code"], "organization_of_code = any restructuring"),
    "architecture": (["design_discussion", "solution_approach"], "design discussions"),
}


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def feedback(i, text):
    return {
        "kind": "feedback",
        "timestamp": "2025-07-10T10:00:00Z",
        "sessionId": f"eval-{i}",
        "modalId": f"eval-modal-{i}",
        "workProduct": {"type": "code-module", "id": f"nova-{i}", "version": "v1",
                        "path": "nova/x.py", "summary": "a change under review",
                        "bubaConfidence": 0.5,
                        "generationContext": {"promptHash": "eval", "memorySnapshot": [],
                                              "modelUsed": "none", "generationTimeMs": 0,
                                              "iterationCount": 1}},
        "pipelineStage": "review",
        "reviewerId": "reviewer",
        "decision": {"decision": "needs-work", "reason": "review comment"},
        "freeText": {"disliked": text},
        "meta": {"timeToDecisionMs": 60000, "deviceType": "desktop"},
    }


def extract_themes(binary, texts):
    """The `_extractedThemes` kaizen stores for each text, in order."""
    with tempfile.TemporaryDirectory(prefix="kaizen-themes-eval-") as tmp:
        home = os.path.join(tmp, "home")
        events = os.path.join(tmp, "events.jsonl")
        with open(events, "w", encoding="utf-8") as f:
            for i, text in enumerate(texts):
                f.write(json.dumps(feedback(i, text)) + "\n")
        imp = subprocess.run([binary, "import", events, "--home", home, "--now", NOW],
                             capture_output=True, text=True)
        if imp.returncode != 0:
            sys.exit(f"kaizen import failed ({imp.returncode}): {imp.stderr[:2000]}")
        exp = subprocess.run([binary, "export", "--kind", "feedback", "--home", home],
                             capture_output=True, text=True, check=True)
    themes = {}
    for line in exp.stdout.splitlines():
        e = json.loads(line)
        i = int(e["sessionId"].split("-")[1])
        themes[i] = e.get("freeText", {}).get("_extractedThemes", [])
    if len(themes) != len(texts):
        sys.exit(f"stored {len(themes)} of {len(texts)} comments")
    return [themes[i] for i in range(len(texts))]


def pct(a, b):
    return f"{100.0 * a / b:.0f}%" if b else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.environ.get("KAIZEN_BIN",
                                                    os.path.join(REPO, "build", "kaizen")))
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--examples", metavar="THEME",
                    help="also print the false positives and false negatives of THEME")
    args = ap.parse_args()
    if not os.path.exists(args.data):
        sys.exit(f"no data at {args.data} (see ../shared/realdata/review-comments/SOURCE.md)")

    rows = load(args.data)
    predicted = extract_themes(args.bin, [r["text"] for r in rows])
    categories = [r["category"] for r in rows]
    with tempfile.TemporaryDirectory(prefix="kaizen-themes-eval-") as home:
        listed = subprocess.run([args.bin, "themes", "--json", "--home", home],
                                capture_output=True, text=True)
    if listed.returncode == 0:
        all_themes = [t["name"] for t in json.loads(listed.stdout)["themes"]]
    else:  # a kaizen from before `kaizen themes`: the themes it extracted, by name
        all_themes = sorted({t for p in predicted for t in p})

    print(f"## Theme extraction on {len(rows)} hand-labelled review comments (OpenStack Nova)\n")
    print("| kaizen theme | dataset label(s) | n labelled | predicted | TP | precision | recall |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for theme, (cats, note) in COUNTERPARTS.items():
        n = sum(c in cats for c in categories)
        pred = sum(theme in p for p in predicted)
        tp = sum(theme in p and c in cats for p, c in zip(predicted, categories))
        label = " + ".join(cats) + (f" ({note})" if note else "")
        print(f"| {theme} | {label} | {n} | {pred} | {tp} | {pct(tp, pred)} | {pct(tp, n)} |")
    group = {"error-handling", "input-validation", "null-handling", "response-checks"}
    n = sum(c == "validation" for c in categories)
    pred = sum(bool(group & set(p)) for p in predicted)
    tp = sum(bool(group & set(p)) and c == "validation" for p, c in zip(predicted, categories))
    print(f"| any of {', '.join(sorted(group))} | validation | {n} | {pred} | {tp} | "
          f"{pct(tp, pred)} | {pct(tp, n)} |")

    print("\nThemes without a counterpart label: how many comments got them, by label.\n")
    print("| kaizen theme | predicted | labels of those comments |")
    print("|---|---:|---|")
    for theme in all_themes:
        if theme in COUNTERPARTS:
            continue
        got = [c for p, c in zip(predicted, categories) if theme in p]
        top = ", ".join(f"{c} {k}" for c, k in collections.Counter(got).most_common(4))
        print(f"| {theme} | {len(got)} | {top} |")

    none = sum(not p for p in predicted)
    noise = sum(bool(p) for p, c in zip(predicted, categories) if c in ("false_positive", "praise"))
    labelled_noise = sum(c in ("false_positive", "praise") for c in categories)
    print(f"\n{none} of {len(rows)} comments got no theme; {noise} of the {labelled_noise} "
          "labelled false_positive or praise (replies, \"done\", thanks) got one.")

    if args.examples:
        cats = COUNTERPARTS.get(args.examples, ([], ""))[0]
        for title, want_pred, want_label in (("false positives", True, False),
                                             ("false negatives", False, True)):
            print(f"\n### {args.examples}: {title}\n")
            for r, p in zip(rows, predicted):
                if (args.examples in p) == want_pred and (r["category"] in cats) == want_label:
                    print(f"- [{r['category']}] {r['text'][:160]!r} -> {p}")


if __name__ == "__main__":
    main()
