"""Installed like a tool (issue 31 item 6): `make install`'s files, the `.deb`, `--version`, the
shared options before the verb, bash and zsh completion.

The install is `cmake --install` of the build the binary under test comes from (what `make
install` runs) into a temporary prefix. The package is $KAIZEN_DEB (`make deb`, which `make
integration` builds first): installed with dpkg when the test runs as root on a machine where
no kaizen package is installed (CI), removed afterwards; otherwise unpacked and run from there.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

from kzlib import BIN, EXIT_OK, EXIT_USAGE, KaizenTest, jsonl, kaizen, strict_loads, work_event

BUILD = os.path.dirname(BIN)
DEB = os.environ.get("KAIZEN_DEB", os.path.join(BUILD, "kaizen.deb"))


def version():
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..",
                           "CMakeLists.txt")) as f:
        for line in f:
            if line.startswith("project(kaizen VERSION "):
                return line.split()[2]
    raise AssertionError("no project version in CMakeLists.txt")


def bash_complete(script, *words):
    """What `kaizen WORDS<TAB>` offers, the last word being the one completed."""
    words_sh = " ".join(f"'{w}'" for w in ("kaizen",) + words)
    program = (f"source '{script}'; COMP_WORDS=({words_sh}); COMP_CWORD={len(words)}; "
               "_kaizen; printf '%s\\n' \"${COMPREPLY[@]}\"")
    r = subprocess.run(["bash", "--norc", "-c", program], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.splitlines() if w]


class VersionAndOptionsTest(KaizenTest):
    def test_version_prints_the_projects_version(self):
        r = kaizen("--version")
        self.assertEqual((r.rc, r.out), (EXIT_OK, f"kaizen {version()}\n"))

    def test_shared_options_may_come_before_the_verb(self):
        r = kaizen("--home", self.home, "--now", "2025-07-10T12:00:00Z", "record", "work",
                   input=jsonl(work_event()))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = kaizen("--json", f"--home={self.home}", "stats")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(strict_loads(r.out)["events"], 1)
        # A verb that does not take the option still refuses it, by name.
        r = kaizen("--json", "--home", self.home, "gen", "--events", "1")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("--json", r.err)


class InstallTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.prefix = tempfile.mkdtemp(prefix="kaizen-install-")
        r = subprocess.run(["cmake", "--install", BUILD, "--prefix", cls.prefix],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.prefix, ignore_errors=True)

    def test_make_install_puts_both_programs_completions_and_docs_under_the_prefix(self):
        for path in ("bin/kaizen", "bin/kaizen-git"):
            self.assertTrue(os.access(os.path.join(self.prefix, path), os.X_OK), path)
        for path in ("share/bash-completion/completions/kaizen",
                     "share/zsh/vendor-completions/_kaizen", "share/doc/kaizen/README.md"):
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, path)), path)
        r = subprocess.run([os.path.join(self.prefix, "bin", "kaizen"), "--version"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.stdout, f"kaizen {version()}\n")
        # The installed kaizen finds its installed sibling.
        r = subprocess.run([os.path.join(self.prefix, "bin", "kaizen"), "git", "--help"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("scan", r.stdout)

    def test_bash_completes_verbs_sub_verbs_options_and_files(self):
        script = os.path.join(self.prefix, "share/bash-completion/completions/kaizen")
        self.assertEqual(bash_complete(script, "tok"), ["token"])
        self.assertEqual(bash_complete(script, "token", "cr"), ["create"])
        self.assertIn("--role", bash_complete(script, "token", "create", "--"))
        self.assertEqual(bash_complete(script, "rules", "--pro"), ["--project"])
        self.assertEqual(bash_complete(script, "re"),
                         ["record", "rebuild", "render", "reward", "review"])
        # A value of --home is a path.
        here = tempfile.mkdtemp(prefix="kzcomp-", dir=self.prefix)
        os.mkdir(os.path.join(here, "myhome"))
        self.assertEqual(bash_complete(script, "stats", "--home", os.path.join(here, "myh")),
                         [os.path.join(here, "myhome")])

    def test_zsh_loads_the_completion_and_completes_a_verb(self):
        if shutil.which("zsh") is None:
            self.fail("zsh is not installed: run `make deps`")
        script = os.path.join(self.prefix, "share/zsh/vendor-completions/_kaizen")
        # As zsh's bashcompinit runs it: compgen -F, under sh emulation (arrays from 0), with
        # COMP_WORDS and COMP_CWORD set from the line as _bash_complete sets them.
        program = (f"autoload -U compinit && compinit -u -D; source '{script}'; "
                   "words=(kaizen token cr); CURRENT=3; COMP_WORDS=(\"${words[@]}\"); "
                   "COMP_CWORD=$((CURRENT - 1)); compgen -F _kaizen -- cr")
        r = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True,
                           timeout=60, env=dict(os.environ, HOME=self.prefix))
        self.assertEqual(r.returncode, 0, r.stderr)
        # zsh's compgen leaves matching the word typed to zsh: token's sub-verbs, all three.
        self.assertEqual(r.stdout.split(), ["create", "list", "revoke"])


class DebTest(unittest.TestCase):
    def setUp(self):
        if not os.path.isfile(DEB):
            self.fail(f"no package at {DEB}: run `make deb`")

    def field(self, name):
        return subprocess.run(["dpkg-deb", "-f", DEB, name], capture_output=True, text=True,
                              check=True).stdout.strip()

    def test_the_package_names_its_runtime_libraries(self):
        self.assertEqual(self.field("Package"), "kaizen")
        self.assertEqual(self.field("Version"), version())
        depends = self.field("Depends")
        for library in ("libpq5", "libsodium23", "libgit2", "libsimdjson", "libmimalloc"):
            self.assertIn(library, depends)

    def test_the_package_installs_and_runs(self):
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "kaizen"],
                                   capture_output=True, text=True)
        if os.geteuid() == 0 and "installed" not in installed.stdout:
            r = subprocess.run(["dpkg", "-i", DEB], capture_output=True, text=True, timeout=300)
            self.addCleanup(subprocess.run, ["dpkg", "-r", "kaizen"], capture_output=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            root = "/"
        else:  # someone's machine: unpacked, not installed
            root = tempfile.mkdtemp(prefix="kaizen-deb-")
            self.addCleanup(shutil.rmtree, root, True)
            subprocess.run(["dpkg-deb", "-x", DEB, root], check=True)
        kz = os.path.join(root, "usr", "bin", "kaizen")
        r = subprocess.run([kz, "--version"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.stdout, f"kaizen {version()}\n", r.stderr)
        home = tempfile.mkdtemp(prefix="kaizen-deb-home-")
        self.addCleanup(shutil.rmtree, home, True)
        r = subprocess.run([kz, "--home", home, "record", "work"], input=jsonl(work_event()),
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, EXIT_OK, r.stderr)
        self.assertTrue(os.path.isfile(os.path.join(root, "usr/share/bash-completion/"
                                                          "completions/kaizen")))


if __name__ == "__main__":
    unittest.main()
