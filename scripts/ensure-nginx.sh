#!/usr/bin/env bash
# The judge's gateway-log test puts nginx in front of the reference server and judges nginx's own access log.
# Runs before `npm test`; a machine without nginx runs every other test.
exec bash "$(dirname "$0")/ensure-debian-package.sh" nginx nginx "the judge's gateway-log test"
