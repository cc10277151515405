#!/usr/bin/env python3
"""A race-data long-poll consumer in Python, standard library only: the way we recommend writing
one, and what `racedata-sim certify events` and `certify listen` pass in full, here through
`--attach` (certify does not start it):

    racedata-sim certify events --attach --port 9000          # prints the RACEDATA_* variables
    RACEDATA_SUITE=events RACEDATA_URL=... python3 racedata_client.py

It reads RACEDATA_URL, RACEDATA_KEY, RACEDATA_SECRET, RACEDATA_SUITE (`events` or `listen`) and
RACEDATA_LONG_POLL_MS. It prints each eventId (events) or XML document (listen) it processed on
stdout, one a line, and everything else on stderr. Sections are those of the interface
(race-data-interface.md).
"""

import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

# A refused or reset connection (a server restarting): try again at most twice a second, and
# never give up.
RETRY_AFTER_NETWORK_ERROR_S = 0.5
# 503 and 429 say when to come back (Retry-After); without it, wait a second.
DEFAULT_RETRY_S = 1.0


def log(line):
    sys.stderr.write("%s %s\n" % (time.strftime("%H:%M:%S"), line))
    sys.stderr.flush()


def env(name, default=None):
    value = os.environ.get(name, default)
    if value is None or value == "":
        log("%s is not set: start this client with the variables racedata-sim certify prints" % name)
        sys.exit(2)
    return value


def poll_timeout_s():
    """The long-poll limit (production's simulators: 60 s, interface 8) plus a margin: a poll
    with no answer past it is lost (a proxy or a half-dead server), so give up on it."""
    try:
        limit_ms = float(os.environ.get("RACEDATA_LONG_POLL_MS", "60000"))
    except ValueError:
        limit_ms = 60000.0
    if limit_ms <= 0:
        limit_ms = 60000.0
    return (limit_ms + max(2000.0, limit_ms / 2)) / 1000.0


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body


def request(method, url, headers=None, body=None, timeout=None):
    """One HTTP request; an HTTP error status is an answer, not an exception."""
    req = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return Answer(res.status, res.headers, res.read())
    except urllib.error.HTTPError as err:
        with err:
            return Answer(err.code, err.headers, err.read())


def authenticate(base, key, secret):
    """Interface 4.1 and 5: key and secret in, the token back in the `authorization` header."""
    body = json.dumps({"key": key, "secret": secret}).encode("utf-8")
    while True:
        try:
            answer = request(
                "POST",
                base + "/customerapi/authenticate/subscription",
                {"content-type": "application/json"},
                body,
                timeout=10,
            )
            match = re.match(r"^Bearer\s+(\S+)$", answer.headers.get("authorization") or "", re.I)
            if answer.status == 200 and match:
                return match.group(1)
            log("authentication answered %d" % answer.status)
        except (OSError, ValueError) as err:
            log("authentication failed (%s)" % err)
        time.sleep(1.0)


def retry_after_s(answer):
    try:
        return min(float(answer.headers.get("retry-after")), 60.0)
    except (TypeError, ValueError):
        return DEFAULT_RETRY_S


def consume(suite, on_message):
    base = env("RACEDATA_URL").rstrip("/")
    key = env("RACEDATA_KEY")
    secret = env("RACEDATA_SECRET")
    token = authenticate(base, key, secret)
    last_event_id = 0
    while True:
        if suite == "events":
            # 2.5: the client remembers the last eventId received and sends it as lastEventId.
            url = "%s/customerapi/events?lastEventId=%d" % (base, last_event_id)
        else:
            url = base + "/customerapi/channels/listen"
        try:
            answer = request("GET", url, {"authorization": "Bearer " + token}, timeout=poll_timeout_s())
        except (OSError, ValueError) as err:
            # Refused, reset, or no answer within the timeout: ask again, from the same place.
            log("poll failed (%s); retrying" % (getattr(err, "reason", None) or err))
            time.sleep(RETRY_AFTER_NETWORK_ERROR_S)
            continue
        if answer.status == 200:
            # 4.3 and 4.2: after data, ask again at once (with hasMore the rest is waiting).
            try:
                if suite == "events":
                    page = json.loads(answer.body.decode("utf-8"))["data"]
                    # Fields, channels and payloads it does not know are passed on as they are.
                    for event in page["events"]:
                        on_message(str(event["eventId"]))
                        last_event_id = max(last_event_id, int(event["eventId"]))
                else:
                    # The body is a JSON string holding one XML document (decisions.md).
                    on_message(" ".join(json.loads(answer.body.decode("utf-8")).split()))
            except (ValueError, KeyError, TypeError) as err:
                # An answer it cannot read is the server's fault: back off as on a 5xx.
                log("unreadable answer from %s (%s)" % (url, err))
                time.sleep(DEFAULT_RETRY_S)
        elif answer.status == 204:
            # The hold time passed with nothing new: ask again at once.
            continue
        elif answer.status == 401:
            # 5.4: an expired token; authenticate again and carry on from the same place.
            token = authenticate(base, key, secret)
        else:
            log("%s answered %d" % (url, answer.status))
            time.sleep(retry_after_s(answer))


def main():
    suite = env("RACEDATA_SUITE")
    if suite not in ("events", "listen"):
        log("RACEDATA_SUITE=%s: this client consumes events or listen" % suite)
        sys.exit(2)

    def printed(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        consume(suite, printed)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
