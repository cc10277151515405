import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { rawRequest, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { browserDescribe, executablePath, openConsole } from './browser-support';

jest.setTimeout(60_000);

// A page on another site, in a real Chromium, against the JSON simulator in its own process:
// what it can send (a no-cors fetch, a text/plain form post, a frame of the console, and a
// DNS-rebound name), that none of it changes the simulator, and that the console at its own
// origin still does.

// The browser resolves this name to 127.0.0.1, as an attacker's DNS would after rebinding.
const REBOUND = 'attacker.test';

let browser: Browser;

/** The attacker's page: another port is another origin. */
function attackerPage(sim: SimProcess): string {
  const fault = '{"match":{"transport":"events"},"action":{"type":"status","status":503,"body":"';
  return `<!doctype html>
<title>another site</title>
<form id="form" method="POST" enctype="text/plain" target="sink" action="${sim.base}/_sim/faults">
<input type="hidden" name='${fault}' value='"}}'>
</form>
<iframe name="sink"></iframe>
<iframe id="framed" src="${sim.base}/_sim/ui"></iframe>
<script>
window.advance = () =>
  fetch('${sim.base}/_sim/clock/advance', { method: 'POST', mode: 'no-cors', body: '{"ms":90000000}' }).then(
    () => 'sent',
    (err) => String(err),
  );
window.postForm = () => document.getElementById('form').submit();
</script>`;
}

async function serveAttacker(sim: SimProcess): Promise<string> {
  const html = attackerPage(sim);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest({
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  closeAfterTest({ close: () => context.close() });
  return context.newPage();
}

async function state(sim: SimProcess) {
  const faults = (await rawRequest(sim.base, 'GET', '/_sim/faults')).json?.rules as unknown[];
  const clockOffsetMs = (await rawRequest(sim.base, 'GET', '/_sim/state')).json?.clockOffsetMs;
  return { clockOffsetMs, faults: faults.length };
}

browserDescribe('the control plane against pages of other sites, in Chromium', () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: executablePath!,
      args: [`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(closeAll);

  test('a no-cors fetch and a text/plain form post from another origin change nothing; the console cannot be framed', async () => {
    const sim = await startSimProcess('json');
    const page = await newPage();
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    // Waits for the page's load, frames included.
    await page.goto(await serveAttacker(sim));

    const advanced = page.waitForResponse((res) => res.url().endsWith('/_sim/clock/advance'));
    expect(await page.evaluate('window.advance()')).toBe('sent');
    expect((await advanced).status()).toBe(403);

    const posted = page.waitForResponse((res) => res.url().endsWith('/_sim/faults'));
    await page.evaluate('window.postForm()');
    expect((await posted).status()).toBe(403);
    // The form really went out as the attack needs it: text/plain, and parseable JSON.
    const sent = (await posted).request();
    expect(await sent.headerValue('content-type')).toBe('text/plain');
    expect(JSON.parse(sent.postData() ?? '')).toMatchObject({ action: { status: 503 } });

    expect(await state(sim)).toEqual({ clockOffsetMs: 0, faults: 0 });

    // The framed console never loaded: the frame holds Chromium's error page, not the app.
    const framed = page.frames().find((frame) => frame !== page.mainFrame() && frame.name() !== 'sink');
    expect(framed).toBeDefined();
    expect(await framed!.locator('#app').count()).toBe(0);
    expect(logged.join('\n')).toMatch(/frame-ancestors 'none'/);
  });

  test('a DNS-rebound name reaches the simulator, but its /_sim/ answers are refused', async () => {
    const sim = await startSimProcess('json');
    const page = await newPage();
    // The customer side answers any name; from here the page is same-origin with the simulator.
    await page.goto(`http://${REBOUND}:${sim.port}/health`);
    const statuses = await page.evaluate(`Promise.all([
      fetch('/_sim/users').then((res) => res.status),
      fetch('/_sim/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ms":90000000}',
      }).then((res) => res.status),
    ])`);
    expect(statuses).toEqual([403, 403]);
    expect(await state(sim)).toEqual({ clockOffsetMs: 0, faults: 0 });
  });

  test('the console at its own origin still changes things, sending its Origin and application/json', async () => {
    const sim = await startSimProcess('json');
    const { page, errors } = await openConsole(browser, sim.base);
    await page.locator('#tab-controls').click();
    await page.locator('#fault-type').selectOption('status');
    await page.locator('#fault-transport').selectOption('events');
    const added = page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/_sim/faults'));
    await page.locator('#fault-add').click();
    const request = await added;
    expect(await request.headerValue('origin')).toBe(sim.base);
    expect(await request.headerValue('content-type')).toBe('application/json');
    expect((await request.response())?.status()).toBe(201);
    await page.locator('#fault-list li', { hasText: '503 on events' }).waitFor();
    expect(await state(sim)).toEqual({ clockOffsetMs: 0, faults: 1 });

    // A reset sends no body, so no type: its Origin alone lets it through.
    await rawRequest(
      sim.base,
      'POST',
      '/_sim/clock/advance',
      { 'content-type': 'application/json' },
      '{"ms":5}',
    );
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('#reset').click();
    await page.locator('#fault-message', { hasText: 'reset: done' }).waitFor();
    expect(await state(sim)).toEqual({ clockOffsetMs: 0, faults: 0 });
    expect(errors).toEqual([]);
  });
});
