/**
 * Property tests draw new cases on every run, and a failing draw prints its seed and path to
 * replay. In CI (`CI` set, as `.ci/run` sets it) every run draws the same cases instead, so a
 * landing never fails on a case its change did not make reachable; `FAST_CHECK_SEED` picks
 * another fixed seed (to replay a run, or to explore in CI), and `npm test` elsewhere keeps
 * exploring new cases every run.
 */
import fc from 'fast-check';

const seed = process.env.FAST_CHECK_SEED ?? (process.env.CI ? '20261128' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
