#!/usr/bin/env bash
# The two-node gateway's tests (test/judge/two-node-gateway.spec.ts) share one counter in Debian's redis-server.
# Runs before `npm run test:field`: a no-op when redis-server is there; as root with apt-get it installs Debian's
# redis-server (its service is kept from starting: the test runs its own redis-server on 127.0.0.1, on a free port,
# with its own folder); otherwise it says how to get it. It never fails: without redis-server those tests are
# skipped, and fail in CI, where a missing tool must not pass for a green run.
set -uo pipefail
for redis in "$(command -v redis-server 2>/dev/null)" /usr/bin/redis-server /usr/sbin/redis-server; do
  if [ -n "$redis" ] && [ -x "$redis" ]; then exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-redis: installing Debian's redis-server for the two-node gateway's tests…"
  if bash "$(dirname "$0")/apt-install-quiet.sh" redis-server; then
    echo "ensure-redis: $(redis-server --version)"
    exit 0
  fi
  echo "ensure-redis: apt-get could not install redis-server." >&2
fi
echo "ensure-redis: no redis-server found; the two-node gateway's tests will be skipped (and fail in CI). Install your system's redis-server package (Debian: apt-get install redis-server) to run them." >&2
exit 0
