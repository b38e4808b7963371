#!/usr/bin/env bash
# The watcher's rotation tests rotate its log with Debian's logrotate, both ways it does it (create, copytruncate).
exec bash "$(dirname "$0")/ensure-debian-package.sh" logrotate logrotate "the watcher's logrotate tests"
