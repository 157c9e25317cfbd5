#!/usr/bin/env bash
# Builds one libFuzzer target of Fuzz/Targets and runs it (CONTRIBUTING.md, "Sanitizers and
# fuzzing"):
#
#   scripts/fuzz.sh TARGET [RUNS] [libFuzzer options]   fuzz: RUNS inputs, or until stopped
#   scripts/fuzz.sh TARGET FILE...                      run these inputs once (a crash file)
#
# TARGET is content (the info-window content decoder), script (the script API through the
# runner), trace (the text and JSON trace writers) or repair (the bytecode checks of Lua
# 5.4.4's bugs, against the chunks as Lua compiled them). The targets are built with
# -sanitize=fuzzer,address (the Lua shims with clang's fuzzer-no-link,address) in their own
# build folder, .build-fuzz, with WAYMARK_FUZZ=1 which adds them to the package. A run reads
# the seeds of Fuzz/corpus/TARGET (and, for script, the demos of scripts/) and keeps what it learns in .build-fuzz/corpus/TARGET; a
# crashing input is written to .build-fuzz/artifacts/TARGET/ and fails the run.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
root=$PWD
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

usage() {
  echo "usage: scripts/fuzz.sh content|script|trace|repair [RUNS | FILE...] [libFuzzer options]" >&2
  exit 2
}
target=${1:-}
[ -d "Fuzz/corpus/$target" ] && [ -n "$target" ] || usage
shift
files=()
while [ $# -gt 0 ] && [ -f "$caller/$1" -o -f "$1" ]; do
  files+=("$(cd "$caller" && realpath "$1")")
  shift
done

scripts/setup.sh >/dev/null
WAYMARK_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product "fuzz-$target" \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld
binary=$root/.build-fuzz/release/fuzz-$target

export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0"
# A Swift trap is libFuzzer's crash to report: the runtime's own backtracer would read the
# stack under AddressSanitizer's feet.
export SWIFT_BACKTRACE=enable=no
# The script target's scratch folder: scripts/fuzz.lua's plugins (../plugins) are a copy of
# the shipped ones, and whatever a script writes stays here.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R plugins "$work/plugins"
mkdir -p "$work/scripts" "$root/.build-fuzz/corpus/$target" "$root/.build-fuzz/artifacts/$target"
cd "$work"

# Inputs given: run each once, as libFuzzer does with file arguments.
if [ ${#files[@]} -gt 0 ]; then
  "$binary" "$@" "${files[@]}"
  exit
fi

runs=-1
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  runs=$1
  shift
fi
dictionary=()
[ -f "$root/Fuzz/$target.dict" ] && dictionary=(-dict="$root/Fuzz/$target.dict")
# The script target also starts from the demo scripts themselves (libFuzzer reads every file
# of a seed folder, so they are gathered without the shell scripts beside them).
seeds=("$root/Fuzz/corpus/$target")
if [ "$target" = script ]; then
  mkdir "$work/demos"
  cp "$root"/scripts/*.lua "$work/demos/"
  seeds+=("$work/demos")
fi
"$binary" -runs="$runs" -timeout=30 -rss_limit_mb=2048 -max_len=8192 "${dictionary[@]}" \
  -artifact_prefix="$root/.build-fuzz/artifacts/$target/" "$@" \
  "$root/.build-fuzz/corpus/$target" "${seeds[@]}"
