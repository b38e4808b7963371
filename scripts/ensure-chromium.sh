#!/usr/bin/env bash
# The report render checks need a Chromium. Runs before `npm test`: a no-op when Playwright's own Chromium or
# the system's is there; as root with apt-get (this project's machines, where Playwright's download is not
# reachable) it installs Debian's chromium; otherwise it says how to get one and the render checks are skipped.
# It never fails: a machine without a browser still runs every other test.
set -uo pipefail
for browser in "$(node -e "console.log(require('@playwright/test').chromium.executablePath())" 2>/dev/null)" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -n "$browser" ] && [ -x "$browser" ]; then exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-chromium: installing Debian's chromium for the report render checks…"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
    echo "ensure-chromium: $(/usr/bin/chromium --version)"
    exit 0
  fi
  echo "ensure-chromium: apt-get could not install chromium." >&2
fi
echo "ensure-chromium: no Chromium found; the report render checks will be skipped (under CI they fail). Run \`npx playwright install chromium\`, or install your system's chromium package, to run them." >&2
exit 0
