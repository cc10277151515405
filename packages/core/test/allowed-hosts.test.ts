import { hostName, isAllowedHost, parseAllowedHosts } from '../src/allowed-hosts';

describe('CONTROL_ALLOWED_HOSTS', () => {
  test('a comma list of names, lower-cased; * takes any', () => {
    expect(parseAllowedHosts(' JSON-Sim, .qa.svc.cluster.local ,,')).toEqual([
      'json-sim',
      '.qa.svc.cluster.local',
    ]);
    expect(parseAllowedHosts('json,*')).toEqual(['*']);
    expect(parseAllowedHosts('')).toEqual([]);
  });

  test.each(['http://json-sim', 'json-sim:3000', 'a b', 'x/y', '[::1]'])(
    'refuses %j, saying names only',
    (raw) => {
      expect(() => parseAllowedHosts(raw)).toThrow(/is not a host name \(names only/);
    },
  );

  test('Host header values give their host name, without port, brackets or a trailing dot', () => {
    expect(hostName('LocalHost:3000')).toBe('localhost');
    expect(hostName('[::1]:3000')).toBe('::1');
    expect(hostName('json-sim.')).toBe('json-sim');
    expect(hostName('2130706433')).toBe('127.0.0.1');
    for (const bad of ['a@b', 'a/b', 'a?b', 'a b', '']) expect(hostName(bad)).toBeUndefined();
  });

  test('localhost and IP addresses always; other names only when listed', () => {
    for (const name of ['localhost', 'qa.localhost', '127.0.0.1', '::1', '10.0.0.7']) {
      expect(isAllowedHost(name, [])).toBe(true);
    }
    expect(isAllowedHost('json-sim', [])).toBe(false);
    expect(isAllowedHost('json-sim', ['json-sim'])).toBe(true);
    expect(isAllowedHost('json-sim.qa.svc', ['.qa.svc'])).toBe(true);
    expect(isAllowedHost('qa.svc', ['.qa.svc'])).toBe(true);
    expect(isAllowedHost('evilqa.svc', ['.qa.svc'])).toBe(false);
    expect(isAllowedHost('attacker.example', ['*'])).toBe(true);
  });
});
