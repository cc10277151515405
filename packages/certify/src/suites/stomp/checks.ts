import type { CheckInfo } from '../../types';

/** The stomp suite's checks as docs/certify.md lists them, with the rule each comes from. */
export const STOMP_CHECKS = {
  authKeySecret: {
    id: 'auth-key-secret',
    required: true,
    rule: 'authenticates with its key and secret (POST /customerapi/authenticate/subscription, or POST /authenticate with Basic) and connects with the token it got',
    source: 'interface 4.1 and 5.1-5.3: "Authenticate with 4.1 using the key and secret"',
  },
  connectsWithBearer: {
    id: 'connects-with-bearer',
    required: true,
    rule: 'sends `Authorization: Bearer <token>` on the WebSocket upgrade request (the CONNECT frame carries no credentials)',
    source:
      'interface 4 and 5.3: "Every authenticated endpoint requires the header authorization"; the vendor\'s STOMP endpoint takes it on the upgrade',
  },
  subscribes: {
    id: 'subscribes',
    required: true,
    rule: 'subscribes to the publish destination (RACEDATA_STOMP_DESTINATION), so a NonDurable message reaches it',
    source:
      'interface 4.6: "NonDurable content is delivered as a WebSocket message"; destination /customerapi/channels/user/topic/publish',
  },
  heartBeats: {
    id: 'heart-beats',
    required: true,
    rule: 'keeps the heart-beats it negotiated in CONNECT: never timed out over three intervals',
    source: 'STOMP 1.2 "Heart-beating" (the CONNECTED frame states the server\'s heart-beat); interface 4.6',
  },
  detectsSilence: {
    id: 'detects-silent-session',
    required: true,
    rule:
      'when the server stops heart-beating and sending and leaves the connection open, drops the session and is ' +
      'subscribed again within 2 of the server heart-beat intervals it negotiated plus 5 s; `warn` when it negotiated none',
    source:
      'STOMP 1.2 "Heart-beating": a side that expects heart-beats "can consider the connection dead" when none come; ' +
      'interface 5.5: after a disconnect "the same process repeats"',
  },
  reconnectAfterClose: {
    id: 'reconnect-after-close',
    required: true,
    rule: 'after the server closes the session, reconnects and subscribes again within 5 s',
    source:
      'interface 3 and 5.5: after a disconnect "the same process repeats"; transient data is not replayed (1.5)',
  },
  noHotLoop: {
    id: 'no-hot-loop',
    required: true,
    rule: 'while upgrades are refused (503), makes at most 2 connection attempts a second',
    source: "interface 5.5 (reconnect after a disconnect); the rate is certify's, section 8 shows none",
  },
  receivesAll: {
    id: 'receives-all',
    required: true,
    rule: 'with --echo stdout, prints the payloadKey of every MESSAGE sent while it was subscribed',
    source: 'interface 1.5 and 4.6: transient messages are "broadcast once ... not stored or repeated"',
  },
} as const satisfies Record<string, CheckInfo>;
