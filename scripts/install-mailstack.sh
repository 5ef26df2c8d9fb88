#!/usr/bin/env bash
# Install the Debian packages the real-mail-stack tests need (Postfix + Dovecot IMAP/LMTP),
# and systemd-analyze, with which a test verifies the shipped unit (systemd/gm-daemon.service).
#
# Idempotent: a quick no-op when every binary is already present. Needs root and apt.
# The system daemons are never configured or started: tests run private instances
# (tests/mailstack/) with configs in a temp dir, so "No configuration" keeps /etc/postfix empty.
set -euo pipefail

have_all() {
    command -v postfix >/dev/null 2>&1 || [ -x /usr/sbin/postfix ] || return 1
    command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || return 1
    [ -x /usr/lib/dovecot/imap ] || return 1
    [ -x /usr/lib/dovecot/lmtp ] || return 1
    command -v openssl >/dev/null 2>&1 || return 1
    command -v systemd-analyze >/dev/null 2>&1 || return 1
}

if have_all; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-mailstack: Postfix/Dovecot missing and not root; install" \
        "dovecot-imapd dovecot-lmtpd postfix systemd by hand" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
# openssl is deliberately not named: listing it would upgrade the system's copy.
packages="dovecot-imapd dovecot-lmtpd postfix"
# The test certificates are made with the openssl CLI: install it only where it is missing.
command -v openssl >/dev/null 2>&1 || packages="$packages openssl"
# systemd-analyze (package systemd) reads unit files without systemd running as PID 1, so it
# works in a container; installed only where missing, like openssl.
command -v systemd-analyze >/dev/null 2>&1 || packages="$packages systemd"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $packages

if ! have_all; then
    echo "install-mailstack: packages installed but a binary is still missing" >&2
    exit 1
fi
