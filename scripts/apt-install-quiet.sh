#!/usr/bin/env bash
# Installs Debian packages for a test that runs its own copy of a server (nginx, redis-server), as root with
# apt-get, without letting their postinst start the system service: policy-rc.d answers "not now" meanwhile.
# Exit code: apt-get's (1 when this is not root or has no apt-get).
set -uo pipefail
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then exit 1; fi
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
restore=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && restore=yes
fi
apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
  { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
status=$?
[ -n "$restore" ] && rm -f "$policy"
exit $status
