import { check } from '../types';
import http from 'node:http';
import { httpRequest } from '../harness/http';
import type { Phase } from './config';

/** The byte cap the phase runs the legacy simulator with: well under what the flood sends. */
const QUEUE_MAX_MB = 64;
/** MAX_INFLIGHT_BODY_BYTES's default: what the simulator holds of bodies still arriving. */
const INFLIGHT_MAX_MB = 64;

/**
 * 8. Durable posts of just under MAX_BODY_BYTES (1 MiB), each different so nothing is shared,
 * from a few clients at once: what LEGACY_QUEUE_MAX_BYTES holds RSS to.
 */
export const legacyFlood: Phase = {
  id: 8,
  name: 'legacy-flood',
  title: 'a flood of 1 MB legacy posts',
  simulators: ['legacy'],
  env: { LEGACY_QUEUE_MAX_BYTES: String(QUEUE_MAX_MB * 1024 * 1024) },
  async run(sims, config) {
    const { posts, concurrency } = config.legacyFlood;
    const port = sims.legacy?.port as number;
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const filler = 'x'.repeat(1024 * 1024 - 64);
    const statuses = new Map<number, number>();
    let next = 0;
    const client = async () => {
      while (next < posts) {
        const n = next++;
        const { status } = await httpRequest({
          port,
          method: 'POST',
          path: `/customerapi/channel/id/Durable?payloadKey=flood-${n}`,
          headers: { 'content-type': 'text/xml' },
          body: `<m n="${n}">${filler}</m>`,
          agent,
          timeoutMs: 30_000,
        }).catch(() => ({ status: 0 }));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    agent.destroy();
    const accepted = statuses.get(200) ?? 0;
    return {
      checks: [
        check(
          'posts accepted',
          `${posts}`,
          `${accepted} (answers: ${JSON.stringify(Object.fromEntries(statuses))})`,
          accepted === posts,
        ),
      ],
      rssBudget: {
        mb: QUEUE_MAX_MB + INFLIGHT_MAX_MB,
        why: `LEGACY_QUEUE_MAX_BYTES=${QUEUE_MAX_MB} MiB queued and MAX_INFLIGHT_BODY_BYTES (${INFLIGHT_MAX_MB} MiB by default) of bodies being received`,
      },
    };
  },
};
