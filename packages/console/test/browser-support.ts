/**
 * What the console's browser tests share: Debian's Chromium driven by playwright-core, the
 * bundled recordings, simulators on port 0 with the built console, and a page that records
 * every console error and uncaught exception so a test can insist there were none.
 */
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import WebSocket from 'ws';
import { consoleAssets } from '@racedata/console';
import {
  loadRecordings,
  type RecordedJsonMessage,
  type RecordedLegacyMessage,
  type SimulatorSettings,
} from '@racedata/core';
import { createJsonSimulator, jsonChannelCatalog } from '@racedata/json-sim';
import { createLegacySimulator, legacyChannelCatalog } from '@racedata/legacy-sim';
import { closeAfterTest, listenForTest } from '@racedata/test-support';
import { findChromium, NO_CHROMIUM } from '../../../test-support/browser';

const RECORDINGS_DIR = path.resolve(__dirname, '../../../recordings');

export const executablePath = findChromium();

/**
 * `describe` when Chromium is installed. Without it the suite is skipped with the reason
 * logged, except under CI=true, where a missing browser must fail the run, not hide it.
 */
export function browserDescribe(name: string, body: () => void): void {
  if (executablePath) {
    describe(name, body);
    return;
  }
  // Only the test harness reads the environment: CI decides whether a skip is allowed.
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs Chromium under CI', () => {
        throw new Error(NO_CHROMIUM);
      });
    });
    return;
  }
  console.warn(`console browser tests skipped: ${NO_CHROMIUM}`);
  describe.skip(name, body);
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: executablePath! });
}

let jsonRecordings: RecordedJsonMessage[] | undefined;
let legacyRecordings: RecordedLegacyMessage[] | undefined;

export async function startJson(settings: Partial<SimulatorSettings> = {}) {
  jsonRecordings ??= (await loadRecordings(RECORDINGS_DIR, 'json', { catalog: jsonChannelCatalog() }))
    .messages;
  const sim = createJsonSimulator(
    { longPollTimeoutMs: 300, replayRebaseDates: true, ...settings },
    { recordings: jsonRecordings, consoleAssets },
  );
  return listenForTest(sim);
}

export async function startLegacy(settings: Partial<SimulatorSettings> = {}) {
  legacyRecordings ??= (await loadRecordings(RECORDINGS_DIR, 'legacy', { catalog: legacyChannelCatalog() }))
    .messages;
  const sim = createLegacySimulator(
    { longPollTimeoutMs: 300, replayRebaseDates: true, ...settings },
    { recordings: legacyRecordings, consoleAssets },
  );
  return listenForTest(sim);
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/**
 * Chromium logs every 4xx answer to a fetch as a console error ("Failed to load resource").
 * A test that provokes a refusal on purpose takes exactly those lines out; anything else stays.
 */
export function expectedRefusals(watched: WatchedPage, status: number, count: number): void {
  const line = `console: Failed to load resource: the server responded with a status of ${status}`;
  for (let i = 0; i < count; i++) {
    const at = watched.errors.findIndex((e) => e.startsWith(line));
    if (at < 0)
      throw new Error(`expected ${count} logged ${status} refusals: ${JSON.stringify(watched.errors)}`);
    watched.errors.splice(at, 1);
  }
}

export async function openConsole(browser: Browser, base: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  // Closed before the simulators (registered after them), so a stream cut by the simulator's
  // close is not taken for an error of the page.
  closeAfterTest({ close: () => context.close() });
  await page.goto(`${base}/_sim/ui`);
  await page.locator('#feed-status', { hasText: 'live' }).waitFor();
  return { page, errors };
}

/** A JSON event-stream client, authenticated, collecting the Data messages it receives. */
export async function eventStreamClient(port: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/customerapi/event-stream`);
  closeAfterTest({ close: () => ws.terminate() });
  const messages: Array<Record<string, unknown>> = [];
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  let authenticated!: () => void;
  const ready = new Promise<void>((resolve) => (authenticated = resolve));
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (message.type === 'Authenticated') authenticated();
    messages.push(message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(token);
  await ready;
  return { ws, messages, closed };
}

export async function simState(base: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${base}/_sim/state`)).json()) as Record<string, unknown>;
}

/** A STOMP client on the legacy simulator's vendor path, subscribed; collects raw frames. */
export async function stompClient(port: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/channels/connect`, {
    headers: { authorization: `Bearer ${token}` },
  });
  closeAfterTest({ close: () => ws.terminate() });
  const frames: string[] = [];
  const waiting: Array<{ test: (f: string) => boolean; done: (f: string) => void }> = [];
  ws.on('message', (data) => {
    // One frame per WebSocket message from this server; heart-beats are bare newlines.
    const frame = String(data);
    if (frame.trim() === '') return;
    frames.push(frame);
    for (const w of [...waiting]) {
      if (w.test(frame)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.done(frame);
      }
    }
  });
  const next = (test: (f: string) => boolean) =>
    new Promise<string>((resolve) => {
      const seen = frames.find(test);
      if (seen) resolve(seen);
      else waiting.push({ test, done: resolve });
    });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
  await next((f) => f.startsWith('CONNECTED'));
  ws.send('SUBSCRIBE\nid:0\ndestination:/api/v1/channels/user/topic/publish\nreceipt:sub\n\n\0');
  await next((f) => f.startsWith('RECEIPT'));
  return { frames, next };
}
