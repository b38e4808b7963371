#!/usr/bin/env bash
# The two-node gateway's tests (test/judge/two-node-gateway.spec.ts) share one counter in Debian's redis-server,
# which they start themselves on 127.0.0.1. Runs before `npm run test:field`; without it those tests are skipped,
# and fail under CI, where a missing tool must not pass for a green run.
exec bash "$(dirname "$0")/ensure-debian-package.sh" redis-server redis-server "the two-node gateway's tests"
