#!/usr/bin/env bash
# ensure-debian-package.sh COMMAND PACKAGE WHAT: a no-op when COMMAND is on PATH (or in /usr/sbin); as root with
# apt-get it installs Debian's PACKAGE, its service kept from starting (the tests run their own, on 127.0.0.1);
# otherwise it says how to get it. It never fails: the tests that need COMMAND skip without it (those that must
# run in CI fail there instead: test/support/installed-tools.ts).
set -uo pipefail
command_name=$1 package=$2 what=$3
for found in "$(command -v "$command_name" 2>/dev/null)" "/usr/sbin/$command_name" "/usr/bin/$command_name"; do
  if [ -n "$found" ] && [ -x "$found" ]; then exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-$package: installing Debian's $package for $what…"
  export DEBIAN_FRONTEND=noninteractive
  policy=/usr/sbin/policy-rc.d
  restore=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && restore=yes
  fi
  if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "$package" >/dev/null; then
    [ -n "$restore" ] && rm -f "$policy"
    exit 0
  fi
  [ -n "$restore" ] && rm -f "$policy"
  echo "ensure-$package: apt-get could not install $package." >&2
fi
echo "ensure-$package: no $command_name found; $what will be skipped. Install your system's $package package (Debian: apt-get install $package)." >&2
exit 0
