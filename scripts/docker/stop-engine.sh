#!/usr/bin/env bash
# Stops the engine that start-engine.sh started (by its pidfile), waiting until it has exited.
# Containers still running are stopped by dockerd itself on the way out. Images and build cache
# stay in CTF_DOCKER_DIR/data for the next run; `rm -rf` that folder to start from nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

[ -f "$CTF_DOCKER_PIDFILE" ] || { echo "stop-engine: no engine running at $CTF_DOCKER_DIR" >&2; exit 0; }
pid="$(cat "$CTF_DOCKER_PIDFILE")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  # dockerd gives its containers 10 s each to stop at most, in parallel; then it exits.
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "stop-engine: dockerd $pid still running after 60 s; killing it" >&2
    kill -KILL "$pid"
  fi
fi
rm -f "$CTF_DOCKER_PIDFILE" "$CTF_DOCKER_SOCKET"
# The bridge start-engine.sh made; dockerd leaves it (and its address) behind.
ip link delete "$CTF_DOCKER_BRIDGE" 2>/dev/null || true
echo "stop-engine: stopped" >&2
