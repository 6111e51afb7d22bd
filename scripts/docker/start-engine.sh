#!/usr/bin/env bash
# Starts a private Docker engine for the tests and CI (idempotent: safe to run twice).
#
#   eval "$(scripts/docker/start-engine.sh)"    # exports DOCKER_HOST
#
# - Installs Debian's docker.io, docker-compose and debootstrap with apt-get when missing (root).
# - Runs `dockerd` with its own data root, exec root, pidfile and socket under CTF_DOCKER_DIR
#   (default /tmp/ctf-docker), its own bridge (CTF_DOCKER_BRIDGE, address CTF_DOCKER_BIP: the
#   containers' way to the host) and address pool, so it never uses or disturbs another engine. The data root is kept
#   after stop-engine.sh: images and build layers are cached for the next run.
# - Waits until the engine answers, then prints `export DOCKER_HOST=unix://...` on stdout
#   (everything else goes to stderr).
# Stop it with scripts/docker/stop-engine.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "start-engine: installing ${missing[*]}" >&2
  # Another process may be installing packages too: wait for dpkg's lock instead of failing.
  apt-get -o DPkg::Lock::Timeout=600 update >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
    "${missing[@]}" >&2
fi
DOCKER_CLI="${DOCKER_CLI:-$(command -v docker)}"   # again: docker.io may have just installed it

mkdir -p "$CTF_DOCKER_DIR" "$CTF_DOCKER_DATA" "$CTF_DOCKER_EXEC"
# One start at a time: two scripts starting at once would race for the pidfile.
exec 9>"$CTF_DOCKER_DIR/start.lock"
flock 9   # (closed for dockerd below: it would hold the lock for its whole life)

if ! ctf_engine_running; then
  if [ -f "$CTF_DOCKER_PIDFILE" ] && kill -0 "$(cat "$CTF_DOCKER_PIDFILE")" 2>/dev/null; then
    echo "start-engine: dockerd $(cat "$CTF_DOCKER_PIDFILE") is running but does not answer; waiting" >&2
  else
    rm -f "$CTF_DOCKER_PIDFILE" "$CTF_DOCKER_SOCKET"
    if ! ip link show "$CTF_DOCKER_BRIDGE" >/dev/null 2>&1; then
      ip link add name "$CTF_DOCKER_BRIDGE" type bridge
      ip addr add "$CTF_DOCKER_BIP" dev "$CTF_DOCKER_BRIDGE"
    fi
    ip link set "$CTF_DOCKER_BRIDGE" up
    echo "start-engine: starting dockerd (log: $CTF_DOCKER_LOG)" >&2
    # setsid: the engine outlives this script and is not killed with the caller's process group.
    setsid dockerd -H "$DOCKER_HOST" --data-root "$CTF_DOCKER_DATA" --exec-root "$CTF_DOCKER_EXEC" \
      --pidfile "$CTF_DOCKER_PIDFILE" --bridge "$CTF_DOCKER_BRIDGE" \
      --default-address-pool "base=$CTF_DOCKER_POOL,size=24" >"$CTF_DOCKER_LOG" 2>&1 </dev/null 9>&- &
  fi
  for _ in $(seq 1 600); do
    ctf_engine_running && break
    sleep 0.1
  done
  if ! ctf_engine_running; then
    echo "start-engine: dockerd did not answer within 60 s; its log:" >&2
    tail -n 30 "$CTF_DOCKER_LOG" >&2 || true
    exit 1
  fi
fi
echo "start-engine: engine $("$DOCKER_CLI" version --format '{{.Server.Version}}') at $DOCKER_HOST" >&2
echo "export DOCKER_HOST=$DOCKER_HOST"
