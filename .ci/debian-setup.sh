#!/usr/bin/env bash
# Installs the Debian packages the tests need, when they are missing: Puppet 7.23 (the
# reference engine) and hiera-eyaml (the real eyaml, for tests/eyaml), Neovim and Emacs 28
# with eglot and yaml-mode (the README's editor setups, tests/e2e), and pipx (the README's
# first way to install hiera-ls, tests/install).
#
# Usage: .ci/debian-setup.sh            (idempotent: installs nothing when all are there)
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
need=()
command -v puppet >/dev/null 2>&1 || need+=(puppet-agent)
command -v eyaml >/dev/null 2>&1 || need+=(hiera-eyaml)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v emacs >/dev/null 2>&1 || need+=(emacs-nox)
command -v pipx >/dev/null 2>&1 || need+=(pipx)
for pkg in elpa-eglot elpa-yaml-mode; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "apt-get install ${need[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
