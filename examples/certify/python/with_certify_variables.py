#!/usr/bin/env python3
"""Runs a command with the RACEDATA_* variables of a certification waiting for it
(`racedata-sim certify SUITE --attach`), read from GET <CERTIFY_URL>/_sim/certify/variables: for a
client in a container of its own, which cannot see what certify printed. Standard library only.

    CERTIFY_URL=http://certify:9000 python3 with_certify_variables.py python3 racedata_client.py

certify answers with addresses on the host it was reached by (RACEDATA_URL=http://certify:9000).
It waits up to CERTIFY_WAIT_S seconds (default 60) for certify to answer.
"""

import os
import sys
import time
import urllib.error
import urllib.request


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: with_certify_variables.py COMMAND [ARGS...]\n")
        sys.exit(2)
    base = os.environ.get("CERTIFY_URL", "").rstrip("/")
    if not base:
        sys.stderr.write("CERTIFY_URL is not set (where racedata-sim certify --attach serves)\n")
        sys.exit(2)
    deadline = time.time() + float(os.environ.get("CERTIFY_WAIT_S", "60"))
    while True:
        try:
            with urllib.request.urlopen(base + "/_sim/certify/variables", timeout=5) as res:
                lines = res.read().decode("utf-8").splitlines()
            break
        except (OSError, ValueError) as err:
            if time.time() >= deadline:
                sys.stderr.write("no variables from %s: %s\n" % (base, err))
                sys.exit(1)
            time.sleep(0.5)
    env = dict(os.environ)
    for line in lines:
        name, _, value = line.partition("=")
        if name.startswith("RACEDATA_"):
            env[name] = value
    os.execvpe(sys.argv[1], sys.argv[1:], env)


if __name__ == "__main__":
    main()
