import { post } from '../harness/http';
import { inParallel } from '../harness/schedule';
import { check } from '../types';
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
    const filler = 'x'.repeat(1024 * 1024 - 64);
    const statuses: Record<number, number> = {};
    await inParallel(concurrency, posts, async (n) => {
      const path = `/customerapi/channel/id/Durable?payloadKey=flood-${n}`;
      const { status } = await post(port, path, `<m n="${n}">${filler}</m>`, 'text/xml').catch(() => ({
        status: 0,
      }));
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    const accepted = statuses[200] ?? 0;
    const answers = `${accepted} (answers: ${JSON.stringify(statuses)})`;
    return {
      checks: [check('posts accepted', `${posts}`, answers, accepted === posts)],
      rssBudget: {
        mb: QUEUE_MAX_MB + INFLIGHT_MAX_MB,
        why: `LEGACY_QUEUE_MAX_BYTES=${QUEUE_MAX_MB} MiB queued and MAX_INFLIGHT_BODY_BYTES (${INFLIGHT_MAX_MB} MiB by default) of bodies being received`,
      },
    };
  },
};
