#!/usr/bin/env bash
# Runs every test of Waymark: the Swift tests, then the replay's and the live map's tests in
# a real browser (headless Chromium). Installs what it needs first: scripts/setup.sh for the build, and for
# the browser tests Debian's chromium and chromium-driver and PyPI's selenium, each only when
# missing. Arguments go to `swift test` (e.g. --filter DemoTests) and skip the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh

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
examples=$(mktemp -d)
trap 'rm -rf "$examples"' EXIT
scripts/lua-examples.sh "$examples"
luacheck --no-color -q plugins scripts
luacheck --no-color -q --std waymark_plugin "$examples/plugins"
luacheck --no-color -q --std waymark_script "$examples/scripts"
# ...and with it luacheck catches io, a global shared between functions and a missing
# `return plugin` (three of the broken plugins of Tests/WaymarkCLITests/Fixtures/broken).
broken=Tests/WaymarkCLITests/Fixtures/broken
caught=$(luacheck --no-color --formatter plain "$broken/reads_file.lua" "$broken/leaky_counter.lua" "$broken/no_return.lua" || true)
for expected in "reads_file.lua:4:16: accessing undefined variable 'io'" \
  "leaky_counter.lua:4:3: setting non-standard global variable 'taps'" \
  "no_return.lua:1:7: variable 'plugin' is mutated but never accessed"; do
  grep -qF "$expected" <<<"$caught" || { echo "test.sh: luacheck did not report: $expected" >&2; exit 1; }
done
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
[ $# -eq 0 ] || exit 0

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
