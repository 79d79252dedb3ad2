"""The documentation generated from the code stays in step with it."""
import os
import unittest

import kzlib


class GeneratedDocs(unittest.TestCase):
    def test_event_model_doc_is_what_kaizen_schema_prints(self):
        result = kzlib.kaizen("schema")
        self.assertEqual(result.rc, 0, result.err)
        with open(os.path.join(kzlib.REPO, "docs", "event-model.md"), encoding="utf-8") as f:
            self.assertEqual(
                f.read(), result.out,
                "docs/event-model.md is stale: regenerate it with `kaizen schema > docs/event-model.md`")


if __name__ == "__main__":
    unittest.main()
