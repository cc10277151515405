// Makes docs/console.png, the README's picture of the QA console: both simulators in-process
// with their bundled recordings replayed, a WebSocket client receiving deliveries, and the
// JSON simulator's console opened in Debian's Chromium at 1280x800 once rows are flowing.
// Run with `npm run screenshot`.
import path from 'node:path';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { consoleAssets } from '@racedata/console';
import { loadRecordings } from '@racedata/core';
import { createJsonSimulator, jsonChannelCatalog } from '@racedata/json-sim';
import { createLegacySimulator, legacyChannelCatalog } from '@racedata/legacy-sim';
import { findChromium, NO_CHROMIUM } from '../test-support/browser';

const root = path.resolve(__dirname, '..');

// The page callbacks run in Chromium; this project compiles against Node's types only.
declare const document: {
  querySelector(selector: string): { readonly textContent: string | null } | null;
  querySelectorAll(selector: string): { readonly length: number };
};
const out = path.join(root, 'docs/console.png');

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_CHROMIUM);
  const dir = path.join(root, 'recordings');
  const replay = { autoReplayIntervalMs: 120, initialDelayMs: 0, replayRebaseDates: true, host: '127.0.0.1' };
  const json = createJsonSimulator(replay, {
    recordings: (await loadRecordings(dir, 'json', { catalog: jsonChannelCatalog() })).messages,
    consoleAssets,
  });
  const legacy = createLegacySimulator(replay, {
    recordings: (await loadRecordings(dir, 'legacy', { catalog: legacyChannelCatalog() })).messages,
    consoleAssets,
  });
  const jsonPort = (await json.listen(0, '127.0.0.1')).port;
  await legacy.listen(0, '127.0.0.1');
  // A client on the event stream, so deliveries show beside what was received.
  const ws = new WebSocket(`ws://127.0.0.1:${jsonPort}/customerapi/event-stream`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send('YWxsdXNlcg==');
  const browser = await chromium.launch({ executablePath });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${jsonPort}/_sim/ui`);
    await page.waitForFunction(
      () => document.querySelectorAll('#live-table tbody tr[data-kind="delivered"]').length >= 8,
    );
    await page.locator('#live-table tbody tr[data-kind="received"]').first().click();
    await page.waitForFunction(
      () => !/loading/.test(document.querySelector('#payload')?.textContent ?? 'loading'),
    );
    await page.screenshot({ path: out });
    console.log(`screenshot: ${path.relative(root, out)}`);
  } finally {
    await browser.close();
    ws.terminate();
    await Promise.all([json.close(), legacy.close()]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
