#!/usr/bin/env bash
# Runs every test of Waymark: the Swift tests, then the replay's and the live map's tests in
# a real browser (headless Chromium). Installs what it needs first: scripts/setup.sh for the build,
# Debian's lua5.4 and nodejs for the tests that compare with them, Debian's lua-penlight,
# lua-dkjson and lua-inspect for the tests that require them, and for the browser tests
# Debian's chromium and chromium-driver and PyPI's selenium, each only when missing. Arguments go to `swift test` (e.g. --filter DemoTests) and skip the browser tests.
#
# `scripts/test.sh --sanitize address|thread|undefined [ARGS]` runs the Swift tests (only
# those: no luacheck, no browser) built with that sanitizer in its own build folder
# (.build-asan, .build-tsan, .build-ubsan), so the ordinary build is untouched (CONTRIBUTING.md, "Sanitizers and
# fuzzing"). A comma joins sanitizers that work together: `address,undefined` builds once
# (.build-asan-ubsan) for both. A finding fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh

if [ "${1:-}" = --sanitize ]; then
  sanitizers=${2:-}
  shift 2 || shift $#
  flags=()
  scratch=.build
  IFS=, read -ra requested <<<"$sanitizers"
  [ ${#requested[@]} -gt 0 ] || requested=(none)
  for sanitizer in "${requested[@]}"; do
    case "$sanitizer" in
      address | thread)
        flags+=(--sanitize="$sanitizer")
        scratch+=-${sanitizer:0:1}san
        ;;
      undefined)
        # swiftc has no -sanitize=undefined on Linux: the C targets (the Lua shims) are
        # instrumented by clang, stop at the first finding, and clang links the runtime.
        flags+=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
          -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
        scratch+=-ubsan
        ;;
      *)
        echo "usage: scripts/test.sh --sanitize address|thread|undefined[,...] [swift test arguments]" >&2
        exit 2
        ;;
    esac
  done
  # Leaks: only the documented ones of the toolchain's libraries are suppressed, each with why.
  export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0"
  # allow_user_segv_handler: a test child that resets SIGSEGV to its default must die of it.
  export ASAN_OPTIONS="detect_leaks=1:allow_user_segv_handler=1"
  # die_after_fork=0: `waymark test -j N` forks its workers from a single-threaded process
  # (Sources/waymark/Test/ChildProcess.swift); ThreadSanitizer's own background thread makes
  # it count as multi-threaded and would kill every worker that then starts a thread.
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:die_after_fork=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  # Tests whose plugins run under a wall-clock budget give them 8 times longer: a sanitizer
  # build runs several times slower (Tests/WaymarkScriptingTests/Support/PluginTestSupport.swift).
  export WAYMARK_TEST_TIME_SCALE=${WAYMARK_TEST_TIME_SCALE:-8}
  swift build --build-tests --scratch-path "$scratch" "${flags[@]}"
  swift test --skip-build --disable-xctest --scratch-path "$scratch" "${flags[@]}" "$@"
  exit 0
fi

# luacheck with the shipped .luacheckrc (the sandbox's globals): plugins/, scripts/ and the
# Lua examples of the docs must be clean. Debian's lua-check, installed when missing.
if ! command -v luacheck >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq lua-check >/dev/null
fi
# genhtml (Debian's lcov) for the test that checks `waymark test --coverage` writes what it reads.
if ! command -v genhtml >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq lcov >/dev/null
fi
# The reference interpreter the differential tests compare the sandbox with
# (Tests/WaymarkScriptingTests/Sandbox/ReferenceLua.swift): Debian's lua5.4.
if [ ! -x /usr/bin/lua5.4 ]; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq lua5.4 >/dev/null
fi
# Node.js, which runs the replay page's drawing module against the SVG of the same scene
# (Tests/WaymarkRenderTests/SceneDrawingTests.swift): Debian's nodejs.
if [ ! -x /usr/bin/node ]; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq nodejs >/dev/null
fi
# Debian's pure-Lua libraries that the tests require through a module root, unmodified
# (Tests/WaymarkScriptingTests/Sandbox/LoadTimeLibrariesTests.swift): lua-penlight, lua-dkjson
# and lua-inspect (which Debian 12 installs for Lua 5.1 to 5.3 only, in /usr/share/lua/5.1).
libraries=()
[ -f /usr/share/lua/5.4/pl/pretty.lua ] || libraries+=(lua-penlight)
[ -f /usr/share/lua/5.4/dkjson.lua ] || libraries+=(lua-dkjson)
[ -f /usr/share/lua/5.1/inspect.lua ] || libraries+=(lua-inspect)
if [ ${#libraries[@]} -gt 0 ]; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${libraries[@]}" >/dev/null
fi
# busted itself, whose counts the busted-language tests compare with
# (Tests/WaymarkCLITests/BustedSuiteTests.swift): Debian's lua-busted.
if ! command -v busted >/dev/null 2>&1; then
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq lua-busted >/dev/null
fi
examples=$(mktemp -d)
trap 'rm -rf "$examples"' EXIT
scripts/lua-examples.sh "$examples"
luacheck --no-color -q plugins scripts tests
luacheck --no-color -q --std waymark_plugin "$examples/plugins"
luacheck --no-color -q --std waymark_script "$examples/scripts"
luacheck --no-color -q --std waymark_test "$examples/tests"
# The files the tutorial names, where it saves them, with the shipped .luacheckrc as it is.
cp .luacheckrc "$examples/project/"
(cd "$examples/project" && luacheck --no-color -q .)
# The example project (examples/store_locator), with the shipped .luacheckrc as it is; its tests
# and scenario run in the Swift tests (StoreLocatorExampleTests).
cp -R examples/store_locator "$examples/store_locator"
cp .luacheckrc "$examples/store_locator/"
(cd "$examples/store_locator" && luacheck --no-color -q .)
# ...and with it luacheck catches io.open (the sandbox's io only writes), a global shared between functions and a missing
# `return plugin` (three of the broken plugins of Tests/WaymarkCLITests/Fixtures/broken).
broken=Tests/WaymarkCLITests/Fixtures/broken
caught=$(luacheck --no-color --formatter plain "$broken/reads_file.lua" "$broken/leaky_counter.lua" "$broken/no_return.lua" || true)
for expected in "reads_file.lua:4:16: accessing undefined field 'open' of global 'io'" \
  "leaky_counter.lua:4:3: setting non-standard global variable 'taps'" \
  "no_return.lua:1:7: variable 'plugin' is mutated but never accessed"; do
  grep -qF "$expected" <<<"$caught" || { echo "test.sh: luacheck did not report: $expected" >&2; exit 1; }
done
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
[ $# -eq 0 ] || exit 0

# The API documentation of every library product, built with DocC: a broken link fails.
docs=$(mktemp -d)
scripts/docs.sh "$docs"
rm -rf "$docs"

# The browser tests' tools.
needed=()
command -v chromium >/dev/null 2>&1 || needed+=(chromium)
command -v chromedriver >/dev/null 2>&1 || needed+=(chromium-driver)
if [ ${#needed[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  echo "test: installing ${needed[*]} with apt-get"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${needed[@]}" >/dev/null
fi
if ! python3 -c "import selenium" 2>/dev/null; then
  echo "test: installing selenium with pip"
  python3 -m pip install --quiet selenium 2>/dev/null || python3 -m pip install --quiet --break-system-packages selenium
fi
for test in Tests/Browser/test_*.py; do python3 "$test" .build/debug/waymark; done
