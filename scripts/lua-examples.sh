#!/usr/bin/env bash
# Writes each ```lua example of README.md and docs/*.md to a file of its own in DIR:
# DIR/tests/ for those that are tests (they call it, describe, case, at or an expect_), DIR/scripts/ for those
# that build a map (waymark.map), DIR/plugins/ for the others; and an
# example whose first line names its file (`-- my_plugins/first.lua`, as the README's tutorial
# does) also to DIR/project/<that path>, where a reader saves it.
# Usage: scripts/lua-examples.sh DIR   (scripts/test.sh runs luacheck over them)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/lua-examples.sh DIR}
mkdir -p "$out/tests" "$out/scripts" "$out/plugins"
for doc in README.md docs/*.md; do
  awk -v out="$out" -v doc="$(basename "$doc" .md)" '
    /^```lua$/ { inside = 1; n++; text = ""; next }
    /^```$/ && inside {
      inside = 0
      kind = (text ~ /(^|\n)[ ]*(it|describe|case|at|expect_[a-z_]+)[ (]/) ? "tests" : (text ~ /waymark\.map/) ? "scripts" : "plugins"
      file = sprintf("%s/%s/%s_%02d.lua", out, kind, doc, n)
      printf "%s", text > file
      close(file)
      if (match(text, /^-- [A-Za-z0-9_.\/-]+\.lua\n/)) {
        path = out "/project/" substr(text, 4, RLENGTH - 4)
        dir = path; sub(/\/[^\/]*$/, "", dir)
        system("mkdir -p \"" dir "\"")
        printf "%s", text > path
        close(path)
      }
      next
    }
    inside { text = text $0 "\n" }
  ' "$doc"
done
