#!/usr/bin/env bash
# Installs the system packages Waymark needs (Lua 5.4, GNU libmicrohttpd and libedit
# development files, pkg-config) when they are missing. Idempotent: a second run changes nothing.
set -euo pipefail

needed=()
pkg-config --exists lua5.4 2>/dev/null || needed+=(liblua5.4-dev)
pkg-config --exists libmicrohttpd 2>/dev/null || needed+=(libmicrohttpd-dev)
pkg-config --exists libedit 2>/dev/null || needed+=(libedit-dev)
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)

if [ ${#needed[@]} -eq 0 ]; then
  echo "setup: liblua5.4-dev, libmicrohttpd-dev, libedit-dev and pkg-config are already installed; nothing to do."
else
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "setup: need root (or sudo) to install: ${needed[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${needed[*]} with apt-get"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${needed[@]}" >/dev/null
  echo "setup: installed ${needed[*]}"
fi

command -v swift >/dev/null 2>&1 || [ -x /opt/swift/usr/bin/swift ] || {
  echo "setup: the Swift toolchain (6.0 or later) is not on PATH" >&2
  exit 1
}
echo "setup: Lua $(pkg-config --modversion lua5.4), libmicrohttpd $(pkg-config --modversion libmicrohttpd) and libedit $(pkg-config --modversion libedit) found through pkg-config"
