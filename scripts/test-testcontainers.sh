#!/usr/bin/env bash
# Runs the Testcontainers module's test (packages/testkit/test/testcontainers.test.ts) against the
# images scripts/test-images.sh built. Run by scripts/test-images.sh after its suite; alone:
# `npm run test:testcontainers` (after `npm run test:images`).
#
# Runtime: the `testcontainers` package talks to a Docker API. DOCKER_HOST as given, else the
# Docker engine when `docker info` works, else podman serves a Docker-compatible API on a socket
# of its own for this run (`podman --runtime runc system service`, stopped at the end). Neither:
# says so and exits 1 when CI=true, 0 (skipped) otherwise.
#
# Environment: IMAGE_PREFIX (default racedata) names the images <prefix>/json-sim and
# <prefix>/legacy-sim, as for test-images.sh, which tags them with the package version. With the
# default prefix the test starts the module's default images (racedata/<sim>:<version>).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
say() { printf '%s\n' "test-testcontainers: $*"; }
# shellcheck source=lib/unavailable.sh
. "$root/scripts/lib/unavailable.sh"
no_runtime() {
  unavailable test-testcontainers "$*" "the Testcontainers module was not tested" \
    "needs a Docker API: docker with a running engine, or podman"
}
prefix=${IMAGE_PREFIX:-racedata}
version=$(node -p "require('./package.json').version")
json_image="$prefix/json-sim:$version"
legacy_image="$prefix/legacy-sim:$version"

tmp=$(mktemp -d)
service_pid=
cleanup() {
  local code=$?
  if [ -n "$service_pid" ]; then
    kill "$service_pid" 2>/dev/null
    wait "$service_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- a Docker API ---------------------------------------------------------------------
if [ -n "${DOCKER_HOST:-}" ]; then
  inspect=(docker image inspect)
  say "Docker API: DOCKER_HOST=$DOCKER_HOST"
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  inspect=(docker image inspect)
  say "Docker API: the Docker engine"
elif command -v podman >/dev/null 2>&1; then
  socket="$tmp/podman.sock"
  # runc: crun fails on these machines (../shared/container/README.md); --time=0: no idle exit.
  podman --runtime runc system service --time=0 "unix://$socket" >"$tmp/service.log" 2>&1 &
  service_pid=$!
  for _ in $(seq 1 100); do
    [ -S "$socket" ] && curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 ||
    no_runtime "podman system service did not answer on $socket: $(tail -3 "$tmp/service.log")"
  export DOCKER_HOST="unix://$socket"
  # testcontainers reaches a container through the host's mapped port; left alone, it picks the
  # podman bridge's gateway when the tests run inside a container themselves.
  export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
  inspect=(podman image inspect)
  say "Docker API: podman system service on $DOCKER_HOST"
else
  no_runtime "no Docker API: DOCKER_HOST is unset, docker has no running engine and podman is missing"
fi
# Ryuk, testcontainers' reaper, is an image from a registry, and no registry is reachable here;
# the test stops every container it starts.
export TESTCONTAINERS_RYUK_DISABLED=${TESTCONTAINERS_RYUK_DISABLED:-true}

for image in "$json_image" "$legacy_image"; do
  "${inspect[@]}" "$image" >/dev/null 2>&1 ||
    unavailable test-testcontainers "image $image is not built" "the Testcontainers module was not tested" \
      "needs the images: npm run test:images builds them (and runs this too)"
done

# ---- the test ---------------------------------------------------------------------------
images=()
if [ "$prefix" != racedata ]; then images=(RACEDATA_JSON_IMAGE="$json_image" RACEDATA_LEGACY_IMAGE="$legacy_image"); fi
env RACEDATA_TESTCONTAINERS=1 ${images[@]+"${images[@]}"} \
  npx jest --selectProjects testkit examples --runTestsByPath packages/testkit/test/testcontainers.test.ts \
  examples/testcontainers/simulator-containers.test.ts \
  >"$tmp/jest.out" 2>&1
code=$?
# Indented, so a caller counting PASS/FAIL lines (test-images.sh) counts only the summary below.
sed 's/^/    /' "$tmp/jest.out"
summary=$(grep -E '^Tests: ' "$tmp/jest.out" | tail -1 | sed 's/^Tests: *//')
if [ "$code" = 0 ] && echo "$summary" | grep -qE '[0-9]+ passed' && ! echo "$summary" | grep -qE 'failed|skipped'; then
  printf 'PASS %s\n' "Testcontainers module against $json_image and $legacy_image ($summary)"
else
  printf 'FAIL %s\n' "Testcontainers module against $json_image and $legacy_image (${summary:-jest exited $code})"
  exit 1
fi
