/**
 * tolerates-unknown's grading, on virtual time with a made-up suite: each unusual message is
 * followed by a normal one that must arrive and, with --echo stdout, be printed.
 */
import { unknownScenario, type UnknownRun } from '../../src/suites/unknown/cases';
import type { CheckResult } from '../../src/types';
import { FakeContext } from './fake-context';

const note = (at: number, what: string) => ({ at: new Date(at).toISOString(), what });

/** Two cases; the normal messages are keys n-0, n-1 and reach the client unless `lost` says not. */
function scenario(lost?: number) {
  return unknownScenario({
    suite: 'stream',
    describe: (normal) => normal.key,
    cases: ['an odd one', 'a stranger one'].map((name) => ({
      name,
      send: async (ctx) => ({ evidence: [note(ctx.now(), `sent ${name}`)] }),
    })),
    async start(ctx): Promise<UnknownRun> {
      return {
        sendNormal: async (n) => ({ key: `n-${n}`, at: ctx.now(), evidence: note(ctx.now(), `sent n-${n}`) }),
        reached: async (normal) => (normal.key === `n-${lost}` ? { missed: 'found its session closed' } : {}),
        finish: async () => undefined,
      };
    },
  });
}

async function one(fake: FakeContext, lost?: number): Promise<CheckResult> {
  const [result] = await scenario(lost).run(fake.context());
  if (!result) throw new Error('no result');
  return result;
}

describe('tolerates-unknown grading (virtual time)', () => {
  it('passes without --echo when every normal message reached the client, saying what echo would add', async () => {
    const result = await one(new FakeContext());
    expect(result.status).toBe('pass');
    expect(result.summary).toBe(
      'kept its connection through 2 messages it has never seen (an odd one; a stranger one); run with --echo ' +
        'stdout to show it also processed what came next',
    );
  });

  it('fails on the first case after which the normal message did not reach it', async () => {
    const result = await one(new FakeContext(), 1);
    expect(result).toMatchObject({
      status: 'fail',
      summary: 'after a stranger one, the normal message after it (n-1) found its session closed',
    });
  });

  it('with --echo, fails a client that never printed the normal message, and passes one that did', async () => {
    const silent = new FakeContext();
    silent.echo = true;
    expect((await one(silent)).summary).toBe(
      'after an odd one, it never printed n-0 (the normal message sent after it) within 3.0 s',
    );
    const printing = new FakeContext()
      .after(5, { kind: 'client-line', line: 'n-0' })
      .after(10, { kind: 'client-line', line: 'n-1' });
    printing.echo = true;
    expect(await one(printing)).toMatchObject({
      status: 'pass',
      summary:
        'printed the normal message sent after each of 2 messages it has never seen (an odd one; a stranger one)',
    });
  });

  it('fails a client that exits after a case, saying after which', async () => {
    const exiting = new FakeContext().after(1, { kind: 'client-exit', code: 1, signal: null });
    exiting.echo = true;
    const result = await one(exiting);
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(/^exited with code 1 0\.0 s after certify sent an odd one$/);
  });
});
