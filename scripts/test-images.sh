#!/usr/bin/env bash
# Builds the container images (docker/json.Dockerfile, docker/legacy.Dockerfile), starts them and
# runs the jest project `images` (test/images) against the running containers, checks what only
# the runtime can see (user, HEALTHCHECK, stop time), certify from the image, then
# docker/compose.yaml (scripts/test-compose.sh), examples/certify/compose.yaml
# (scripts/test-certify-compose.sh) and the Testcontainers module (scripts/test-testcontainers.sh)
# with those images. `npm run test:images`.
#
# Runtime: `docker` when `docker info` works; else `podman-sim` (../shared/container/README.md),
# running ../shared/container/podman-setup.sh first when podman-sim or the stand-in base image is
# missing. With neither: says so and exits 1 when CI=true, 0 (skipped) otherwise.
#
# Environment: CONTAINER_RUNTIME=docker|podman-sim forces a runtime; NODE_IMAGE overrides the
# base image (podman default localhost/node-standin:20); IMAGE_PREFIX (default racedata) names
# the images <prefix>/json-sim and <prefix>/legacy-sim; KEEP_CONTAINERS=1 leaves them running.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
setup="$root/../shared/container/podman-setup.sh"
prefix=${IMAGE_PREFIX:-racedata}
# Each image is tagged :latest and :<package version>, the tag the Testcontainers module starts.
version=$(node -p "require('./package.json').version")
json_image="$prefix/json-sim"
legacy_image="$prefix/legacy-sim"

say() { printf '%s\n' "test-images: $*"; }
# shellcheck source=lib/unavailable.sh
. "$root/scripts/lib/unavailable.sh"
# shellcheck source=lib/containers.sh
. "$root/scripts/lib/containers.sh"
no_runtime() {
  unavailable test-images "no container runtime available: $*" "the container images were not built or tested" \
    "container image tests need docker (with a running engine) or podman"
}

# ---- pick a runtime ------------------------------------------------------------------------
rt=${CONTAINER_RUNTIME:-}
if [ -z "$rt" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    rt=docker
  elif command -v podman-sim >/dev/null 2>&1 || [ -x "$setup" ]; then
    rt=podman-sim
  else
    no_runtime "docker is missing or has no running engine, podman-sim is missing and $setup does not exist"
  fi
fi
build_args=()
if [ "$rt" = podman-sim ]; then
  if ! command -v podman-sim >/dev/null 2>&1 || ! podman-sim image exists "${NODE_IMAGE:-localhost/node-standin:20}"; then
    if [ -x "$setup" ]; then
      say "running $setup"
      "$setup" || no_runtime "podman-setup.sh failed"
    fi
  fi
  command -v podman-sim >/dev/null 2>&1 || no_runtime "podman-sim is missing"
  podman-sim info >/dev/null 2>&1 || no_runtime "podman-sim does not work (podman-sim info failed)"
  # --format docker keeps HEALTHCHECK (the OCI format has no place for it).
  build_args=(--network host --format docker --build-arg "NODE_IMAGE=${NODE_IMAGE:-localhost/node-standin:20}")
  base_image=${NODE_IMAGE:-localhost/node-standin:20}
else
  if [ -n "${NODE_IMAGE:-}" ]; then build_args=(--build-arg "NODE_IMAGE=$NODE_IMAGE"); fi
  base_image=${NODE_IMAGE:-node:20-alpine}
fi
say "runtime: $rt, base image: $base_image"

# ---- results and cleanup -----------------------------------------------------------------
passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
count_output() { # counts PASS/FAIL lines a child script printed
  local p f
  p=$(grep -c '^PASS' "$1" || true)
  f=$(grep -c '^FAIL' "$1" || true)
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then fail "$3 exited with $2 (see output above)"; fi
}
count_jest() { # OUT CODE WHAT: counts the tests of a jest run as passed and failed checks
  local p f
  read -r p f < <(jest_counts "$1")
  passed=$((passed + p))
  failed=$((failed + f))
  say "$3: $p jest tests passed, $f failed"
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then fail "$3: jest exited with $2 (see output above)"; fi
}
ms() { date +%s%3N; }

tmp=$(mktemp -d)
containers=()
cleanup() {
  local code=$?
  if [ "${KEEP_CONTAINERS:-0}" != 1 ] && [ ${#containers[@]} -gt 0 ]; then
    local i c
    # One at a time (podman 4 skips every name when one is missing), newest first (a replay
    # container shares its target's network namespace and must go before it).
    for ((i = ${#containers[@]} - 1; i >= 0; i--)); do
      c=${containers[i]}
      if [ "$rt" = docker ]; then
        docker rm -f "$c" >/dev/null 2>&1 || true
      else # without -t 0, podman's rm -f waits the stop timeout first
        "$rt" rm -f -t 0 "$c" >/dev/null 2>&1 || true
      fi
    done
  fi
  rm -rf "$tmp"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

suite_start=$(ms)

# ---- build -----------------------------------------------------------------------------
build() { # image dockerfile
  local t0 t1
  t0=$(ms)
  if "$rt" build ${build_args[@]+"${build_args[@]}"} -f "$2" -t "$1" -t "$1:$version" . >"$tmp/build.log" 2>&1; then
    t1=$(ms)
    pass "build $1 (:latest, :$version) from $2 ($(((t1 - t0) / 1000)).$((((t1 - t0) % 1000) / 100)) s)"
    return 0
  fi
  # The first error lines say what went wrong (npm adds its whole usage text after some).
  grep -iE 'error|fail|missing' "$tmp/build.log" | grep -vE '^npm error( |$)( |\[|Usage|Options|aliases|Run "npm help)' |
    head -25 | sed 's/^/    /'
  echo '    ...'
  tail -3 "$tmp/build.log" | sed 's/^/    /'
  fail "build $1 from $2 (log above)"
  return 1
}
build_ok=1
build "$json_image" docker/json.Dockerfile || build_ok=0
build "$legacy_image" docker/legacy.Dockerfile || build_ok=0
if [ "$build_ok" = 0 ]; then
  say "$passed passed, $failed failed"
  exit 1
fi
build_end=$(ms)

# ---- sizes -----------------------------------------------------------------------------
base_size=$("$rt" image inspect --format '{{.Size}}' "$base_image" 2>/dev/null || echo 0)
base_layers=$("$rt" history -q "$base_image" 2>/dev/null | wc -l)
# The benchmark report reads the sizes from here; the folder is ignored, so a test run leaves the
# tree clean.
sizes_json="$root/bench/results/raw/image-sizes.json"
mkdir -p "$(dirname "$sizes_json")"
sizes_rows=()
for image in "$json_image" "$legacy_image"; do
  size=$("$rt" image inspect --format '{{.Size}}' "$image")
  app=$((size - base_size))
  sizes_rows+=("{\"name\": \"$image\", \"bytes\": $size, \"appBytes\": $app, \"base\": \"$base_image\"}")
  say "$image: $((size / 1000000)) MB total, $((app / 1000000)).$(((app % 1000000) / 100000)) MB above $base_image; layers above the base:"
  "$rt" history --format '{{.Size}}\t{{.CreatedBy}}' "$image" | head -n $(($("$rt" history -q "$image" | wc -l) - base_layers)) |
    cut -c1-150 | sed 's/^/    /'
  if [ "$app" -lt 30000000 ]; then pass "$image app layers under 30 MB"; else fail "$image app layers are $app bytes (limit 30 MB)"; fi
done
mkdir -p "$(dirname "$sizes_json")"
(IFS=,; printf '{"measuredWith": "%s", "images": [%s]}\n' "$rt" "${sizes_rows[*]}") >"$sizes_json"

# ---- recordings to mount ---------------------------------------------------------------
# Format: recordings/README.md (one JSON object per line; <dir>/json and <dir>/legacy).
nonce="smoke-$(date +%s)-$$"
mkdir -p "$tmp/recordings/json" "$tmp/recordings/legacy"
cat >"$tmp/recordings/json/smoke.jsonl" <<EOF
{"at":"2024-05-11T12:00:00.000Z","delivery":"durable","channel":"RaceDayTrot","date":"2024-05-11","trackId":5,"raceNr":1,"payload":{"smoke":"$nonce"}}
{"at":"2024-05-11T12:00:01.000Z","delivery":"durable","channel":"StartListGallop","date":"2024-05-11","trackId":5,"raceNr":2,"payload":{"smoke":"$nonce-2"}}
EOF
cat >"$tmp/recordings/legacy/smoke.jsonl" <<EOF
{"at":"2024-05-11T12:00:00.000Z","delivery":"durable","channel":"id","payloadKey":"smoke","xml":"<smoke nonce=\\"$nonce\\">replayed</smoke>"}
EOF
chmod -R a+rX "$tmp"

# ---- start containers ------------------------------------------------------------------
mapfile -t ports < <(free_ports 5)
p_json=${ports[0]} p_legacy=${ports[1]} p_json_rep=${ports[2]} p_legacy_rep=${ports[3]} p_legacy_short=${ports[4]}
name="racedata-smoke-$$"
run() { # name image args...
  local n=$1 image=$2
  shift 2
  containers+=("$n")
  if ! "$rt" run -d --name "$n" "$@" "$image" >"$tmp/run.log" 2>&1; then
    cat "$tmp/run.log"
    fail "start container $n"
    return 1
  fi
}
run "$name-json" "$json_image" -p "127.0.0.1:$p_json:3000"
run "$name-legacy" "$legacy_image" -p "127.0.0.1:$p_legacy:8080"
# Settings as -e: a mounted recordings dir replayed, another port (the HEALTHCHECK must follow
# PORT), a short long-poll timeout.
run "$name-json-replay" "$json_image" -p "127.0.0.1:$p_json_rep:4000" -e PORT=4000 \
  -e LONG_POLL_TIMEOUT_MS=500 -e AUTO_REPLAY_MESSAGE_INTERVAL=100 -v "$tmp/recordings:/recordings:ro"
run "$name-legacy-replay" "$legacy_image" -p "127.0.0.1:$p_legacy_rep:8080" \
  -e AUTO_REPLAY_MESSAGE_INTERVAL=100 -v "$tmp/recordings:/recordings:ro"
run "$name-legacy-short" "$legacy_image" -p "127.0.0.1:$p_legacy_short:8080" -e LONG_POLL_TIMEOUT_MS=500

j="http://127.0.0.1:$p_json" l="http://127.0.0.1:$p_legacy"
jr="http://127.0.0.1:$p_json_rep" lr="http://127.0.0.1:$p_legacy_rep" ls="http://127.0.0.1:$p_legacy_short"
healthy=1
for pair in "json-sim json $j json" "legacy-sim legacy $l legacy" "json-sim json-replay $jr json" \
  "legacy-sim legacy-replay $lr legacy" "legacy-sim legacy-short $ls legacy"; do
  set -- $pair
  t0=$(ms)
  if wait_health "$3" "$4" 30000; then
    pass "$2 container answers /health on the mapped port ($(($(ms) - t0)) ms)"
  else
    fail "$2 container never became healthy; its log:"
    "$rt" logs "$name-$2" 2>&1 | tail -20 | sed 's/^/    /'
    healthy=0
  fi
done

# ---- the replay command (compose's replay services) ------------------------------------
# Runs in the target's network namespace, so REPLAY_TARGET is the container's own port.
# Before the jest suite, which checks that the replayed messages arrived.
replay_cmd() { # target-container image container-port
  local n="$name-replay-$1" t0
  containers+=("$n")
  t0=$(ms)
  if timeout 60 "$rt" run --rm --name "$n" --network "container:$name-$1" -e "REPLAY_TARGET=http://127.0.0.1:$3" \
    -e MAX_DELAY=10 -v "$tmp/recordings:/recordings:ro" "$2" replay >"$tmp/replay.out" 2>&1; then
    pass "replay command ($2 replay, MAX_DELAY=10) into the $1 container exited 0 ($(($(ms) - t0)) ms)"
  else
    sed 's/^/    /' "$tmp/replay.out" | tail -20
    fail "replay command into the $1 container (output above)"
  fi
}
if [ "$healthy" = 1 ]; then
  replay_cmd json "$json_image" 3000
  replay_cmd legacy "$legacy_image" 8080
fi

# ---- black-box suite: test/images against the containers -------------------------------
# Names: test/images/image-env.ts.
export RACEDATA_IMAGE_JSON_URL=$j RACEDATA_IMAGE_LEGACY_URL=$l RACEDATA_IMAGE_JSON_REPLAY_URL=$jr \
  RACEDATA_IMAGE_LEGACY_REPLAY_URL=$lr RACEDATA_IMAGE_LEGACY_SHORT_POLL_URL=$ls RACEDATA_IMAGE_REPLAY_NONCE=$nonce
if [ "$healthy" = 1 ]; then
  image_jest "$tmp/suite.out" 'test/images/(json|legacy)-image'
  count_jest "$tmp/suite.out" $? "image suite"
fi

# ---- image metadata, HEALTHCHECK, user -------------------------------------------------
for image in "$json_image" "$legacy_image"; do
  user=$("$rt" image inspect --format '{{.Config.User}}' "$image")
  [ "$user" = node ] && pass "$image Config.User is node" || fail "$image Config.User is '$user' (expected node)"
  env=$("$rt" image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image")
  # The command listens on 127.0.0.1 by default; the image opens it to its mapped port.
  case "$env" in *HOST=0.0.0.0*) pass "$image sets HOST=0.0.0.0" ;; *) fail "$image does not set HOST=0.0.0.0" ;; esac
  hc=$("$rt" image inspect --format '{{if .Config.Healthcheck}}{{.Config.Healthcheck.Test}}{{end}}' "$image" 2>/dev/null)
  case "$hc" in *node*health*) pass "$image has a node HEALTHCHECK" ;; *) fail "$image has no node HEALTHCHECK ('$hc')" ;; esac
done
uid=$("$rt" exec "$name-json" node -e 'console.log(process.getuid())' 2>&1)
[ "$uid" = 1000 ] && pass "json process runs as uid 1000" || fail "json process uid: $uid"
uid=$("$rt" exec "$name-legacy" node -e 'console.log(process.getuid())' 2>&1)
[ "$uid" = 1000 ] && pass "legacy process runs as uid 1000" || fail "legacy process uid: $uid"
# The code cache written at build time (scripts/prime-code-cache.mjs) must be one this image's
# V8 accepts, or every container start compiles the bundle from scratch.
for c in json legacy; do
  cache=$("$rt" exec "$name-$c" node -e '
    const fs = require("fs"), { compiled } = require("/app/bin/code-cache.js");
    const file = "/app/dist/racedata-sim.cjs", src = fs.readFileSync(file, "utf8");
    const data = fs.readFileSync(file + ".v8cache"), cut = data.indexOf(10) + 1;
    const s = compiled(file, src, data.subarray(cut));
    console.log(s.cachedDataRejected ? "rejected" : "accepted");' 2>&1)
  [ "$cache" = accepted ] && pass "$c image's code cache is accepted by its node" || fail "$c image's code cache: $cache"
  # And the on-demand part's, or the first /metrics, API document or console page compiles it.
  cache=$("$rt" exec "$name-$c" node -e '
    const fs = require("fs"), vm = require("vm"), file = "/app/dist/racedata-sim.on-demand.js";
    const data = fs.readFileSync(file + ".v8cache"), cut = data.indexOf(10) + 1;
    const s = new vm.Script(fs.readFileSync(file, "latin1"), { filename: file, cachedData: data.subarray(cut) });
    console.log(s.cachedDataRejected ? "rejected" : "accepted");' 2>&1)
  [ "$cache" = accepted ] && pass "$c image's on-demand code cache is accepted by its node" || fail "$c image's on-demand code cache: $cache"
done
for c in json legacy; do
  # Read whole before matching: grep -q stops at the first match, and under pipefail the logs
  # command's SIGPIPE would then fail a banner that was there.
  banner=$("$rt" logs "$name-$c" 2>&1)
  if printf '%s' "$banner" | grep -q 'bound to 0.0.0.0'; then
    pass "$c container listens on every interface (its banner says bound to 0.0.0.0)"
  else
    fail "$c container's banner does not say bound to 0.0.0.0"
  fi
done
pid1=$("$rt" exec "$name-json" node -e 'console.log(require("fs").readFileSync("/proc/1/cmdline","utf8").split("\0").slice(0,3).join(" "))' 2>&1)
case "$pid1" in node*racedata-sim*) pass "PID 1 is node ($pid1)" ;; *) fail "PID 1 is '$pid1' (expected node racedata-sim)" ;; esac
healthcheck_status() { # container -> healthy | unhealthy | starting
  if [ "$rt" = docker ]; then
    docker inspect --format '{{.State.Health.Status}}' "$1"
  elif podman-sim healthcheck run "$1" >/dev/null 2>&1; then echo healthy; else echo unhealthy; fi
}
for c in json json-replay legacy; do
  status=starting
  for _ in $(seq 1 40); do # docker runs the first check after --interval
    status=$(healthcheck_status "$name-$c")
    [ "$status" = healthy ] && break
    sleep 1
  done
  [ "$status" = healthy ] && pass "HEALTHCHECK reports $c healthy" || fail "HEALTHCHECK reports $c $status"
done

# ---- stop: SIGTERM with a held poll and an open WebSocket on each ---------------------
# test/images/stop.test.ts opens them, writes the ready file once the polls are held, and
# checks how each ended; this script does the stopping, which only the runtime can.
RACEDATA_IMAGE_STOP_READY_FILE="$tmp/ready" image_jest "$tmp/hold.out" 'test/images/stop' >/dev/null &
hold_pid=$!
# A jest start, not the containers, is what takes time here.
for _ in $(seq 1 600); do [ -s "$tmp/ready" ] && break; sleep 0.1; done
for c in json legacy json-replay legacy-replay; do
  t0=$(ms)
  "$rt" stop -t 10 "$name-$c" >/dev/null 2>&1
  took=$(($(ms) - t0))
  code=$("$rt" inspect --format '{{.State.ExitCode}}' "$name-$c" 2>/dev/null)
  if [ "$took" -lt 2000 ] && [ "$code" = 0 ]; then
    pass "$c: stop took $took ms, exit code $code"
  else
    fail "$c: stop took $took ms (limit 2000), exit code $code (expected 0)"
  fi
done
wait "$hold_pid"
hold_code=$?
sed 's/^/    /' "$tmp/hold.out"
count_jest "$tmp/hold.out" "$hold_code" "stop with connections open"

# `docker stop` right after `docker run` (compose up then down, test harnesses): node is PID 1,
# and PID 1 ignores a signal it has no handler for, so the handler must exist from the start.
if run "$name-early" "$json_image"; then
  sleep 0.2
  t0=$(ms)
  "$rt" stop -t 10 "$name-early" >/dev/null 2>&1
  took=$(($(ms) - t0))
  code=$("$rt" inspect --format '{{.State.ExitCode}}' "$name-early" 2>/dev/null)
  if [ "$took" -lt 2000 ] && [ "$code" != 137 ]; then
    pass "stop 0.2 s after start took $took ms, exit code $code"
  else
    fail "stop 0.2 s after start took $took ms (limit 2000), exit code $code (137: SIGTERM ignored during start-up, killed)"
  fi
fi

# ---- certify from the image, graded on a client that is not Node ---------------------------
# `certify listen --attach` in a container (the HEALTHCHECK follows its --port), the Python
# reference client on the host reading its variables from GET /_sim/certify/variables through the
# launcher, as examples/certify/compose.yaml does between two containers.
certify_from_image() {
  local n="$name-certify" port code junit
  if ! command -v python3 >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then fail "certify from the image: python3 is missing"; else say "skipped certify from the image: no python3"; fi
    return
  fi
  port=$(free_ports 1)
  containers+=("$n")
  # The command after the image (run() puts its arguments before it).
  if ! "$rt" run -d --name "$n" -p "127.0.0.1:$port:9000" "$legacy_image" certify listen --attach --port 9000 \
    --host 0.0.0.0 --junit /tmp/certify.xml >"$tmp/run.log" 2>&1; then
    cat "$tmp/run.log"
    fail "start certify listen --attach in a container"
    return
  fi
  status=starting
  for _ in $(seq 1 40); do
    status=$(healthcheck_status "$n")
    [ "$status" = healthy ] && break
    sleep 1
  done
  [ "$status" = healthy ] && pass "certify --attach --port 9000 in a container reports healthy" ||
    fail "certify --attach --port 9000 in a container reports $status"
  CERTIFY_URL="http://127.0.0.1:$port" python3 examples/certify/python/with_certify_variables.py \
    python3 examples/certify/python/racedata_client.py >/dev/null 2>"$tmp/python-client.err" &
  local client=$!
  code=$(timeout 120 "$rt" wait "$n" 2>/dev/null | tail -1)
  kill "$client" 2>/dev/null
  wait "$client" 2>/dev/null
  junit=$("$rt" cp "$n:/tmp/certify.xml" - 2>/dev/null | tar -xO 2>/dev/null)
  if [ "$code" = 0 ] && printf '%s' "$junit" | grep -q 'tests="11" failures="0"'; then
    pass "certify listen from the image passes the Python client through --attach (exit 0, JUnit 11 tests, no failure)"
  else
    "$rt" logs "$n" 2>&1 | tail -15 | sed 's/^/    /'
    tail -5 "$tmp/python-client.err" | sed 's/^/    /'
    fail "certify listen from the image: exit '$code', JUnit: $(printf '%s' "$junit" | grep -o '<testsuites[^>]*>' | head -1)"
  fi
}
certify_from_image

# ---- docker/compose.yaml with these images -------------------------------------------------
COMPOSE_RUNTIME=$rt bash "$root/scripts/test-compose.sh" | tee "$tmp/compose.out"
count_output "$tmp/compose.out" "${PIPESTATUS[0]}" test-compose.sh

# ---- examples/certify/compose.yaml: certify from the image grading a client container --------
COMPOSE_RUNTIME=$rt IMAGE_PREFIX=$prefix bash "$root/scripts/test-certify-compose.sh" | tee "$tmp/certify-compose.out"
count_output "$tmp/certify-compose.out" "${PIPESTATUS[0]}" test-certify-compose.sh

# ---- the Testcontainers module (racedata-sim/testcontainers) with these images -----------------
IMAGE_PREFIX=$prefix bash "$root/scripts/test-testcontainers.sh" | tee "$tmp/testcontainers.out"
count_output "$tmp/testcontainers.out" "${PIPESTATUS[0]}" test-testcontainers.sh

suite_end=$(ms)
say "build $(((build_end - suite_start) / 1000)) s, containers and checks $(((suite_end - build_end) / 1000)) s, total $(((suite_end - suite_start) / 1000)) s"
say "$passed passed, $failed failed"
[ "$failed" = 0 ]
