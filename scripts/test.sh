#!/usr/bin/env bash
# Runs every test of Waymark. Installs what it needs first (scripts/setup.sh).
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
examples=$(mktemp -d)
trap 'rm -rf "$examples"' EXIT
scripts/lua-examples.sh "$examples"
luacheck --no-color -q plugins scripts
luacheck --no-color -q --std waymark_plugin "$examples/plugins"
luacheck --no-color -q --std waymark_script "$examples/scripts"
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
