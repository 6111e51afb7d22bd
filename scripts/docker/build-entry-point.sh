#!/usr/bin/env bash
# Builds the instances' entry-point image on the Docker engine DOCKER_HOST names (the challenge
# host's): run it once there before instances start, and again after an upgrade that changes
# scripts/docker/entry-point/. The tag is INSTANCE_ENTRY_IMAGE's default unless given.
#   scripts/docker/build-entry-point.sh [TAG] [BASE]     (BASE: an image with node, default node:24-bookworm-slim)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tag="${1:-ctf-instance-entry:1}"
base="${2:-node:24-bookworm-slim}"
docker build -q --build-arg "BASE=$base" -t "$tag" "$here/entry-point" >&2
echo "build-entry-point: $tag ready (from $base)" >&2
