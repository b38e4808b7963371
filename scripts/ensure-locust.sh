#!/usr/bin/env bash
# The Locust engine's tests (test/load/engine-locust.spec.ts) run Locust for real. Runs before `npm test`:
# a no-op when Locust is found where `load --engine locust` looks ($PETSTORE_LOCUST, PATH, /usr/bin, the
# package's cache); else `pip install locust` into that cache, and as root with apt-get (this project's
# machines, where PyPI is not reachable) Debian's python3-locust. Users of the package never pay for it:
# it is no npm dependency. It never fails: without Locust those tests are skipped (and fail in CI).
set -uo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/petstore-conformance/locust"
for locust in "${PETSTORE_LOCUST:-}" "$(command -v locust 2>/dev/null)" /usr/bin/locust "$cache/bin/locust"; do
  if [ -n "$locust" ] && [ -x "$locust" ]; then exit 0; fi
done
if command -v python3 >/dev/null && python3 -m venv "$cache" >/dev/null 2>&1 &&
  timeout 120 "$cache/bin/pip" install --quiet --disable-pip-version-check --retries 1 --timeout 15 "locust>=2.12" >/dev/null 2>&1; then
  echo "ensure-locust: $("$cache/bin/locust" --version 2>&1 | head -n 1) in $cache"
  exit 0
fi
rm -rf "$cache"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-locust: installing Debian's python3-locust for the load engine's tests…"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get install -y -qq --no-install-recommends python3-locust >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends python3-locust >/dev/null; }; then
    echo "ensure-locust: Debian's python3-locust $(dpkg-query -W -f='${Version}' python3-locust)"
    exit 0
  fi
  echo "ensure-locust: apt-get could not install python3-locust." >&2
fi
echo "ensure-locust: no Locust found; the Locust engine's tests will be skipped. Run \`pip install locust\` to run them." >&2
exit 0
