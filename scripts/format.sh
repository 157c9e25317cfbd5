#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format (configuration: .swift-format),
# or with --check only reports what it would change.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
if [ "${1:-}" = "--check" ]; then
  swift format lint --recursive Sources Tests Benchmarks Fuzz/Targets Package.swift
else
  swift format --in-place --recursive Sources Tests Benchmarks Fuzz/Targets Package.swift
fi
