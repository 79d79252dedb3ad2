"""The layers of src/ as the build enforces them (docs/architecture.md):
- the layer list in CMakeLists.txt (KAIZEN_LAYERS) and the picture in docs/architecture.md agree;
- cmake/check_layers.py, which the build runs before compiling, refuses an include that points up,
  a folder that is no layer and a public header no layer implements, and passes the tree as it is;
- every file the concept table names exists;
- events are written through the field names of model/event_fields.h, never typed by hand.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(REPO, "cmake", "check_layers.py")


def cmake_layers():
    with open(os.path.join(REPO, "CMakeLists.txt")) as f:
        m = re.search(r"^set\(KAIZEN_LAYERS ([^)]*)\)", f.read(), re.M)
    return m.group(1).split()


def doc():
    with open(os.path.join(REPO, "docs", "architecture.md")) as f:
        return f.read()


def doc_layers():
    """The first word of each line of the picture after the `<!-- layers` marker, top first."""
    text = doc()
    block = text[text.index("<!-- layers"):]
    block = block[block.index("```") + 3:]
    block = block[:block.index("```")]
    return [line.split()[0] for line in block.strip().splitlines()]


def check(src, stamp):
    r = subprocess.run([sys.executable, CHECK, src, stamp, *cmake_layers()],
                       capture_output=True, text=True)
    return r.returncode, r.stdout, os.path.exists(stamp)


class ArchitectureTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kaizen-layers-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def check(self, src):
        """(exit status, what it printed, whether it touched its stamp)."""
        return check(src, os.path.join(self.tmp, "stamp"))

    def tree(self, files):
        src = os.path.join(self.tmp, "src")
        for rel, text in files.items():
            path = os.path.join(src, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return src

    def test_the_page_and_the_build_list_the_same_layers_in_the_same_order(self):
        self.assertEqual(list(reversed(doc_layers())), cmake_layers())

    def test_every_folder_of_src_is_a_layer(self):
        folders = sorted(d for d in os.listdir(os.path.join(REPO, "src"))
                         if os.path.isdir(os.path.join(REPO, "src", d)))
        self.assertEqual(folders, sorted(cmake_layers()))

    def test_the_tree_as_it_is_passes_the_check(self):
        rc, out, stamped = self.check(os.path.join(REPO, "src"))
        self.assertEqual((rc, out), (0, ""))
        self.assertTrue(stamped)

    def test_an_include_that_points_up_fails_naming_file_line_and_layers(self):
        src = self.tree({
            "learn/rule.h": '#pragma once\n#include "model/schema.h"\n#include "home/clock.h"\n',
            "home/clock.h": "#pragma once\n",
            "model/schema.h": "#pragma once\n",
        })
        rc, out, stamped = self.check(src)
        self.assertEqual(rc, 1)
        self.assertFalse(stamped)
        self.assertIn("learn/rule.h:3: learn includes home/clock.h, of home, a layer above it", out)
        self.assertNotIn("model/schema.h, of model", out)

    def test_a_test_that_includes_a_layer_above_its_code_fails_too(self):
        src = self.tree({"store/raw_log_test.cc": '#include "sim/gen_history.h"\n'})
        rc, out, _ = self.check(src)
        self.assertEqual(rc, 1)
        self.assertIn("store/raw_log_test.cc:1: store includes sim/gen_history.h", out)

    def test_only_store_and_tests_name_the_postgresql_backend(self):
        src = self.tree({
            "store/shared_log.cc": '#include "store/pg/pg_log.h"\n',
            "ingest/store_mirror_test.cc": '#include "store/pg/pg_test_database.h"\n',
            "serve/access.cc": '#include "store/shared_log.h"\n#include "store/pg/pg_log.h"\n',
        })
        rc, out, _ = self.check(src)
        self.assertEqual(rc, 1)
        self.assertIn("serve/access.cc:2: serve includes store/pg/pg_log.h, the PostgreSQL backend",
                      out)
        self.assertEqual(out.count("the PostgreSQL backend"), 1, out)

    def test_a_folder_that_is_no_layer_fails(self):
        src = self.tree({"util/strings.h": "#pragma once\n"})
        rc, out, _ = self.check(src)
        self.assertEqual(rc, 1)
        self.assertIn("a folder that is no layer", out)

    def test_a_public_header_is_the_layer_of_what_implements_it(self):
        ok = self.tree({"base/status.cc": '#include "kaizen/status.h"\n',
                        "ingest/log.cc": '#include "kaizen/event_log.h"\n'})
        self.assertEqual(self.check(ok)[0], 0)
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        up = self.tree({"model/x.cc": '#include "kaizen/event_log.h"\n'})
        rc, out, _ = self.check(up)
        self.assertEqual(rc, 1)
        self.assertIn("model includes kaizen/event_log.h, of ingest", out)

    def test_every_file_the_concept_table_names_exists(self):
        table = doc()[doc().index("## Where each concept lives"):]
        paths = re.findall(r"src/[\w/]+\.(?:h|cc)", table)
        self.assertGreater(len(paths), 30)
        for p in paths:
            self.assertTrue(os.path.exists(os.path.join(REPO, p)), p)


KINDS = "feedback|work|outcome|error|reward|correction|loop|admin|prompt"
# A key written as a string literal: base::Key(w, "x"), w.Key("x"), Field(w, "x", ...), and the
# local helpers that take a key (OptStr, StrList).
LITERAL_KEY = re.compile(r'(?:\bKey\(\s*\w+\s*,\s*|\.Key\(\s*|\b(?:Field|OptStr|StrList)\(\s*\w+\s*,\s*)"(\w+)"')


def field_names():
    """EventField's names (model/event_fields.h): the schema's. ContextField's keys of open objects
    are not checked: answers the same files write share words with them ("skipped", "tests")."""
    with open(os.path.join(REPO, "src", "model", "event_fields.h")) as f:
        text = f.read()
    return set(re.findall(r"X\((\w+)\)", text[:text.index("#define KAIZEN_CONTEXT_FIELDS")]))


def sources():
    """(path relative to src/, text) of every source outside model/ and the tests."""
    root = os.path.join(REPO, "src")
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(folder, name), root)
            if rel.startswith("model/") or name.endswith("_test.cc") or \
                    not name.endswith((".cc", ".h")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                yield rel, f.read()


class EventProducerTest(unittest.TestCase):

    def test_no_source_assembles_an_event_by_hand(self):
        by_hand = re.compile(r'\\"kind\\":\s*\\"(?:%s)\\"|\bKey\(\s*\w+\s*,\s*"kind"\s*\);\s*'
                             r'(?:\w+\.String\(|base::Str\(\s*\w+\s*,\s*)"(?:%s)"' % (KINDS, KINDS))
        found = [rel for rel, text in sources() if by_hand.search(text)]
        self.assertEqual(found, [], "write the kind with model::Kind and the fields through "
                                    "model/event_fields.h")

    def test_a_file_that_writes_events_names_no_field_as_a_literal(self):
        names = field_names()
        self.assertIn("reviewerId", names)
        producers = 0
        for rel, text in sources():
            if not re.search(r"\bmodel::Kind\(|\b(?:EventField|ContextField)::", text):
                continue
            producers += 1
            typed = [f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: \"{m.group(1)}\""
                     for m in LITERAL_KEY.finditer(text) if m.group(1) in names]
            self.assertEqual(typed, [], "use model::EventField")
        # The doors, the hooks, the signals, the checks and the simulators.
        self.assertGreaterEqual(producers, 15)

    def test_the_check_catches_a_field_typed_by_hand(self):
        self.assertTrue(LITERAL_KEY.search('  base::Key(w, "reviewerId");'))
        self.assertTrue(LITERAL_KEY.search('  w_.Key("sessionId").BeginStr();'))
        self.assertTrue(LITERAL_KEY.search('    OptStr(w, "note", a.note);'))
        self.assertFalse(LITERAL_KEY.search("  model::Key(w, EventField::reviewerId);"))


if __name__ == "__main__":
    unittest.main()
