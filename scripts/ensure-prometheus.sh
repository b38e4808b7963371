#!/usr/bin/env bash
# The watcher's alerting rules (fixtures/alerts/) are checked and unit-tested with Prometheus's promtool.
exec bash "$(dirname "$0")/ensure-debian-package.sh" promtool prometheus "the alerting rules' promtool tests"
