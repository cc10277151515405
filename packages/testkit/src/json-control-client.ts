import { ControlClient } from './control-client';
import type { EventInput, PostResult, SeedResult } from './control-types';
import { expectJson } from './http-call';

/** The JSON simulator's WebSocket endpoint, below a base URL. */
export const EVENT_STREAM_PATH = '/customerapi/event-stream';

/**
 * The JSON simulator's control client: the shared control plane plus putting events in
 * (POST /api/message, one at a time; POST /_sim/events, in bulk) and the event stream's URL.
 *
 * ```ts
 * const json = new JsonControlClient('http://127.0.0.1:3000');
 * await json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { race: 1 } });
 * ```
 */
export class JsonControlClient extends ControlClient {
  /** `ws://…/customerapi/event-stream` under this client's base URL (a sandbox's included). */
  get eventStreamUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}${EVENT_STREAM_PATH}`;
  }

  /** POST /api/message: stored (durable) or broadcast (transient) by channel. */
  async post(message: EventInput): Promise<PostResult> {
    const answer = await this.json<{ data: PostResult }>(
      { method: 'POST', path: '/api/message', json: message, control: false },
      [201, 202],
    );
    return answer.data;
  }

  /**
   * POST /_sim/events: stores every event (durable channels only) in one request, all or
   * nothing, as set-up rather than traffic (no journal entries). Events are sent as NDJSON, one
   * JSON.stringify'd POST /api/message body a line; a string is sent as it is, already NDJSON.
   */
  async seed(events: Iterable<EventInput> | string): Promise<SeedResult> {
    const body =
      typeof events === 'string' ? events : Array.from(events, (event) => JSON.stringify(event)).join('\n');
    const answer = await this.send({
      method: 'POST',
      path: '/_sim/events',
      body,
      contentType: 'application/x-ndjson',
      control: true,
    });
    return expectJson<SeedResult>(answer, [201]);
  }
}
