# Sourced by the container test scripts (test-images.sh, test-compose.sh).
# unavailable NAME REASON NOT_TESTED NEEDS: the tool a script needs is not here. In CI (CI=true)
# that is a failure, since the tests it would run did not run; elsewhere it is a skip.
unavailable() {
  printf '%s\n' "$1: $2"
  if [ "${CI:-}" = true ]; then
    printf '%s\n' "$1: FAIL (CI=true): $3"
    exit 1
  fi
  printf '%s\n' "$1: SKIPPED: $4"
  exit 0
}
