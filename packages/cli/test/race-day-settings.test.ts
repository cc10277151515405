import { TOKENS } from '@racedata/test-support';
import { run } from '../src/main';
import { bannerPort, fakeCli, type FakeCli } from './cli-harness';

const started: FakeCli[] = [];

async function start(argv: string[], env: Record<string, string> = {}): Promise<FakeCli> {
  const cli = fakeCli(env);
  started.push(cli);
  void run(['node', 'racedata-sim', ...argv], cli.ctx);
  await Promise.race([cli.waitForOutput(/see data:/), cli.exited]);
  return cli;
}

afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.signal();
    await cli.exited;
  }
});

const LOCAL = ['--host', '127.0.0.1', '--log-level', 'silent'];
const raceDayOf = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/_sim/race-day`)).json()) as {
    date: string;
    seed: number;
    play: { startedAt: string; speed: number; at: string };
  };

describe('racedata-sim with RACE_DAY', () => {
  it('all plays one day on both simulators, from the settings, and says so', async () => {
    const cli = await start([
      'all',
      '--json-port',
      '0',
      '--legacy-port',
      '0',
      ...LOCAL,
      '--race-day',
      '2026-05-13',
      '--race-day-speed',
      '60',
      '--race-day-at',
      '12:30',
      '--race-day-edge-cases',
      'all',
    ]);
    const out = cli.stdout();
    expect(out).toMatch(
      /^race day: 2026-05-13 \(seed 20260513\), .+ played at 60x from 12:30; GET \/_sim\/race-day shows the plan/m,
    );
    const json = await raceDayOf(bannerPort(out, 'JSON simulator'));
    const legacy = await raceDayOf(bannerPort(out, 'legacy XML simulator'));
    expect(json).toMatchObject({ date: '2026-05-13', seed: 20260513, play: { speed: 60, at: '12:30' } });
    expect(legacy.play.startedAt).toBe(json.play.startedAt);
    const events = await fetch(
      `http://127.0.0.1:${bannerPort(out, 'JSON simulator')}/customerapi/events?lastEventId=0`,
      {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      },
    );
    expect(
      ((await events.json()) as { data: { numberOfEvents: number } }).data.numberOfEvents,
    ).toBeGreaterThan(5);
  });

  it('reads its settings from the environment; --no-race-day turns it off', async () => {
    const env = { RACE_DAY: 'today', RACE_DAY_SEED: '5', RACE_DAY_MEETINGS: 'trot:1' };
    const on = await start(['json', '--port', '0', ...LOCAL], env);
    expect((await raceDayOf(bannerPort(on.stdout(), 'JSON simulator'))).seed).toBe(5);
    // RACE_DAY=off is what docker/compose.yaml passes when no day is asked for.
    const offByEnv = await start(['json', '--port', '0', ...LOCAL], { ...env, RACE_DAY: 'off' });
    expect(offByEnv.stdout()).toMatch(/^replay: off/m);
    const off = await start(['json', '--port', '0', ...LOCAL, '--no-race-day'], env);
    expect(off.stdout()).toMatch(/^replay: off/m);
    expect(
      (await fetch(`http://127.0.0.1:${bannerPort(off.stdout(), 'JSON simulator')}/_sim/race-day`)).status,
    ).toBe(404);
  });

  it.each([
    [
      ['--race-day', 'today', '--auto-replay-interval', '1000'],
      /RACE_DAY \(--race-day\) plays a generated day and AUTO_REPLAY_MESSAGE_INTERVAL \(--auto-replay-interval\) replays recordings/,
    ],
    [['--race-day', 'today', '--max-delay', '500'], /and MAX_DELAY \(--max-delay\) replays recordings/],
    [
      ['--race-day', '2026-02-30'],
      /RACE_DAY \(--race-day\): expected today, a real date YYYY-MM-DD or off, got "2026-02-30"/,
    ],
    [
      ['--race-day', 'today', '--race-day-edge-cases', 'dead-heat,nose-bleed'],
      /RACE_DAY_EDGE_CASES \(--race-day-edge-cases\): unknown edge case "nose-bleed"; known: late-scratching,/,
    ],
    [
      ['--race-day', 'today', '--race-day-meetings', 'trot:5'],
      /RACE_DAY_MEETINGS \(--race-day-meetings\): trot meetings must be a whole number from 0 to 4/,
    ],
    [
      ['--race-day', 'today', '--race-day-speed', '0'],
      /RACE_DAY_SPEED \(--race-day-speed\): expected a number above 0 and at most 3600/,
    ],
    [
      ['--race-day', 'today', '--race-day-speed', '3601'],
      /RACE_DAY_SPEED \(--race-day-speed\): expected a number above 0 and at most 3600/,
    ],
    [
      ['--race-day', '2026-05-13', '--race-day-edge-cases', 'dead-heat@999:1'],
      /no meeting at track 999 on 2026-05-13/,
    ],
  ])('refuses %j with exit 2, saying why, before anything listens', async (args, message) => {
    const cli = await start(['json', '--port', '0', ...LOCAL, ...(args as string[])]);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stdout()).not.toMatch(/listening on/);
  });
});
