import fc from 'fast-check';
import { isConsolePath, plainOtherPath } from '../src/console-routes';
import { requestUrl } from '../src/request-url';

// Every request passes the console's router; most are told apart from console paths by a look at
// the target (plainOtherPath) instead of parsing it as a URL. That look must never pass a target
// the parsed URL would send to the console.

const routesToConsole = (target: string) => isConsolePath(requestUrl({ url: target }).pathname);

describe('telling API paths from console paths without parsing the URL', () => {
  it.each([
    '/customerapi/channel/id/NonDurable?payloadKey=a.b%20c',
    '/customerapi/channels/listen',
    '/events?lastEventId=5',
    '/api/message',
    '/health',
  ])('%s is a plain API path', (target) => {
    expect(plainOtherPath(target)).toBe(true);
    expect(routesToConsole(target)).toBe(false);
  });

  it.each([
    '/',
    '/?x=1',
    '/_sim/ui',
    '/_sim/docs/README.md',
    '/a/../_sim/ui',
    '/a/%2e%2e/_sim/ui',
    '/a\\..\\_sim\\ui',
    '//_sim/ui',
    '/_sim/messages/1',
    '',
    '_sim/ui',
  ])('%j is left to the URL parser', (target) => {
    expect(plainOtherPath(target)).toBe(false);
  });

  it('never passes a target the URL parser sends to the console', () => {
    const piece = fc.constantFrom(
      '/',
      '.',
      '..',
      '%2e',
      '%2E',
      '\\',
      '_sim',
      'ui',
      'docs',
      'a',
      'Z9',
      '-',
      '_',
      '?',
      '#',
      '%',
      'messages',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const target = `/${parts.join('')}`;
        if (plainOtherPath(target)) expect(routesToConsole(target)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
