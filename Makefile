# kaizen: `make demo` and `make test` are the two commands a fresh Debian machine needs.
JOBS      ?= 2
BUILD     ?= build
ASAN      ?= build-asan
TSAN      ?= build-tsan
BENCHDIR  ?= build-bench
FUZZ_SECONDS ?= 90

# Every Debian package a make target needs; `deps` installs the missing ones.
DEB_PACKAGES := cmake make g++ clang libclang-rt-14-dev pkg-config python3 jq \
  libsimdjson-dev libcli11-dev libfmt-dev rapidjson-dev libsodium-dev libre2-dev \
  libgtest-dev libgmock-dev libgit2-dev libpugixml-dev libboost-dev libabsl-dev \
  libmimalloc-dev libcereal-dev libtomlplusplus-dev llvm git postgresql libpq-dev dpkg-dev zsh
BENCH_PACKAGES := libbenchmark-dev nlohmann-json3-dev hyperfine wrk libcpp-httplib-dev

# The release binary is built with clang: on the analysis of 1M events it ran 8-15% faster than
# the same code from GCC 12, with byte-identical output (docs/performance.md, "Compiler").
RELEASE_CXX ?= clang++
# Profile-guided optimization of the release binary: an instrumented kaizen in $(PGO_DIR) imports
# and analyzes a generated history (cmake/pgo_train.sh), and build/ is compiled with its profile
# (docs/performance.md, "Compiler"). The profile is made once per $(PGO_DIR): `make clean` makes
# a new one.
# PGO=0 builds without it. `make test` checks behaviour, which the profile does not change, so it
# builds without one unless told otherwise (the instrumented build and its training were a fifth of
# its time).
ifneq ($(filter test,$(MAKECMDGOALS)),)
PGO ?= 0
endif
PGO ?= 1
PGO_DIR ?= build-pgo
PGO_PROFILE := $(CURDIR)/$(PGO_DIR)/kaizen.profdata
RELEASE_COMPILER := -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(RELEASE_CXX)
RELEASE_FLAGS := $(RELEASE_COMPILER)
ifeq ($(PGO),1)
RELEASE_FLAGS += -DKAIZEN_PGO_PROFILE=$(PGO_PROFILE)
RELEASE_PROFILE := $(PGO_PROFILE)
else
RELEASE_FLAGS += -DKAIZEN_PGO_PROFILE=
RELEASE_PROFILE :=
endif

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps deps-bench js-deps build install deb demo test unit integration asan tsan fuzz bench bench-themes bench-hook bench-agents bench-pg format clean

all: build

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

deps-bench: deps
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

# The JavaScript test clients (tests/js/package.json: the official MCP SDK client): Node.js and
# npm from Debian when the machine has none, then the locked packages from the npm registry.
# The npm test clients (MCP SDK, playwright-core) and the browser they drive: Debian's Chromium
# (playwright-core never downloads one of its own).
js-deps:
	@command -v npm >/dev/null || { echo "installing Debian packages: nodejs npm"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q nodejs npm; }
	@[ -x /usr/bin/chromium ] || { echo "installing Debian package: chromium"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium; }
	@[ -d tests/js/node_modules ] && [ tests/js/node_modules/.package-lock.json -nt tests/js/package-lock.json ] || \
	  npm ci --prefix tests/js --no-audit --no-fund

$(PGO_PROFILE): | deps
	cmake -S . -B $(PGO_DIR) $(RELEASE_COMPILER) -DKAIZEN_PGO_GENERATE=ON >/dev/null
	cmake --build $(PGO_DIR) -j$(JOBS) --target kaizen
	bash cmake/pgo_train.sh $(PGO_DIR)/kaizen $@

build: deps $(RELEASE_PROFILE)
	cmake -S . -B $(BUILD) $(RELEASE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

# `make install [PREFIX=/usr/local] [DESTDIR=...]`: kaizen, kaizen-git, bash and zsh completions,
# the docs.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# `make deb`: $(BUILD)/kaizen.deb (CPack), the same files under /usr, its Depends from the libraries
# the programs link (dpkg-shlibdeps).
deb: build
	cd $(BUILD) && rm -f kaizen_*.deb && cpack -G DEB >/dev/null && cp kaizen_*.deb kaizen.deb
	@echo "built $(BUILD)/kaizen.deb"

# The demo builds only what it runs (kaizen and kaizen-git), unoptimized (a release build's
# semantics, NDEBUG, at -O0), in a directory of its own:
# on 2 cores the optimizer is most of a build's time (-O3 and -O1 took 9-10 minutes, -O0 under 6;
# docs/performance.md, "Build time"), and the demo's 5,000 events take seconds either way.
# `make build` makes the optimized, profile-guided binary for everyday use.
DEMO_DIR ?= build-demo
demo: deps
	cmake -S . -B $(DEMO_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(RELEASE_CXX) \
	  "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" -DKAIZEN_PGO_PROFILE= >/dev/null
	cmake --build $(DEMO_DIR) -j$(JOBS) --target kaizen kaizen-git
	./$(DEMO_DIR)/kaizen demo --home ./.kaizen
	@echo "make demo: ./$(DEMO_DIR)/kaizen is unoptimized, for the demo; make build makes the one to use"

# Tests of the PostgreSQL store need a real server: the test suites run inside a throwaway cluster
# from Debian's packages (tests/pg_cluster.py: a temporary directory, a free port of 127.0.0.1,
# removed afterwards; as an unprivileged user, because CI runs as root and PostgreSQL refuses to),
# named by $KAIZEN_TEST_PG. A KAIZEN_TEST_PG already set (a developer's own server) is used instead.
PG_CLUSTER := python3 $(CURDIR)/tests/pg_cluster.py run --

# The unit tests are not part of `make build`: `unit` builds them.
unit: build
	cmake --build $(BUILD) -j$(JOBS) --target kaizen_tests
	cd $(BUILD) && $(PG_CLUSTER) ctest --output-on-failure -j$(JOBS)

integration: build deb js-deps
	KAIZEN_BIN=$(CURDIR)/$(BUILD)/kaizen KAIZEN_DEB=$(CURDIR)/$(BUILD)/kaizen.deb $(PG_CLUSTER) \
	  python3 tests/integration/run_all.py

# The unit tests under AddressSanitizer and UndefinedBehaviorSanitizer, and the fuzzers, from one
# build (clang): the library is compiled once with coverage for libFuzzer and ASan/UBSan for both,
# instead of once for each (a third of `make test`'s time was builds). Sanitized, one process per
# test spent most of its time starting (0.8 s each: 1,150 tests took 9 minutes, as shards 30 s), so
# the sanitizer suites run as $(JOBS) shards of one process each (cmake/run_shards.sh); `unit`
# keeps one process per test.
# Both sanitizer builds unoptimized, with line tables only: what the sanitizers need for their
# reports (file:line in every frame). On 2 cores the optimizer was most of each build (at -O1 the
# ASan build took 17 minutes of `make test`); the suites themselves run in seconds either way.
SANITIZER_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DKAIZEN_PGO_PROFILE= \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -gline-tables-only -DNDEBUG"
SANITIZED_CONFIG = cmake -S . -B $(ASAN) $(SANITIZER_FLAGS) -DKAIZEN_FUZZ=ON >/dev/null
asan: deps
	$(SANITIZED_CONFIG)
	cmake --build $(ASAN) -j$(JOBS) --target kaizen_tests
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/cmake/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  $(PG_CLUSTER) bash $(CURDIR)/cmake/run_shards.sh ./kaizen_tests $(JOBS)

# The unit tests again under ThreadSanitizer (clang: libclang-rt ships its runtime): the ingest
# pipeline prepares lines on every core while a thread commits, the log is read in slices on every
# core, the server answers on several threads.
tsan: deps
	cmake -S . -B $(TSAN) $(SANITIZER_FLAGS) -DKAIZEN_TSAN=ON >/dev/null
	cmake --build $(TSAN) -j$(JOBS) --target kaizen_tests
	cd $(TSAN) && TSAN_OPTIONS=halt_on_error=1 \
	  $(PG_CLUSTER) bash $(CURDIR)/cmake/run_shards.sh ./kaizen_tests $(JOBS)

# Every parser has a libFuzzer target fuzz/<name>_fuzz.cc, seeded from fuzz/corpus_<name> (ingest:
# fuzz/corpus). FUZZ_SECONDS in all, shared equally; a crash input lands in $(ASAN)/<name>-crash-*.
FUZZ_TARGETS := ingest learn config checks privacy report git_commit_text jsonrpc http_query line_source github hook ingest_index pg_copy access questions training
fuzz: deps
	$(SANITIZED_CONFIG)
	cmake --build $(ASAN) -j$(JOBS) --target $(addsuffix _fuzz,$(FUZZ_TARGETS))
	@set -e; for t in $(FUZZ_TARGETS); do \
	  seeds=fuzz/corpus_$$t; [ $$t = ingest ] && seeds=fuzz/corpus; \
	  len=4096; [ $$t = learn ] && len=12288; [ $$t = github ] && len=32768; [ $$t = hook ] && len=16384; \
	  mkdir -p $(ASAN)/corpus_$$t; cp $$seeds/* $(ASAN)/corpus_$$t/ 2>/dev/null || true; \
	  echo "fuzz: $$t for $$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) )) s"; \
	  ./$(ASAN)/$${t}_fuzz -max_total_time=$$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) )) \
	    -max_len=$$len -timeout=10 -artifact_prefix=$(ASAN)/$$t- -dict=fuzz/json.dict \
	    $(ASAN)/corpus_$$t 2>$(ASAN)/$$t.log || { tail -40 $(ASAN)/$$t.log; exit 1; }; \
	  tail -1 $(ASAN)/$$t.log; \
	done

# integration, the unit tests under ASan+UBSan and under TSan, then a bounded fuzz run. The unit
# tests run in the two sanitizer builds only: a third run, optimized and unchecked, found nothing
# they miss and cost a compile of every test file (`make unit` is that run, for a quick check).
test: integration asan tsan fuzz
	@echo "make test: all suites passed"

bench: deps-bench $(RELEASE_PROFILE)
	cmake -S . -B $(BENCHDIR) $(RELEASE_FLAGS) -DKAIZEN_BENCH=ON >/dev/null
	cmake --build $(BENCHDIR) -j$(JOBS)
	bash bench/run.sh $(BENCHDIR)

# Precision and recall of the shipped themes on 1,828 hand-labelled review comments
# (../shared/realdata/review-comments; docs/knowledge.md, Themes). Also part of `make bench`.
bench-themes: build
	python3 bench/review_themes_eval.py --bin $(BUILD)/kaizen

# Latency of the calls an agent's hooks make, on homes of 10,000 and 1,000,000 events, beside a
# bare process start (bench/hook_latency.py; issue 28's targets).
bench-hook: build
	python3 bench/hook_latency.py --bin $(BUILD)/kaizen

# Each hook as a real agent waits for it: the real Claude Code (tests/js) in sessions on a home of
# 1,000,000 events, wall time around every `kaizen hook` (bench/agent_session_latency.py; issue 42).
bench-agents: build js-deps
	python3 bench/agent_session_latency.py --bin $(BUILD)/kaizen

# The file store beside the PostgreSQL store: durable ingest through serve, a fold of 1,000,000
# events read from the store, how soon a second server sees an event (bench/pg_store.py, in a
# throwaway cluster of tests/pg_cluster.py; issue 30's targets).
bench-pg: build
	python3 bench/pg_store.py --bin $(BUILD)/kaizen

format:
	clang-format -i $$(git ls-files '*.h' '*.cc')

clean:
	rm -rf $(BUILD) $(ASAN) $(TSAN) $(BENCHDIR) $(PGO_DIR) $(DEMO_DIR)
