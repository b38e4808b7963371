#!/usr/bin/env bash
# The judge's gateway-log test puts nginx in front of the reference server and judges nginx's own access log.
# Runs before `npm test`: a no-op when nginx is there; as root with apt-get it installs Debian's nginx (its
# service is kept from starting: the test runs its own nginx on 127.0.0.1, with its own prefix); otherwise it
# says how to get it and that test is skipped. It never fails: a machine without nginx runs every other test.
set -uo pipefail
for nginx in "$(command -v nginx 2>/dev/null)" /usr/sbin/nginx; do
  if [ -n "$nginx" ] && [ -x "$nginx" ]; then exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-nginx: installing Debian's nginx for the judge's gateway-log test…"
  if bash "$(dirname "$0")/apt-install-quiet.sh" nginx; then
    echo "ensure-nginx: $(/usr/sbin/nginx -v 2>&1)"
    exit 0
  fi
  echo "ensure-nginx: apt-get could not install nginx." >&2
fi
echo "ensure-nginx: no nginx found; the judge's gateway-log test will be skipped. Install your system's nginx package (Debian: apt-get install nginx) to run it." >&2
exit 0
