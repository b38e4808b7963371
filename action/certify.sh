#!/usr/bin/env bash
# The work of the GitHub Action (action.yml) as a plain script, so it runs, and is tested, anywhere: installs the
# package's runtime dependencies into the action's checkout once, certifies $INPUT_BASE_URL with the keys in
# PETSTORE_API_KEY_*, writes the reports to $INPUT_OUTPUT, and appends the verdict to $GITHUB_STEP_SUMMARY.
# Exits with the verdict's code (0 conforming, 1 not conforming, 3 not certified, 2 bad input).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ -z "${INPUT_BASE_URL:-}" ]; then
  echo "petstore-conformance: the input base-url is required (the implementation to certify, /v1 included)" >&2
  exit 2
fi

# An input left empty means "not given": the suite must not read it as "no keys" or a quota of nothing.
for variable in PETSTORE_API_KEY_FREE PETSTORE_API_KEY_PRO PETSTORE_API_KEY_BUSINESS PETSTORE_API_KEY_ENTERPRISE \
  PETSTORE_ENTERPRISE_PER_MINUTE PETSTORE_ENTERPRISE_PER_DAY PETSTORE_ACCEPT_NOT_CERTIFIED \
  PETSTORE_QUOTA_BUDGET_SECONDS PETSTORE_RUN_TIMEOUT_SECONDS; do
  if [ -z "${!variable:-}" ]; then unset "$variable"; fi
done
# A spec address built from an action context GitHub left empty links nowhere.
case "${PETSTORE_SPEC_URL:-}" in *//blob/* | */blob//*) unset PETSTORE_SPEC_URL ;; esac

if [ ! -d "$root/node_modules/@playwright/test" ]; then
  echo "petstore-conformance: installing the package's dependencies"
  (cd "$root" && npm ci --omit=dev --no-audit --no-fund) || exit 2
fi

output="${INPUT_OUTPUT:-petstore-conformance-reports}"
args=(certify --base-url "$INPUT_BASE_URL" --output "$output")
if [ "${INPUT_READ_ONLY:-false}" = true ]; then args+=(--read-only); fi
if [ "${INPUT_QUOTA_TESTS:-false}" = true ]; then args+=(--quota-tests); fi
if [ -n "${INPUT_LABEL:-}" ]; then args+=(--label "$INPUT_LABEL"); fi
if [ -n "${INPUT_MAX_AGE:-}" ]; then args+=(--max-age "$INPUT_MAX_AGE"); fi
if [ -n "${INPUT_STAGING_URL:-}" ]; then args+=(--staging-url "$INPUT_STAGING_URL"); fi
while IFS= read -r path; do
  if [ -n "$path" ]; then args+=(--evidence "$path"); fi
done <<<"${INPUT_EVIDENCE:-}"
scope="${INPUT_OUT_OF_SCOPE:-}"
for item in ${scope//,/ }; do args+=(--out-of-scope "$item"); done

# The target's own traffic is judged first; its report is evidence like any other. Traffic alone never
# certifies (exit 3) and a failure in it counts in the certificate below, so only bad input (2) stops here.
if [ -n "${INPUT_TRAFFIC:-}" ]; then
  node "$root/bin/petstore-conformance.js" judge "$INPUT_TRAFFIC" --base-url "$INPUT_BASE_URL" --label "${INPUT_LABEL:-run} traffic" --output "$output/traffic"
  judged=$?
  if [ "$judged" -eq 2 ]; then exit 2; fi
  args+=(--evidence "$output/traffic")
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then args+=(--summary "$GITHUB_STEP_SUMMARY"); fi
if [ -n "${INPUT_PLAYWRIGHT_ARGS:-}" ]; then
  read -r -a passed <<<"$INPUT_PLAYWRIGHT_ARGS"
  args+=(-- "${passed[@]}")
fi

exec node "$root/bin/petstore-conformance.js" "${args[@]}"
