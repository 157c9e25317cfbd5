#!/usr/bin/env bash
# Builds the API documentation of each library product with the toolchain's DocC, from its
# catalog (Sources/MODULE/MODULE.docc: a landing page, the main types, articles) and the
# module's public symbols, into OUT (default .build/docs): one MODULE.doccarchive each.
# A warning (a broken link, an undocumented parameter) fails the build: scripts/test.sh runs
# it, so CI does. Uses the debug build's modules (it builds first, incrementally).
#
#   scripts/docs.sh [OUT]
#   (to browse an archive: docc preview Sources/WaymarkCore/WaymarkCore.docc ...; or serve
#   OUT/WaymarkCore.doccarchive with any static file server)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
out=${1:-.build/docs}
modules=(WaymarkCore WaymarkScripting WaymarkScenarios WaymarkTesting WaymarkRender WaymarkServe)

swift build >/dev/null
bin=$(swift build --show-bin-path)
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
mkdir -p "$out"
status=0
for module in "${modules[@]}"; do
  mkdir -p "$graphs/$module"
  # The C modules' maps: the shim's is generated into the build folder, the others are ours.
  swift-symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" \
    -I "$bin/Modules" -I "$bin/CLuaShims.build" -I Sources/CLua -I Sources/CMicroHTTPD \
    -I Sources/CEditLine -I /usr/include/lua5.4 \
    -minimum-access-level public -output-dir "$graphs/$module"
  if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "dev.waymark.$module" \
    --output-path "$out/$module.doccarchive" --warnings-as-errors; then
    echo "docs: $module has warnings (above)" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "docs: ${#modules[@]} archives in $out, no warnings"
exit $status
