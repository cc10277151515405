import { keepSessionOpen } from './session-loop';
import { StompConnection } from './stomp-connection';
import type { TransportContext } from './transport-context';
import { StoppedError } from './upstream-session';

export { STOMP_DESTINATION, STOMP_PATH } from './stomp-connection';

/**
 * The legacy track-signal subscription: one STOMP session at a time (stomp-connection.ts), and
 * after it ends, for whatever reason, the next one with back-off; a refused upgrade (401) hands
 * the token back so the next attempt authenticates anew.
 */
export class StompRecorderClient {
  private connection: StompConnection | undefined;

  constructor(private readonly ctx: TransportContext) {}

  run(): Promise<void> {
    return keepSessionOpen(this.ctx, {
      transport: 'stomp',
      closedMessage: 'STOMP session closed; reconnecting',
      session: async () => {
        const token = await this.ctx.session.token();
        if (this.ctx.signal.aborted) throw new StoppedError();
        const connection = new StompConnection(this.ctx, token);
        this.connection = connection;
        const ended = await connection.ended;
        this.connection = undefined;
        return { gotGoing: ended.subscribed, retryAfter: ended.retryAfter };
      },
      stop: () => this.connection?.stop(),
    });
  }

  /** Cuts the session in progress at once: the recorder's last resort when a stop takes too long. */
  terminate(): void {
    this.connection?.terminate();
  }
}
