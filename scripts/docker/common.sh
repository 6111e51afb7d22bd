# Shared by the scripts in this folder (sourced, not run). Every path lives under CTF_DOCKER_DIR
# so the engine started here never touches a system-wide Docker installation.
CTF_DOCKER_DIR="${CTF_DOCKER_DIR:-/tmp/ctf-docker}"
CTF_DOCKER_SOCKET="$CTF_DOCKER_DIR/docker.sock"
CTF_DOCKER_PIDFILE="$CTF_DOCKER_DIR/dockerd.pid"
CTF_DOCKER_LOG="$CTF_DOCKER_DIR/dockerd.log"
# The engine's images and build cache: kept between runs, so a second build reuses its layers.
CTF_DOCKER_DATA="$CTF_DOCKER_DIR/data"
# Its own bridge and address ranges, so it can share a machine with another engine: a second
# dockerd using the default bridge name (docker0) would take it over or, run with --bridge=none,
# delete it. The bridge's address is the containers' gateway: services on the host are reachable
# there. Compose networks take /24s from the pool.
CTF_DOCKER_BRIDGE="${CTF_DOCKER_BRIDGE:-ctfdocker0}"
CTF_DOCKER_BIP="${CTF_DOCKER_BIP:-10.209.0.1/24}"
CTF_DOCKER_POOL="${CTF_DOCKER_POOL:-10.210.0.0/16}"
# Runtime state (container shims, network namespaces): a short path, as dockerd asks.
CTF_DOCKER_EXEC="$CTF_DOCKER_DIR/exec"
export DOCKER_HOST="unix://$CTF_DOCKER_SOCKET"
# Debian's engine is 20.10 (API 1.41). Clients negotiate down to it by themselves: a newer
# `docker` client (e.g. a Docker 28 one in /usr/local/bin), docker-compose 1.29 and dockerode all do.
# The `docker` client (whichever comes first on PATH: any version speaks to this engine).
DOCKER_CLI="${DOCKER_CLI:-$(command -v docker || true)}"

ctf_engine_running() {
  [ -S "$CTF_DOCKER_SOCKET" ] && "$DOCKER_CLI" version --format '{{.Server.Version}}' >/dev/null 2>&1
}
