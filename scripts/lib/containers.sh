# Sourced by the container test scripts (test-images.sh, test-compose.sh): the two things they
# need from Node before the jest suite runs (the machines have node but not always curl).

# free_ports N: N free TCP ports on 127.0.0.1, one a line (all held at once, so they differ).
free_ports() {
  node -e '
    const net = require("net");
    const servers = Array.from({ length: Number(process.argv[1]) }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", ok)))).then(() => {
      for (const s of servers) console.log(s.address().port);
      for (const s of servers) s.close();
    });' "$1"
}

# wait_health URL KIND MS: 0 once GET URL/health says simulator KIND, 1 (with the last answer on
# stderr) when MS pass first. A container has no event to await from outside, so this polls.
wait_health() {
  node -e '
    const [base, kind, ms] = process.argv.slice(1);
    const deadline = Date.now() + Number(ms);
    let last = "no answer";
    (async () => {
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
          const text = await res.text();
          last = `${res.status} ${text}`;
          if (res.status === 200 && JSON.parse(text).simulator === kind) process.exit(0);
        } catch (err) {
          last = err.cause?.code ?? err.message;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      console.error(`${kind} at ${base} not healthy after ${ms} ms (last: ${last})`);
      process.exit(1);
    })();' "$1" "$2" "$3"
}

# image_jest OUT PATTERN: runs the jest project `images` (test/images) on the files matching
# PATTERN, with the containers' URLs already exported; its output goes to OUT and, indented (so
# the scripts' own PASS and FAIL lines stay the only ones at the margin), to stdout. Returns
# jest's exit code. RACEDATA_IMAGES=1 makes a missing URL fail rather than skip.
image_jest() {
  local out=$1 pattern=$2
  RACEDATA_IMAGES=1 npx jest --selectProjects images --testPathPatterns "$pattern" >"$out" 2>&1
  local code=$?
  sed 's/^/    /' "$out"
  return "$code"
}

# jest_counts OUT: "PASSED FAILED", the test counts of jest's summary line in OUT (0 0 without one).
jest_counts() {
  local line p f
  line=$(grep -E '^Tests:' "$1" | tail -1)
  p=$(sed -nE 's/.* ([0-9]+) passed.*/\1/p' <<<"$line")
  f=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$line")
  echo "${p:-0} ${f:-0}"
}
