/** What the legacy fault and control-plane tests share: a second user and the /_sim/* calls they make. */
import { UserTable } from '@racedata/core';
import { LEGACY_USERS, legacyChannelCatalog } from '../src/description';
import { controlJson, post, until, type Running } from './support';

// A second customer, so a rule for one user can be shown to leave the other alone.
export const OTHER = 'otheruser';
export const OTHER_TOKEN = 'b3RoZXJ1c2Vy';
export const twoUsers = () =>
  UserTable.fromJSON(
    [...LEGACY_USERS, { key: OTHER, secret: 'otherpassword', token: OTHER_TOKEN, channels: '*' }],
    legacyChannelCatalog(),
  );

export interface Rule {
  id: string;
  fired: number;
  times?: number;
  forMs?: number;
  match: Record<string, unknown>;
  action: Record<string, unknown>;
}
export interface JournalPage {
  entries: Array<Record<string, unknown>>;
  nextSince: number;
}
export interface State {
  users: Record<string, { sockets: number; heldPolls: number; queueDepth: number }>;
}

export const addRule = (s: Running, body: unknown) => controlJson<Rule>(s.base, 'POST', 'faults', body);
export const rules = async (s: Running) =>
  (await controlJson<{ rules: Rule[] }>(s.base, 'GET', 'faults')).rules;
export const state = (s: Running) => controlJson<State>(s.base, 'GET', 'state');
export const journal = (s: Running, query: string) =>
  controlJson<JournalPage>(s.base, 'GET', `journal?${query}`);
/** Answered as soon as `count` matching entries exist; fails the test on the 408 of a timeout. */
export const journalWait = (s: Running, query: string) =>
  controlJson<JournalPage>(s.base, 'GET', `journal/wait?${query}&timeout=5000`);
export const advance = (s: Running, ms: number) =>
  controlJson<{ timersFired: number }>(s.base, 'POST', 'clock/advance', { ms });
export const inject = async (
  s: Running,
  channel: string,
  durability: 'Durable' | 'NonDurable',
  key: string,
) => {
  const res = await post(
    s.base,
    `/customerapi/channel/${channel}/${durability}?payloadKey=${key}`,
    `<${channel}/>`,
  );
  expect(res.status).toBe(200);
};
/** A request that reached a rule: no journal entry marks it, so ask until `fired` says so. */
export const firedOnce = (s: Running, id: string) =>
  until(async () => (await rules(s)).find((r) => r.id === id)?.fired === 1, `rule ${id} to fire`);

/** Tracks whether a request has been answered yet, without awaiting it. */
export function pending<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  return { promise: tracked, settled: () => settled };
}
