/** WebSocket close codes both simulators send (RFC 6455 section 7.4.1). */
export const WS_CLOSE = {
  NORMAL: 1000,
  /** Server shutdown. */
  GOING_AWAY: 1001,
  /** STOMP: the server closes right after an ERROR frame. */
  PROTOCOL_ERROR: 1002,
  /** A failed authentication, a session limit, a missed heart-beat. */
  POLICY_VIOLATION: 1008,
} as const;

/**
 * Real time (never the injected clock) a peer gets to finish a close handshake, and a response
 * in flight gets to finish, before its socket is cut at shutdown: a client that never answers
 * must not hold up close() or SIGTERM, and a container must stop in well under a second.
 */
export const CLOSE_GRACE_MS = 250;
