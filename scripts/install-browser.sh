#!/usr/bin/env bash
# Install Debian's Chromium for the static-site browser test (tests/site/test_browser.py),
# as install-mailstack.sh installs Postfix and Dovecot.
#
# Idempotent: a quick no-op when chromium is present. Never fails the test run: without root
# or apt the browser test skips and names this script as the way to get it.
set -uo pipefail

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: chromium missing and not root (or no apt); the browser test" \
        "will skip; install the Debian package chromium by hand" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core \
    || { apt-get update -q && apt-get install -y -q --no-install-recommends chromium \
        fonts-dejavu-core; } \
    || echo "install-browser: installing chromium failed; the browser test will skip" >&2
exit 0
