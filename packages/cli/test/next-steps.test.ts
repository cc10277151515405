import path from 'node:path';
import {
  recordingsForReplay,
  resolveSettings,
  silentLogger,
  UserTable,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import { jsonChannelCatalog, JSON_USERS } from '@racedata/json-sim';
import { legacyChannelCatalog, LEGACY_USERS } from '@racedata/legacy-sim';
import { nextSteps, type Started } from '../src/next-steps';

const recordings = path.resolve(__dirname, '..', '..', '..', 'recordings');
const address = { address: '127.0.0.1', family: 'IPv4', port: 3000 };
const now = new Date(2026, 4, 11, 12);

async function started(kind: SimulatorKind, settings: Partial<SimulatorSettings>): Promise<Started> {
  const resolved = resolveSettings(kind, settings);
  const catalog = kind === 'json' ? jsonChannelCatalog() : legacyChannelCatalog();
  const users = UserTable.fromJSON(kind === 'json' ? JSON_USERS : LEGACY_USERS, catalog, 'built-in');
  const replayOn = resolved.autoReplayIntervalMs !== undefined;
  const replayed = replayOn
    ? ((await recordingsForReplay(kind, resolved, catalog, silentLogger(), recordings)) ?? [])
    : [];
  return {
    kind,
    address: { ...address, port: kind === 'json' ? 3000 : 8080 },
    settings: resolved,
    users,
    catalog,
    replayed,
  };
}

describe('the hints npm start prints', () => {
  test('with the bundled race day replaying, the WebSocket one-liner is for the user whose live data comes first', async () => {
    const json = await started('json', { autoReplayIntervalMs: 1000 });
    const text = nextSteps([json], now);
    // The bundled day's first live message is a gallop countdown, which only alluser takes;
    // testuser's first (a trot one) comes later. The n-th message plays n intervals after start.
    const first = json.replayed.findIndex((m) => m.delivery === 'transient');
    const firstTrot = json.replayed.findIndex(
      (m) => m.delivery === 'transient' && m.kind === 'json' && m.message.channel.endsWith('Trot'),
    );
    expect(first).toBeLessThan(firstTrot);
    expect(text).toContain("ws.send('YWxsdXNlcg==')");
    expect(text).toContain(`as alluser, from about ${first + 1} s after start`);
    expect(text).toContain(
      "curl -s 'http://127.0.0.1:3000/customerapi/events?lastEventId=0' -H 'Authorization: Bearer dGVzdHVzZXI='",
    );
    expect(text).not.toContain('-X POST');
  });

  test('with replay off, the JSON hints post a message before the read and say the read is held', async () => {
    const lines = nextSteps([await started('json', {})], now).split('\n');
    const post = lines.findIndex((line) => line.includes('-X POST http://127.0.0.1:3000/api/message'));
    const read = lines.findIndex((line) => line.includes('/customerapi/events?lastEventId=0'));
    expect(lines[0]).toMatch(/^replay: off/);
    expect(post).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(post);
    expect(lines[post]).toContain('"channel":"RaceDayTrot","date":"2026-05-11"');
    expect(lines[read + 1]).toContain('held up to 60 s until data arrives');
    // The live one: the WebSocket first, then a transient post testuser subscribes to.
    const ws = lines.findIndex((line) => line.includes('event-stream'));
    expect(ws).toBeGreaterThan(read);
    expect(lines[ws + 1]).toMatch(/-X POST .*"channel":"(Last500MetersTrot|TimeToStartTrot|SplitTimesTrot)"/);
  });

  test('with replay off, the legacy hints queue a message before the listen', async () => {
    const lines = nextSteps([await started('legacy', { longPollTimeoutMs: 5000 })], now).split('\n');
    const post = lines.findIndex((line) => line.includes('/customerapi/channel/id/Durable?payloadKey='));
    const listen = lines.findIndex((line) => line.includes('/customerapi/channels/listen'));
    expect(post).toBeGreaterThan(0);
    expect(listen).toBeGreaterThan(post);
    expect(lines[post]).toContain(`-d '<RaceDay date="2026-05-11" trackId="5"/>'`);
    expect(lines[listen + 1]).toContain('held up to 5 s');
  });
});
