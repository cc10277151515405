import { ControlClient } from './control-client';
import type { InjectOptions, InjectResult } from './control-types';

/** The legacy simulator's STOMP-over-WebSocket endpoint, below a base URL. */
export const STOMP_PATH = '/api/v1/channels/connect';

/**
 * The legacy simulator's control client: the shared control plane plus XML injection and the
 * STOMP endpoint's URL.
 *
 * ```ts
 * const legacy = new LegacyControlClient('http://127.0.0.1:8080');
 * await legacy.inject('<race id="1"/>', { payloadKey: 'race-1' });
 * ```
 */
export class LegacyControlClient extends ControlClient {
  /** `ws://…/api/v1/channels/connect` under this client's base URL (a sandbox's included). */
  get stompUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}${STOMP_PATH}`;
  }

  /**
   * POST /customerapi/channel/{channel}/Durable|NonDurable?payloadKey=: the XML goes to every
   * user (channel `id`, the default) or a channel's subscribers, queued for the long poll
   * (durable, the default) or sent to live STOMP sessions.
   */
  async inject(xml: string, options: InjectOptions = {}): Promise<InjectResult> {
    const channel = encodeURIComponent(options.channel ?? 'id');
    const answer = await this.json<{ data: InjectResult }>({
      method: 'POST',
      path: `/customerapi/channel/${channel}/${options.durable === false ? 'NonDurable' : 'Durable'}`,
      query: { payloadKey: options.payloadKey },
      body: xml,
      contentType: 'application/xml; charset=utf-8',
      control: false,
    });
    return answer.data;
  }
}
