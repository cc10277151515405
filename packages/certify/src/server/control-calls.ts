import { CertifyError } from '../errors';
import type { ControlCalls } from '../types';
import { OWN_CALL_HEADER } from './traffic-recorder';

export interface ControlCallsOptions {
  /** HTTP base of the certify server. */
  readonly base: string;
  /** The certified user's key: tokens and connections are expired and closed for it alone. */
  readonly user: string;
  readonly ownCallToken: string;
  /** A call that takes longer has failed (a journal wait asks for its own, shorter, timeout). */
  readonly timeoutMs?: number;
}

/**
 * Transports whose requests name their user by bearer token, so a fault rule can be scoped to the
 * certified user: another process on the port (--attach) then never takes the client's fault (a
 * reset meant for the client's next poll). The event stream's upgrade carries no token.
 */
const USER_SCOPED = new Set(['events', 'filtered-events', 'listen', 'stomp']);

/**
 * The control plane as scenarios use it: plain fetch against /_sim/* and the message routes of
 * the certify server, marked as certify's own so the traffic log leaves them out. Every failure
 * is a CertifyError naming the call, for the scenario to report as its check's failure.
 */
export function controlCalls(options: ControlCallsOptions): ControlCalls {
  const { base, user } = options;
  const call = async (
    name: string,
    method: string,
    path: string,
    body?: { type: string; text: string },
  ): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, base), {
        method,
        headers: {
          [OWN_CALL_HEADER]: options.ownCallToken,
          ...(body && { 'content-type': body.type }),
        },
        ...(body && { body: body.text }),
        // Its own server, on loopback: a redirect can only be wrong, and is never followed.
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new CertifyError(
        'CONTROL_CALL_FAILED',
        { call: name, detail: (err as Error).message },
        { cause: err },
      );
    }
    const text = await res.text();
    if (!res.ok) {
      throw new CertifyError('CONTROL_CALL_FAILED', {
        call: name,
        detail: `HTTP ${res.status} ${text.slice(0, 200)}`,
      });
    }
    try {
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      return text;
    }
  };
  const json = (value: unknown) => ({ type: 'application/json', text: JSON.stringify(value) });

  return {
    async postJson(message) {
      const answer = (await call('POST /api/message', 'POST', '/api/message', json(message))) as {
        data?: { event?: { eventId?: number } };
      };
      const eventId = answer?.data?.event?.eventId;
      return typeof eventId === 'number' ? { eventId } : {};
    },
    async inject(channel, durable, xml, payloadKey) {
      const kind = durable ? 'Durable' : 'NonDurable';
      const query = payloadKey === undefined ? '' : `?payloadKey=${encodeURIComponent(payloadKey)}`;
      const path = `/customerapi/channel/${encodeURIComponent(channel)}/${kind}${query}`;
      await call(`POST ${path}`, 'POST', path, { type: 'application/xml; charset=utf-8', text: xml });
    },
    async addFault(rule) {
      const match = rule.match as { transport?: unknown; user?: unknown } | undefined;
      const scoped =
        match !== undefined && match.user === undefined && USER_SCOPED.has(String(match.transport))
          ? { ...rule, match: { ...match, user } }
          : rule;
      const answer = (await call('POST /_sim/faults', 'POST', '/_sim/faults', json(scoped))) as {
        id?: unknown;
      };
      if (typeof answer?.id !== 'string') {
        throw new CertifyError('CONTROL_CALL_FAILED', {
          call: 'POST /_sim/faults',
          detail: 'no rule id in the answer',
        });
      }
      return answer.id;
    },
    async deleteFault(id) {
      await call(`DELETE /_sim/faults/${id}`, 'DELETE', `/_sim/faults/${encodeURIComponent(id)}`);
    },
    async expireTokens() {
      await call('POST /_sim/tokens/expire', 'POST', '/_sim/tokens/expire', json({ user }));
    },
    async closeConnections(code) {
      const answer = (await call(
        'POST /_sim/connections/close',
        'POST',
        '/_sim/connections/close',
        json({ user, ...(code !== undefined && { code }) }),
      )) as { closed?: unknown };
      return typeof answer?.closed === 'number' ? answer.closed : 0;
    },
    async journal(query) {
      const path = `/_sim/journal${query === '' ? '' : `?${query.replace(/^\?/, '')}`}`;
      const answer = (await call(`GET ${path}`, 'GET', path)) as { entries?: unknown };
      return Array.isArray(answer?.entries) ? (answer.entries as Array<Record<string, unknown>>) : [];
    },
  };
}
