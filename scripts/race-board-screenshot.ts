// Makes docs/race-board.png, the docs' picture of the console's race board during a race:
// `racedata-sim json` playing a seeded day, taken to 20 s after the first trot race's start,
// a start scratched before it, and the race board shot in Debian's Chromium at 1280x900.
// Run with `npm run screenshot:race-board` (after `npm run build`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { findChromium, NO_CHROMIUM } from '../test-support/browser';

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'docs/race-board.png');
const CLI = path.join(root, 'packages/cli/bin/racedata-sim.js');
const DAY = ['--race-day', '2026-05-13', '--race-day-seed', '3', '--race-day-edge-cases', 'none'];

async function post(base: string, route: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/_sim/race-day/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_CHROMIUM);
  const child = spawn(
    process.execPath,
    [CLI, 'json', '--port', '0', '--host', '127.0.0.1', ...DAY, '--race-day-at', '12:00'],
    {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`racedata-sim exited with ${code}: ${text}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const plan = (await (await fetch(`${base}/_sim/race-day`)).json()) as {
      meetings: {
        trackId: number;
        sport: string;
        races: { raceNr: number; starters: { startNr: number }[] }[];
      }[];
    };
    const meeting = plan.meetings.find((m) => m.sport === 'trot')!;
    const race = meeting.races[0]!;
    const ref = { trackId: meeting.trackId, raceNr: race.raceNr };
    await post(base, 'goto', { ...ref, phase: 'start', offsetMs: -60_000 });
    await post(base, 'actions', { action: 'scratch', ...ref, startNr: race.starters[1]!.startNr });
    await post(base, 'goto', { ...ref, phase: 'start', offsetMs: 20_000 });
    const browser = await chromium.launch({ executablePath });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/_sim/ui`);
      const card = page.locator(`article.race[data-track="${ref.trackId}"][data-race="${ref.raceNr}"]`);
      await card.locator('.race-starters summary').click();
      await card.locator('button.race-filter').click();
      await card.locator('.race-countdown', { hasText: 'started' }).waitFor();
      await page.locator('#filter-race').waitFor();
      await page.locator('#race-board').screenshot({ path: out });
      console.log(`screenshot: ${path.relative(root, out)}`);
    } finally {
      await browser.close();
    }
  } finally {
    child.kill();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
