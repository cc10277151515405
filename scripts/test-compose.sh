#!/usr/bin/env bash
# Brings docker/compose.yaml up with the images scripts/test-images.sh built, on free host ports,
# and checks what a user of `docker compose up` sees: both simulators healthy, and each replay
# service feeding recorded race data into its simulator by service name (test/images/compose.test.ts).
# Then `down`.
# Run by scripts/test-images.sh after its suite; alone: `bash scripts/test-compose.sh`.
#
# Compose tool: `docker compose` where a Docker engine runs, else podman-compose driving
# podman-sim (../shared/container/README.md). Neither: says so and exits 1 when CI=true, 0
# (skipped) otherwise. COMPOSE_RUNTIME=docker|podman-sim forces one.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
say() { printf '%s\n' "test-compose: $*"; }
# shellcheck source=lib/unavailable.sh
. "$root/scripts/lib/unavailable.sh"
# shellcheck source=lib/containers.sh
. "$root/scripts/lib/containers.sh"
no_tool() {
  unavailable test-compose "$*" "docker/compose.yaml was not tested" \
    "needs docker compose (with a running engine) or podman-compose with podman-sim"
}

rt=${COMPOSE_RUNTIME:-}
if [ -z "$rt" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    rt=docker
  elif command -v podman-sim >/dev/null 2>&1; then
    rt=podman-sim
  else
    no_tool "no compose tool: docker has no running engine and podman-sim is missing"
  fi
fi
project="racedata-compose-$$"
if [ "$rt" = docker ]; then
  docker compose version >/dev/null 2>&1 || no_tool "no compose tool: the docker compose plugin is missing"
  compose=(docker compose -f docker/compose.yaml -p "$project")
else
  command -v podman-compose >/dev/null 2>&1 || no_tool "no compose tool: podman-compose is missing (apt-get install podman-compose)"
  compose=(podman-compose --podman-path "$(command -v podman-sim)" -f docker/compose.yaml -p "$project")
fi
for image in racedata/json-sim racedata/legacy-sim; do
  "$rt" image inspect "$image" >/dev/null 2>&1 || no_tool "image $image is not built (npm run test:images builds it)"
done

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
ms() { date +%s%3N; }
tmp=$(mktemp -d)

down() {
  "${compose[@]}" down >"$tmp/down.log" 2>&1
  local code=$?
  # podman-compose 1.0 leaves the project's network behind.
  [ "$rt" = podman-sim ] && podman-sim network rm -f "${project}_default" >/dev/null 2>&1
  return $code
}
cleanup() {
  local code=$?
  [ -n "${up:-}" ] && down
  rm -rf "$tmp"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mapfile -t ports < <(free_ports 2)
export LEGACY_PORT=${ports[0]} JSON_PORT=${ports[1]} REPLAY_MAX_DELAY=10
up=1
if "${compose[@]}" up -d --no-build >"$tmp/up.log" 2>&1; then
  pass "compose up (LEGACY_PORT=$LEGACY_PORT JSON_PORT=$JSON_PORT REPLAY_MAX_DELAY=10)"
else
  grep -iE 'error|fail' "$tmp/up.log" | grep -v systemd | head -20 | sed 's/^/    /'
  fail "compose up (log above)"
fi

j="http://127.0.0.1:$JSON_PORT" l="http://127.0.0.1:$LEGACY_PORT"
for pair in "json $j" "legacy $l"; do
  set -- $pair
  if wait_health "$2" "$1" 30000; then
    pass "compose: $1 service answers /health on its host port"
  else
    fail "compose: $1 service never became healthy"
  fi
done
# The replay services reach the simulators by service name (REPLAY_TARGET=http://json:3000).
RACEDATA_COMPOSE_JSON_URL=$j RACEDATA_COMPOSE_LEGACY_URL=$l image_jest "$tmp/replayed.out" 'test/images/compose'
code=$?
read -r p f < <(jest_counts "$tmp/replayed.out")
passed=$((passed + p))
failed=$((failed + f))
if [ "$code" != 0 ] && [ "$f" = 0 ]; then fail "compose: jest exited with $code (see output above)"; fi
if [ "$failed" -gt 0 ]; then
  for service in replay-json replay-legacy; do
    say "logs of $service:"
    "$rt" logs "${project}_${service}_1" 2>&1 | tail -8 | sed 's/^/    /'
  done
fi

t0=$(ms)
if down; then
  took=$(($(ms) - t0))
  left=$("$rt" ps -a --filter "label=com.docker.compose.project=$project" -q | wc -l)
  if [ "$left" = 0 ] && [ "$took" -lt 10000 ]; then
    pass "compose down took $took ms, no container left"
  else
    fail "compose down took $took ms, $left container(s) left"
  fi
else
  sed 's/^/    /' "$tmp/down.log" | tail -10
  fail "compose down (log above)"
fi
up=

say "$passed passed, $failed failed"
[ "$failed" = 0 ]
