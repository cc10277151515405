import { requestUrl } from '../src/request-url';

describe('requestUrl', () => {
  it('reads every request target as a path, never as a URL with a host of its own', () => {
    // `new URL('//?x', base)` throws (an empty host): one such request once ended the process.
    expect(requestUrl({ url: '//?F%24=1' }).pathname).toBe('//');
    expect(requestUrl({ url: '//_sim/state' }).pathname).toBe('//_sim/state');
    expect(requestUrl({ url: '/_sim/journal?user=a&since=3' }).searchParams.get('since')).toBe('3');
    expect(requestUrl({ url: 'http://elsewhere/_sim/state' }).pathname).toBe('/http://elsewhere/_sim/state');
    expect(requestUrl({ url: '*' }).pathname).toBe('/*');
    expect(requestUrl({}).pathname).toBe('/');
  });
});
