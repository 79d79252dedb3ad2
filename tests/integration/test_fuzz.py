"""A small in-suite fuzz loop: random and mutated input to `record` and `import` never crashes the
binary, and whatever it accepts is a valid event that `verify` agrees with.

The seed is fixed (override with KZ_FUZZ_SEED) so a failure reproduces; the failing input is saved
next to the message.
"""

import json
import os
import random
import unittest

from kzlib import EXIT_OK, KINDS, NOW, KaizenTest, dumps, kaizen, valid_event

ROUNDS = int(os.environ.get("KZ_FUZZ_ROUNDS", "100"))  # each round: one record and one import
SEED = int(os.environ.get("KZ_FUZZ_SEED", "20250711"))

SPECIAL = [b"\x00", b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\\", b'"', b"\\u0000", b"\\ud800",
           b"{", b"}", b"[", b"]", b",", b":", b"NaN", b"-Infinity", b"1e999", b"-0", b"null",
           b"true", b"\r", b"\n", b"\t", b" ", b"\xf0\x9f\x9a\x80", b"9" * 40, b"[" * 64]


def random_value(rng, depth=0):
    roll = rng.random()
    if depth > 3 or roll < 0.2:
        return rng.choice([None, True, False, 0, -1, 1.5, 1e308, 2 ** 64, "", "x", "2025-07-10",
                           "2025-07-10T10:00:00Z", "0197c348-8800-7162-a981-b31b38711978"])
    if roll < 0.4:
        return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)]))
                       for _ in range(rng.randrange(0, 20)))
    if roll < 0.6:
        return rng.uniform(-1e6, 1e6)
    if roll < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(["id", "kind", "score", "meta", "x", "_p"]): random_value(rng, depth + 1)
            for _ in range(rng.randrange(0, 4))}


def mutate_structure(rng, event):
    """Replace, delete or add one field somewhere in the event."""
    e = json.loads(json.dumps(event))
    target = e
    path = []
    while isinstance(target, dict) and target and rng.random() < 0.5:
        k = rng.choice(list(target))
        if not isinstance(target[k], dict):
            break
        path.append(k)
        target = target[k]
    if not isinstance(target, dict) or not target:
        return e
    k = rng.choice(list(target))
    op = rng.random()
    if op < 0.5:
        target[k] = random_value(rng)
    elif op < 0.75:
        del target[k]
    else:
        target[rng.choice(["zz", "_x", k + "2"])] = random_value(rng)
    return e


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        op = rng.random()
        pos = rng.randrange(0, len(data) + 1)
        if op < 0.3 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op < 0.55:
            data[pos:pos] = rng.choice(SPECIAL)
        elif op < 0.75 and data:
            del data[pos:pos + rng.randrange(1, 20)]
        elif op < 0.9:
            data = data[:pos]
        else:
            data[pos:pos] = data[:rng.randrange(0, len(data) + 1)]
    return bytes(data)


def fuzz_input(rng):
    """One input of a few lines: random bytes, byte-mutated events, or structurally mutated ones."""
    lines = []
    for _ in range(rng.randrange(1, 5)):
        kind = rng.choice(KINDS)
        event = valid_event(kind)
        roll = rng.random()
        if roll < 0.15:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        elif roll < 0.55:
            line = mutate_bytes(rng, dumps(event).encode())
        elif roll < 0.9:
            line = dumps(mutate_structure(rng, event)).encode()
        else:
            line = dumps(event).encode()
        lines.append(line)
    return b"\n".join(lines) + rng.choice([b"", b"\n", b"\r\n"])


class Fuzz(KaizenTest):

    def test_random_input_never_crashes_record_or_import(self):
        rng = random.Random(SEED)
        accepted = 0
        for i in range(ROUNDS):
            for verb in ("record", "import"):
                data = fuzz_input(rng)
                if verb == "record":
                    args = ["record", rng.choice(KINDS + ("bogus",)), "--home", self.home,
                            "--now", NOW]
                    r = kaizen(*args, input=data, timeout=60)
                else:
                    p = self.write("fuzz.jsonl", data)
                    r = kaizen("import", p, "--json", "--home", self.home, "--now", NOW,
                               timeout=60)
                if r.rc not in (0, 1, 2, 3):
                    saved = self.write(f"crash-{i}-{verb}.bin", data)
                    kept = os.path.join(os.path.dirname(self.tmp),
                                        f"kaizen-fuzz-crash-{SEED}-{i}-{verb}.bin")
                    with open(kept, "wb") as f:
                        f.write(data)
                    self.fail(f"round {i} ({verb}) exited {r.rc} (signal if negative); input "
                              f"kept in {kept}: {data[:300]!r}\n{r!r}")
                if verb == "import" and r.rc in (0, 1):
                    # --json output is valid JSON, one object per non-blank line, then a summary
                    objs = [json.loads(l) for l in r.lines]
                    self.assertIn("summary", objs[-1], r)
                accepted += r.rc == 0
        # Everything the binary stored must be a valid, unique, parseable event.
        self.assert_raw_log_sound()
        v = self.verify()
        self.assertEqual(v.rc, EXIT_OK, v)
        self.assertEqual(self.export().out_bytes, self.raw_bytes())
        self.assertGreater(len(self.raw_lines()), 0, "the fuzz loop never produced a valid event")
        self.assertLess(accepted, 2 * ROUNDS, "the fuzz loop never produced an invalid input")


if __name__ == "__main__":
    unittest.main()
