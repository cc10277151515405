import type { CheckInfo } from '../../types';

/** The stream suite's checks as docs/certify.md lists them, with the rule each comes from. */
export const STREAM_CHECKS = {
  authKeySecret: {
    id: 'auth-key-secret',
    required: true,
    rule: 'authenticates with its key and secret (POST /customerapi/authenticate/subscription) and streams with the token it got',
    source: 'interface 4.1 and 5.1-5.3: "Authenticate with 4.1 using the key and secret"',
  },
  tokenWithinDeadline: {
    id: 'token-within-deadline',
    required: true,
    rule: 'sends the token as its first message, within the deadline the Connection message states',
    source: 'interface 4.5: "the user\'s token, sent as the first message within 10 seconds of connecting"',
  },
  ignoresPing: {
    id: 'ignores-ping',
    required: true,
    rule: 'keeps its connection open across several Pings',
    source: 'interface 3 and 6: "Server sends a Ping message; the client ignores it"',
  },
  reconnectAfterClose: {
    id: 'reconnect-after-close',
    required: true,
    rule: 'after the server closes the socket, reconnects and sends a token within 5 s',
    source: 'interface 3: "Disconnect: the client must reconnect and authenticate again"; 5.5',
  },
  reauthOnAuthError: {
    id: 'reauth-on-auth-error',
    required: true,
    rule: 'when its token is refused with AuthenticationError, authenticates again over HTTP and reconnects with the new token',
    source: 'interface 5.4: "After expiry ... the client must authenticate again"; 7.4 AuthenticationError',
  },
  noHotLoop: {
    id: 'no-hot-loop',
    required: true,
    rule: 'while upgrades are refused (503), makes at most 2 connection attempts a second',
    source: "interface 3 and 5.5 (reconnect after a disconnect); the rate is certify's, section 8 shows none",
  },
  detectsSilence: {
    id: 'detects-silent-stream',
    required: true,
    rule:
      'when the server stops sending anything (no Ping, no data) and leaves the socket open, notices, closes it and ' +
      'has a new authenticated session within 3 Ping intervals (RACEDATA_PING_INTERVAL_MS) plus 5 s of the last Ping',
    source:
      'interface 3 and 6: the server sends a Ping "every minute" while the connection is open, so a minute and more ' +
      'without one means the connection is gone; 3: "The client must reconnect and authenticate again"',
  },
  receivesAll: {
    id: 'receives-all',
    required: true,
    rule: 'with --echo stdout, prints the id of every Data message sent while it was connected',
    source: 'interface 1.5 and 6: transient messages are "broadcast once ... not stored or repeated"',
  },
} as const satisfies Record<string, CheckInfo>;
