#!/usr/bin/env bash
# The judge's gateway-log tests put nginx in front of the reference server, over TLS with a certificate openssl
# makes, and judge nginx's own access log. Runs before `npm test`; a machine without them runs every other test,
# except under CI (CI set), where a missing tool fails those tests.
here="$(dirname "$0")"
bash "$here/ensure-debian-package.sh" nginx nginx "the judge's gateway-log tests"
exec bash "$here/ensure-debian-package.sh" openssl openssl "the judge's TLS gateway-log tests"
