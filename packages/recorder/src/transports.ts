/** The four ways the recorder reads the customer interface. */
export type Transport = 'events' | 'stream' | 'listen' | 'stomp';

export const TRANSPORTS: readonly Transport[] = ['events', 'stream', 'listen', 'stomp'];

/** Which simulator (and so which recordings folder) a transport belongs to. */
export const UPSTREAM_OF: Readonly<Record<Transport, 'json' | 'legacy'>> = {
  events: 'json',
  stream: 'json',
  listen: 'legacy',
  stomp: 'legacy',
};
