import { isIP } from 'node:net';

/** Any Host header is taken (CONTROL_ALLOWED_HOSTS=*). */
export const ANY_HOST = '*';

/**
 * CONTROL_ALLOWED_HOSTS: host names separated by commas, lower-cased; `.example.com` also takes
 * every name under it, `*` takes any. Names only: the port is whatever the simulator listens on.
 */
export function parseAllowedHosts(raw: string): readonly string[] {
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (name !== ANY_HOST && !/^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(name)) {
      throw new Error(`"${name.slice(0, 80)}" is not a host name (names only, no port or scheme; * for any)`);
    }
  }
  return names.includes(ANY_HOST) ? [ANY_HOST] : names;
}

/**
 * The host name of a Host header value (`[::1]:3000` gives `::1`), lower-cased without a
 * trailing dot; undefined when it is not a host.
 */
export function hostName(header: string): string | undefined {
  try {
    const { hostname, username, password, pathname, search, hash } = new URL(`http://${header}`);
    // `a@b`, `a/b`, `a?b` are not a Host: URL would read them as something else.
    if (username || password || pathname !== '/' || search || hash) return undefined;
    return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Whether a request that names `name` (a hostName) may reach the control plane. Loopback names
 * and IP addresses always may: a rebinding attack needs a name the attacker's DNS answers for,
 * and a page whose address is an IP is served by that very address.
 */
export function isAllowedHost(name: string, allowed: readonly string[]): boolean {
  if (allowed.includes(ANY_HOST) || isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    const bare = entry.replace(/\.$/, '');
    return bare.startsWith('.') ? name === bare.slice(1) || name.endsWith(bare) : name === bare;
  });
}
