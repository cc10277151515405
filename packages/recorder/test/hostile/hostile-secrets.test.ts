/**
 * Issue 30, High 1: an upstream that echoes the key, the secret, the token (or the salt) inside
 * the data, in any form secret-encodings.ts lists, on every transport: not one byte of it is
 * written or logged. Each such message is dropped, counted in the summary and logged once per
 * cause with the credential and the form (never the value); the clean messages around them are
 * written as usual.
 */
import { findSecretsInFiles } from '@racedata/recorder';
import { eventually } from '@racedata/test-support';
import { readLines, tempFolderEachTest } from '../record-process';
import { encodings, HARD_SECRETS } from '../secret-encodings';
import { expectQuietOutput, recordHostile, stopTimed, STOP_LIMIT_MS, summary } from './hostile-record';
import { startHostileUpstream } from './hostile-upstream';

const inTemp = tempFolderEachTest('hostile-secrets-');
const KEY = 'rec-key-4711';
const TOKEN = 'Ech0ed-T0ken-9c1f&"x';
const SALT = 'Team-Salt-2024&<>"';
const CLEAN = 3;

const xmlAttr = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/** Every credential in every encoding, and CLEAN clean values first, in the middle and last. */
function values(credentials: readonly string[]): { echoed: string[]; all: string[] } {
  const echoed = credentials.flatMap((c) => Object.values(encodings).map((encode) => encode(c)));
  const half = Math.floor(echoed.length / 2);
  return { echoed, all: ['clean-1', ...echoed.slice(0, half), 'clean-2', ...echoed.slice(half), 'clean-3'] };
}

test.each([
  ['the secret with a quote and a backslash', HARD_SECRETS[0] as string, false],
  ['a secret with &<>, quotes and non-ASCII, anonymised with a salt', HARD_SECRETS[1] as string, true],
])(
  '%s, echoed in every form on every transport, reaches no byte written or logged',
  async (_name, secret, anonymise) => {
    const credentials = [KEY, secret, TOKEN, ...(anonymise ? [SALT] : [])];
    const { echoed, all } = values(credentials);
    const up = await startHostileUpstream({
      token: TOKEN,
      data: {
        events: all.map((note) => ({ note })),
        listen: all.map((note) => `<RaceDay note="${xmlAttr(note)}"/>`),
        stream: all.map((note) => ({ channel: 'TimeToStartTrot', date: '2026-05-11', payload: { note } })),
        stomp: all.map((note, i) =>
          JSON.stringify({
            channel: 'TimeToStart',
            payloadKey: `k${i}`,
            payload: `<TimeToStart note="${xmlAttr(note)}"/>`,
          }),
        ),
      },
    });
    const out = inTemp('out');
    const extra = anonymise ? ['--anonymise', '--salt', SALT] : [];
    const rec = recordHostile(up, out, ['--from-event-id', '0', ...extra], { key: KEY, secret });
    // The last clean value comes after every echo: once each transport has written it, every
    // echo has been dealt with.
    const last = (folder: 'json' | 'legacy') =>
      readLines(out, folder).filter((line) => JSON.stringify(line).includes('clean-3'));
    await eventually(
      async () => last('json').length === 2 && last('legacy').length === 2,
      'each transport to write its last clean message',
      15_000,
    );
    const stop = await stopTimed(rec);
    const secrets = [...credentials, `${KEY}:${secret}`];
    expect(await findSecretsInFiles(out, secrets)).toEqual([]);
    expectQuietOutput(rec, secrets);
    expect(stop.code).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_LIMIT_MS);
    expect(summaryWithheld(summary(rec))).toBe(4 * echoed.length);
    // Each transport wrote its clean values and nothing else: 2 JSON and 2 legacy transports.
    expect([readLines(out, 'json').length, readLines(out, 'legacy').length]).toEqual([2 * CLEAN, 2 * CLEAN]);
    expect(rec.stderr()).toContain('"credential":"secret"');
    for (const line of [...readLines(out, 'json'), ...readLines(out, 'legacy')])
      expect(JSON.stringify(line)).toMatch(/clean-\d/);
  },
  60_000,
);

function summaryWithheld(text: string): number | undefined {
  const n = /(\d+) holding a credential/.exec(text)?.[1];
  return n === undefined ? undefined : Number(n);
}
