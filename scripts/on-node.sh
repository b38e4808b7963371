#!/usr/bin/env bash
# Runs a command under another major version of Node: `bash scripts/on-node.sh 24 npm run conformance`.
# Node comes from the npm registry as the `node` package (fetched once into npm's cache), so CI needs nothing
# installed by hand. Only PATH changes: every child process (servers, Playwright workers, npx) gets the same
# Node. The binary is located with `npx -c` but the command runs outside it, because npx passes its own
# settings on to a nested npx through the environment.
set -euo pipefail
major="$1"
shift
node_bin="$(npx --yes --package "node@${major}" -c 'command -v node' 2>/dev/null | tail -n 1)"
if [[ ! -x "$node_bin" ]]; then
  echo "on-node: could not get Node ${major} from the npm registry (npx --package node@${major})" >&2
  exit 1
fi
bin_dir="$(dirname "$node_bin")"
echo "on-node: Node $("$node_bin" --version) ($node_bin): $*"
PATH="${bin_dir}:${PATH}" exec "$@"
