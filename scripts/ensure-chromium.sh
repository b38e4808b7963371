#!/usr/bin/env bash
# The report render checks need a browser; Playwright's own download is not reachable here, so the
# project installs Debian's Chromium. Runs before `npm test`; a no-op when Chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "ensure-chromium: /usr/bin/chromium is missing; install Debian's chromium package (apt-get install chromium)." >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium for the report render checks…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "ensure-chromium: $(/usr/bin/chromium --version)"
