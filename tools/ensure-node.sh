#!/usr/bin/env bash
# Prints the directory of a Node of the major version in .nvmrc (the image's,
# deploy/Dockerfile): the machine's own when it is that version, else the npm
# registry's official build (package node-linux-<arch>, the release's binary
# and headers), unpacked once under STS_NODE_HOME (default ~/.cache/sts-node).
# Used by .ci/run: `PATH="$(bash tools/ensure-node.sh)/bin:$PATH"`. npm itself
# is the machine's; it runs on whichever node is first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
want="$(tr -d ' \nv' < .nvmrc)"
have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo none)"
if [ "$have" = "$want" ]; then
  dirname "$(dirname "$(command -v node)")"
  exit 0
fi
arch="$(node -p process.arch 2>/dev/null || uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')"
home="${STS_NODE_HOME:-$HOME/.cache/sts-node}/$want-linux-$arch"
if [ ! -x "$home/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$want" > /dev/null)
  mkdir -p "$home.partial"
  tar xzf "$work"/node-linux-"$arch"-*.tgz -C "$home.partial" --strip-components=1
  rm -rf "$home" && mv "$home.partial" "$home"
  echo "ensure-node: Node $("$home/bin/node" --version) from the registry in $home" >&2
fi
echo "$home"
