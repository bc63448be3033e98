#!/usr/bin/env bash
# PuppetDB for the tests of `hiera-ls facts pull` and the fleet (tests/puppetdb): Debian 12's
# PuppetDB 7.12.1 with a JRE, and PostgreSQL 15's server binaries. The tests start their own
# scratch PostgreSQL cluster and PuppetDB on loopback; nothing here starts a service.
#
# Debian ships PuppetDB's Clojure as source, compiled at every start (about a minute). This
# compiles it once into ~/.cache/hiera-ls/puppetdb/aot-KEY (KEY: the installed versions of
# PuppetDB and its Clojure libraries), where tests/puppetdb/service.py finds it: PuppetDB
# then answers in about 25 s. Downloaded packages are kept in ~/.cache/hiera-ls/apt.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
cache="${XDG_CACHE_HOME:-$HOME/.cache}/hiera-ls"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

need=()
installed puppetdb || need+=(puppetdb dbconfig-no-thanks default-jre-headless)
if ! installed postgresql-15; then
  apt-cache policy postgresql-15 | grep -q 'Candidate: [0-9]' || {
    echo "postgresql-15 is not available from apt (apt-cache policy postgresql-15)" >&2
    exit 1
  }
  need+=(postgresql-15)
fi
if [ ${#need[@]} -gt 0 ]; then
  mkdir -p "$cache/apt/partial"
  apt-get update -qq
  # dbconfig-no-thanks: the package must not try to configure a database of its own
  apt-get install -y -qq --no-install-recommends -o Dir::Cache::Archives="$cache/apt" \
    "${need[@]}" >/dev/null
fi

key=$(dpkg-query -W -f='${Package} ${Version}\n' | awk '$1 ~ /clojure/ || $1 == "puppetdb"' |
  LC_ALL=C sort | sha256sum | cut -c1-16)
aot="$cache/puppetdb/aot-$key"
if [ ! -f "$aot/complete" ]; then
  echo "compiling PuppetDB's Clojure once into $aot (about a minute)"
  rm -rf "$aot" && mkdir -p "$aot"
  namespaces=$(sed -n 's|^\([a-z][a-z0-9.-]*\)/.*|\1|p' /etc/puppetdb/bootstrap.cfg | sort -u | tr '\n' ' ')
  java -Xmx768m -XX:TieredStopAtLevel=1 -Dclojure.compile.path="$aot" \
    -cp "$aot:/usr/share/puppetdb/puppetdb.jar" clojure.main \
    -e "(doseq [n '[puppetlabs.puppetdb.core $namespaces]] (compile n))" >/dev/null
  touch "$aot/complete"
fi
echo "PuppetDB $(dpkg-query -W -f='${Version}' puppetdb), compiled in $aot"
