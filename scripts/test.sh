#!/usr/bin/env bash
# Runs every test of Waymark. Installs what it needs first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

scripts/setup.sh
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
