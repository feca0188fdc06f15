#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (tests/browser).
# Idempotent and silent when /usr/bin/chromium is already there. Needs root (or sudo)
# the first time; Playwright drives this binary, we never run `playwright install`.
set -euo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "ensure_chromium: $CHROMIUM is missing and this user cannot install packages;" >&2
    echo "ensure_chromium: run 'apt-get update && apt-get install -y chromium' as root." >&2
    exit 1
fi

echo "ensure_chromium: installing Debian's chromium package (once)..." >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null

if [ ! -x "$CHROMIUM" ]; then
    echo "ensure_chromium: chromium installed but $CHROMIUM is not there" >&2
    exit 1
fi
echo "ensure_chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) ready" >&2
