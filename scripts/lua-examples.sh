#!/usr/bin/env bash
# Writes each ```lua example of README.md and docs/*.md to a file of its own in DIR:
# DIR/scripts/ for those that build a map (waymark.map), DIR/plugins/ for the others.
# Usage: scripts/lua-examples.sh DIR   (scripts/test.sh runs luacheck over them)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/lua-examples.sh DIR}
mkdir -p "$out/scripts" "$out/plugins"
for doc in README.md docs/*.md; do
  awk -v out="$out" -v doc="$(basename "$doc" .md)" '
    /^```lua$/ { inside = 1; n++; text = ""; next }
    /^```$/ && inside {
      inside = 0
      kind = (text ~ /waymark\.map/) ? "scripts" : "plugins"
      file = sprintf("%s/%s/%s_%02d.lua", out, kind, doc, n)
      printf "%s", text > file
      close(file)
      next
    }
    inside { text = text $0 "\n" }
  ' "$doc"
done
