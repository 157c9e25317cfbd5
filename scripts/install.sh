#!/usr/bin/env bash
# Builds Waymark in release and installs `waymark` and `waymark-bench` into PREFIX/bin
# (default /usr/local), with the commit they were built from in PREFIX/share/waymark/commit,
# which `waymark --version` prints. Without root, give a prefix you can write: ~/.local.
#
# Usage: scripts/install.sh [PREFIX]
# WAYMARK_INSTALL_DRY_RUN=1 prints what it would do, building and installing nothing.
set -euo pipefail
products=(waymark waymark-bench)
usage() { echo "usage: scripts/install.sh [PREFIX]   (installs ${products[*]} into PREFIX/bin; default /usr/local)"; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  -*) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "install.sh: one PREFIX at most, got $#" >&2; usage >&2; exit 2; }
prefix=${1:-/usr/local}
[ -n "$prefix" ] || { echo "install.sh: PREFIX is empty" >&2; exit 2; }
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short HEAD 2>/dev/null || true)
if [ -n "$commit" ] && ! git diff --quiet HEAD 2>/dev/null; then commit="$commit, with uncommitted changes"; fi
run() { if [ -n "${WAYMARK_INSTALL_DRY_RUN:-}" ]; then echo "would run: $*"; else "$@"; fi; }
for product in "${products[@]}"; do run swift build -c release --product "$product"; done
bin=$(if [ -n "${WAYMARK_INSTALL_DRY_RUN:-}" ]; then echo .build/release; else swift build -c release --show-bin-path; fi)
if ! run mkdir -p "$prefix/bin" "$prefix/share/waymark" 2>/dev/null; then
  echo "install.sh: cannot create $prefix/bin: run it as root, or give a prefix you can write (scripts/install.sh ~/.local)" >&2
  exit 1
fi
for product in "${products[@]}"; do run install -m 755 "$bin/$product" "$prefix/bin/$product"; done
if [ -n "${WAYMARK_INSTALL_DRY_RUN:-}" ]; then
  echo "would write: $prefix/share/waymark/commit (${commit:-unknown})"
else
  echo "${commit:-unknown}" > "$prefix/share/waymark/commit"
fi
echo "${WAYMARK_INSTALL_DRY_RUN:+would have }installed ${products[*]} into $prefix/bin (commit ${commit:-unknown})"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to your PATH: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
