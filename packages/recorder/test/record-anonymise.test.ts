import { eventually } from '@racedata/test-support';
import {
  expectNoSecret,
  injectXml,
  postJsonMessage,
  readLines,
  recordConnected,
  startPair,
  tempFolderEachTest,
} from './record-process';

const inTemp = tempFolderEachTest('record-anonymise-');

const HORSE = 'Fjällvågen Lady';
const DRIVER = 'Jonas Åsmyr';

describe('record --anonymise', () => {
  test('names are replaced consistently across both simulators and none is left', async () => {
    const pair = await startPair();
    const out = inTemp('out');
    const rec = await recordConnected(pair, out, ['--anonymise', '--salt', 'team-salt']);
    await postJsonMessage(pair, {
      channel: 'ResultTrot',
      date: '2026-05-11',
      trackId: 5,
      raceNr: 1,
      payload: { placings: [{ place: 1, startNr: 7, horse: HORSE, driver: DRIVER }] },
    });
    await injectXml(
      pair,
      'id',
      'Durable',
      'r1',
      `<Result raceNr="1"><Placings><Placing place="1" startNr="7" horse="${HORSE}" driver="${DRIVER}"/></Placings></Result>`,
    );
    await eventually(
      async () => readLines(out, 'json').length === 1 && readLines(out, 'legacy').length === 1,
      'both',
      10_000,
    );
    expect(await rec.interrupt()).toBe(0);
    const json = JSON.stringify(readLines(out, 'json'));
    const legacy = JSON.stringify(readLines(out, 'legacy'));
    for (const name of [HORSE, DRIVER]) expect(json + legacy).not.toContain(name);
    const pseudonym = (readLines(out, 'json')[0]?.payload as { placings: Array<{ horse: string }> })
      .placings[0]?.horse;
    expect(pseudonym).toEqual(expect.any(String));
    expect(readLines(out, 'legacy')[0]?.xml).toContain(`horse="${pseudonym}"`);
    expect(rec.stdout()).toMatch(/anonymised \d+ messages: replaced/);
    expectNoSecret(out, [rec.stdout(), rec.stderr()]);
    // The salt chooses the pseudonyms: with it, names could be guessed back, so it is a secret too.
    expect(
      readLines(out, 'json')
        .concat(readLines(out, 'legacy'))
        .some((l) => JSON.stringify(l).includes('team-salt')),
    ).toBe(false);
  }, 30_000);
});
