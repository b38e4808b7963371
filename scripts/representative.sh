#!/usr/bin/env bash
# The checks npm test runs on each further Node line (test:node-lines): the main job against the bundled server,
# a replay of the shipped sample, and the unit tests. The main job spends most of its time waiting on its fast
# clock's windows, so the replay and the unit tests run beside it; its output is held back and printed whole when
# it ends, so the two never interleave. Fails when either fails; a main job that is Not certified is accepted,
# as a loaded machine may leave a rule of its fast-clock bursts partly checked.
set -uo pipefail
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
PETSTORE_ACCEPT_NOT_CERTIFIED=1 npm run conformance > "$log" 2>&1 &
main=$!
npm run replay -- fixtures/traffic/sample.har --speed 0 && npx playwright test -c test/playwright.config.ts --project unit --reporter=dot
others=$?
wait "$main"
conformance=$?
cat "$log"
(( conformance == 0 && others == 0 ))
