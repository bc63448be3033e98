#!/usr/bin/env bash
# Installs Puppet 8.10, the second reference engine of the differential tests: Debian 13's
# puppet-agent (with hiera-eyaml and ruby-hocon, which Puppet's eyaml and hocon backends
# load) in a minimal Debian 13 tree, cached outside the repository.  The tests run it in
# a private mount namespace chrooted into that tree (tests/oracle/engines.py).
#
# The tree is built in a scratch directory and moved into place only when complete, so an
# interrupted run never leaves a half-built tree that the tests would trust.
#
# Usage: .ci/puppet8-setup.sh            (idempotent; a warm run takes a second)
# Env:   HIERA_LS_PUPPET8_ROOT           (default ~/.cache/hiera-ls/puppet8)
#        HIERA_LS_DEBIAN_MIRROR          (default http://deb.debian.org/debian)
# Needs root (debootstrap, chroot), as CI runs.
set -euo pipefail

cache="${HIERA_LS_PUPPET8_ROOT:-$HOME/.cache/hiera-ls/puppet8}"
mirror="${HIERA_LS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite="trixie"
packages=(puppet-agent hiera-eyaml ruby-hocon)
stamp_text="debian ${suite} minbase + ${packages[*]}"

say() { printf '== puppet8-setup: %s\n' "$*"; }

if [ "$(head -n1 "$cache/.ready" 2>/dev/null || true)" = "$stamp_text" ]; then
  say "cache is warm: $cache ($(sed -n 2p "$cache/.ready"))"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if ! command -v debootstrap >/dev/null 2>&1; then
  say "apt-get install debootstrap"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

started=$SECONDS
scratch="${cache}.partial"
rm -rf "$scratch"
mkdir -p "$(dirname "$cache")"
log="${scratch}.log"
# quiet unless it fails: then the end of its output says why
quietly() { "$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }; }
say "debootstrap --variant=minbase $suite into $scratch"
quietly debootstrap --variant=minbase "$suite" "$scratch" "$mirror"
cp /etc/resolv.conf "$scratch/etc/resolv.conf"
# this machine's apt proxy, if it has one, for the tree's apt too
apt-config dump 2>/dev/null | grep -iE '^Acquire::https?::Proxy ' >"$scratch/etc/apt/apt.conf.d/01proxy" || true
say "apt-get install ${packages[*]} (in the tree)"
quietly chroot "$scratch" apt-get update -qq
quietly chroot "$scratch" apt-get install -y -qq --no-install-recommends "${packages[@]}"
quietly chroot "$scratch" apt-get clean
rm -f "$log"
rm -rf "$scratch"/var/lib/apt/lists/*
version="$(chroot "$scratch" puppet --version)"
case "$version" in
  8.*) ;;
  *) echo "puppet8-setup: the tree's puppet is $version, not Puppet 8" >&2; exit 1 ;;
esac
printf '%s\nPuppet %s\n' "$stamp_text" "$version" >"$scratch/.ready"
rm -rf "$cache"
mv "$scratch" "$cache"
say "Puppet $version in $cache ($((SECONDS - started)) s)"
