import { createHash } from 'node:crypto';
import { Backoff, pause, retryAfterMs } from './backoff';
import { failureReason, requestSignal, requestText } from './http-client';
import type { TransportContext } from './transport-context';
import { parseListenBody } from './upstream-messages';
import { StoppedError } from './upstream-session';
import { isRecorderError } from './errors';

function xmlSha(xml: string): string {
  return createHash('sha256').update(xml).digest('hex').slice(0, 32);
}

/**
 * GET /customerapi/channels/listen (interface 4.2): one XML document per answer, the next request
 * at once. The upstream keeps each user's queue and takes a message off it only once the client
 * has shown it read the answer (its next request on the connection); when the connection broke
 * first, the same message comes again. So an answer identical to the last one written, right
 * after a failure or a restart, is that message again and is skipped; an identical answer in an
 * unbroken run is a message of its own.
 *
 * The answer names no channel and no payloadKey, so its line has channel `id` (every user, the
 * vendor's injection example) and an empty payloadKey: a replay delivers it to every user.
 */
export class ListenPoller {
  private readonly backoff = new Backoff();
  /** The XML of the last line written, while the run since it is unbroken or not. */
  private last: { sha: string; broken: boolean } | undefined;

  constructor(
    private readonly ctx: TransportContext,
    resumeSha: string | undefined,
  ) {
    if (resumeSha !== undefined) this.last = { sha: resumeSha, broken: true };
  }

  async run(): Promise<void> {
    const { signal } = this.ctx;
    while (!signal.aborted) {
      try {
        await this.listenOnce();
      } catch (err) {
        if (err instanceof StoppedError || signal.aborted) return;
        if (isRecorderError(err)) throw err;
        this.broken(failureReason(err));
        await pause(this.ctx.clock, this.backoff.next(), signal);
      }
    }
  }

  private broken(reason: string, status?: number): void {
    if (this.last) this.last.broken = true;
    this.ctx.stats.retries++;
    this.ctx.logger.warn({ transport: 'listen', reason, status }, 'listen request failed; retrying');
  }

  private async listenOnce(): Promise<void> {
    const { session, fetch, signal, clock, sink } = this.ctx;
    const token = await session.token();
    const answer = await requestText(
      fetch,
      `${session.base}/customerapi/channels/listen`,
      {
        headers: { authorization: `Bearer ${token}` },
        signal: requestSignal(signal, this.ctx.requestTimeoutMs),
      },
      this.ctx.maxMessageBytes,
    );
    if (answer.status === 204) return;
    if (answer.status === 200) {
      this.backoff.reset();
      const xml = parseListenBody(answer.body);
      if (!xml.ok) {
        sink.malformed('listen', xml.reason);
        return;
      }
      const sha = xmlSha(xml.value);
      if (this.last?.broken && this.last.sha === sha) {
        sink.counts.duplicates++;
        this.last.broken = false;
        this.ctx.logger.info({ transport: 'listen' }, 'skipped a listen message the upstream sent again');
        return;
      }
      const line = {
        at: sink.arrival(),
        delivery: 'durable' as const,
        channel: 'id',
        payloadKey: '',
        xml: xml.value,
      };
      if (sink.legacy('listen', line, { xmlSha: sha, source: session.base }))
        this.last = { sha, broken: false };
      return;
    }
    if (answer.status === 401) {
      this.ctx.stats.reauthentications++;
      if (this.last) this.last.broken = true;
      session.refused(token);
      return;
    }
    const wait = this.backoff.next(retryAfterMs(answer.headers.get('retry-after'), clock.now()));
    this.broken(`HTTP ${answer.status}`, answer.status);
    await pause(clock, wait, signal);
  }
}
