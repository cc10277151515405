/** Checks both images must pass the same way. */
import { USERS } from '@racedata/test-support';
import type { ControlClient } from 'racedata-sim';
import { TOKEN, call, postJson } from './image-client';

/** GET /health says ok and which simulator answers. */
export async function expectHealthy(control: ControlClient, simulator: 'json' | 'legacy'): Promise<void> {
  await expect(control.health()).resolves.toMatchObject({ status: 'ok', simulator });
}

/** The web console is in the image: GET / leads to it, the page and its script are served. */
export async function expectConsole(control: ControlClient, simulator: 'json' | 'legacy'): Promise<void> {
  const root = await call(`${control.baseUrl}/`);
  expect([root.status, root.headers.get('location')]).toEqual([302, './_sim/ui']);
  const page = await call(`${control.baseUrl}/_sim/ui`);
  expect(page.status).toBe(200);
  expect(page.text).toContain(`data-simulator="${simulator}"`);
  const script = await call(`${control.baseUrl}/_sim/ui/console.js`);
  expect(script.status).toBe(200);
  // The bundle, not a stub or an error page.
  expect(script.text.length).toBeGreaterThan(10_000);
  // The bundled recordings are in the image: the catalog has samples from them.
  expect((await control.catalog()).some((channel) => channel.sample !== null)).toBe(true);
}

/** The docs pages the console links are in the image: a page rendered, its image and the index. */
export async function expectDocs(control: ControlClient): Promise<void> {
  const page = await call(`${control.baseUrl}/_sim/docs/console.md`);
  expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  expect(page.text).toContain('<h1 id="the-web-console">');
  expect(page.text).toContain('<img src="console.png"');
  const image = await call(`${control.baseUrl}/_sim/docs/console.png`);
  expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  const index = await call(`${control.baseUrl}/_sim/docs/`);
  expect(index.text).toContain('<a href="CHANGELOG.md">');
  expect(index.text).toContain('<a href="race-days.md">');
}

/** The production authentication path gives the default user its fixed token; a wrong secret 401. */
export async function expectAuthentication(baseUrl: string): Promise<void> {
  const { key, secret } = USERS.legacy.testuser;
  // The trailing slash is how some customers' clients call it.
  const ok = await postJson(`${baseUrl}/customerapi/authenticate/subscription/`, { key, secret });
  expect(ok.status).toBe(200);
  expect(ok.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  const bad = await postJson(`${baseUrl}/customerapi/authenticate/subscription`, { key, secret: 'nope' });
  expect(bad.status).toBe(401);
}
