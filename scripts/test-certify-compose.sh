#!/usr/bin/env bash
# Brings examples/certify/compose.yaml up with the image scripts/test-images.sh built: certify
# runs `certify listen --attach` from the legacy image, the Python reference client runs in a
# container of its own and reads its variables from certify; compose exits with certify's code.
# Checks that code, and the JUnit report copied out of the stopped certify container. Run by
# scripts/test-images.sh; alone: `bash scripts/test-certify-compose.sh`.
#
# The client image is python:3.12-slim; where no registry is reachable (podman-sim), a stand-in
# made from this machine's python3 (scripts/lib/python-standin.sh). Tool and runtime as
# scripts/test-compose.sh picks them; neither: says so, exit 1 when CI=true, 0 (skipped) otherwise.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
say() { printf '%s\n' "test-certify-compose: $*"; }
# shellcheck source=lib/unavailable.sh
. "$root/scripts/lib/unavailable.sh"
# shellcheck source=lib/python-standin.sh
. "$root/scripts/lib/python-standin.sh"
no_tool() {
  unavailable test-certify-compose "$*" "examples/certify/compose.yaml was not tested" \
    "needs docker compose (with a running engine) or podman-compose with podman-sim"
}
file=examples/certify/compose.yaml
project="racedata-certify-$$"
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
if [ "$rt" = docker ]; then
  docker compose version >/dev/null 2>&1 || no_tool "no compose tool: the docker compose plugin is missing"
  compose=(docker compose -f "$file" -p "$project")
else
  command -v podman-compose >/dev/null 2>&1 || no_tool "no compose tool: podman-compose is missing"
  compose=(podman-compose --podman-path "$(command -v podman-sim)" -f "$file" -p "$project")
fi
export CERTIFY_IMAGE=${CERTIFY_IMAGE:-${IMAGE_PREFIX:-racedata}/legacy-sim}
"$rt" image inspect "$CERTIFY_IMAGE" >/dev/null 2>&1 || no_tool "image $CERTIFY_IMAGE is not built (npm run test:images builds it)"
if [ "$rt" = podman-sim ] && [ -z "${CLIENT_IMAGE:-}" ]; then
  export CLIENT_IMAGE=localhost/python-standin:3
  python_standin "$CLIENT_IMAGE" "$rt" || no_tool "no python image: python:3.12-slim cannot be pulled and no stand-in could be built"
fi

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
tmp=$(mktemp -d)
down() {
  "${compose[@]}" down -t 2 >"$tmp/down.log" 2>&1
  [ "$rt" = podman-sim ] && podman-sim network rm -f "${project}_default" >/dev/null 2>&1
  return 0
}
trap 'down; rm -rf "$tmp"' EXIT

started=$(date +%s)
timeout 180 "${compose[@]}" up --no-build --exit-code-from certify >"$tmp/up.log" 2>&1
code=$?
took=$(($(date +%s) - started))
certify=$("$rt" ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}' | grep certify | head -1)
junit=$("$rt" cp "$certify:/tmp/certify.xml" - 2>/dev/null | tar -xO 2>/dev/null)
if [ "$code" = 0 ] && printf '%s' "$junit" | grep -q 'tests="11" failures="0"'; then
  pass "compose: certify listen --attach passed the client container (exit 0 in $took s, JUnit copied out: 11 tests, no failure)"
else
  grep -vE 'systemd|^\s*$' "$tmp/up.log" | tail -25 | sed 's/^/    /'
  fail "compose: exit $code after $took s; JUnit: $(printf '%s' "$junit" | grep -o '<testsuites[^>]*>' | head -1)"
fi
say "$passed passed, $failed failed"
[ "$failed" = 0 ]
