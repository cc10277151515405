import type { OutgoingFrame, StompHeaders, StompVersion } from '@racedata/core';

export interface Subscription {
  /** Absent for a STOMP 1.0 SUBSCRIBE without id; its MESSAGEs then carry no `subscription`. */
  readonly id: string | undefined;
  readonly destination: string;
  /** False for destinations that never receive anything (accepted so such clients keep working). */
  readonly delivers: boolean;
}

/** Why a SUBSCRIBE or UNSUBSCRIBE was refused: the ERROR frame's `message` and body. */
export interface SubscriptionProblem {
  readonly message: string;
  readonly details: string;
}

/** The subscriptions of one STOMP connection, keyed by id (or destination for id-less 1.0 ones). */
export class StompSubscriptions {
  private readonly byKey = new Map<string, Subscription>();

  constructor(
    private readonly destinations: readonly string[],
    private readonly maxSubscriptions: number,
  ) {}

  add(headers: StompHeaders, version: StompVersion): Subscription | SubscriptionProblem {
    const { id, destination } = headers;
    if (destination === undefined) {
      return { message: 'missing destination', details: 'SUBSCRIBE requires a destination header' };
    }
    if (id === undefined && version !== '1.0') {
      return { message: 'missing id', details: `SUBSCRIBE requires an id header in STOMP ${version}` };
    }
    const key = id ?? destination;
    if (this.byKey.has(key)) {
      return { message: 'duplicate subscription', details: `subscription id ${key} is already in use` };
    }
    // Every subscription gets its own copy of each message, so their number bounds the fan-out.
    if (this.byKey.size >= this.maxSubscriptions) {
      return {
        message: 'too many subscriptions',
        details: `a session may hold at most ${this.maxSubscriptions} subscriptions (STOMP_MAX_SUBSCRIPTIONS)`,
      };
    }
    // A destination that delivers is kept as the configured string, so every session's MESSAGE
    // frames name the same string object (message-frames.ts compares it once per session).
    const known = this.destinations.find((d) => d === destination);
    const subscription = { id, destination: known ?? destination, delivers: known !== undefined };
    this.byKey.set(key, subscription);
    return subscription;
  }

  /** STOMP 1.0 may name the subscription by destination; an unknown one is ignored. */
  remove(headers: StompHeaders, version: StompVersion): SubscriptionProblem | undefined {
    const key = headers.id ?? (version === '1.0' ? headers.destination : undefined);
    if (key === undefined) return { message: 'missing id', details: 'UNSUBSCRIBE requires an id header' };
    this.byKey.delete(key);
    return undefined;
  }

  delivering(): Subscription[] {
    return [...this.byKey.values()].filter((s) => s.delivers);
  }
}

export function isProblem(
  value: Subscription | SubscriptionProblem | undefined,
): value is SubscriptionProblem {
  return value !== undefined && 'message' in value;
}

/**
 * A MESSAGE frame with the headers STOMP clients rely on (subscription, message-id,
 * destination); the body is the JSON message.
 */
export function messageFrame(subscription: Subscription, messageId: string, body: string): OutgoingFrame {
  const headers: Array<[string, string]> = [];
  if (subscription.id !== undefined) headers.push(['subscription', subscription.id]);
  headers.push(
    ['message-id', messageId],
    ['destination', subscription.destination],
    ['content-type', 'application/json'],
    ['content-length', String(Buffer.byteLength(body, 'utf8'))],
  );
  return { command: 'MESSAGE', headers, body };
}
