#!/usr/bin/env bash
# The judge's gateway-log tests put nginx in front of the reference server, over TLS with a certificate openssl
# makes, and judge nginx's own access log. Runs before `npm test`: a no-op when both are there; as root with
# apt-get it installs Debian's nginx and openssl (nginx's service is kept from starting: the tests run their own
# nginx on 127.0.0.1, with its own prefix); otherwise it says how to get them and those tests are skipped, except
# under CI (CI set), where a missing tool fails them. It never fails itself.
set -uo pipefail
missing=()
found_nginx=""
for nginx in "$(command -v nginx 2>/dev/null)" /usr/sbin/nginx; do
  if [ -n "$nginx" ] && [ -x "$nginx" ]; then found_nginx=yes; fi
done
[ -z "$found_nginx" ] && missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "ensure-nginx: installing Debian's ${missing[*]} for the judge's gateway-log tests…"
  export DEBIAN_FRONTEND=noninteractive
  # No service is started by the package: policy-rc.d answers "not now" to its postinst.
  policy=/usr/sbin/policy-rc.d
  restore=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && restore=yes
  fi
  if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    [ -n "$restore" ] && rm -f "$policy"
    [ -x /usr/sbin/nginx ] && echo "ensure-nginx: $(/usr/sbin/nginx -v 2>&1)"
    exit 0
  fi
  [ -n "$restore" ] && rm -f "$policy"
  echo "ensure-nginx: apt-get could not install ${missing[*]}." >&2
fi
echo "ensure-nginx: no ${missing[*]} found; the judge's gateway-log tests will be skipped (under CI they fail). Install your system's ${missing[*]} package (Debian: apt-get install ${missing[*]}) to run them." >&2
exit 0
