import type { FaultTransport } from './fault-params';

/** A request path as the simulator routes it: the transport it reaches and one spelling of it. */
export interface RoutedPath {
  readonly transport: FaultTransport | undefined;
  /** The route's own spelling (letter case of the route, no trailing slash); a parameter as sent. */
  readonly path: string;
}

/** The customer routes, each matched in any letter case; `[^/]+` is a path parameter. */
const ROUTES: ReadonlyArray<{
  transport: FaultTransport;
  re: RegExp;
  spell: (m: RegExpExecArray) => string;
}> = [
  fixed('events', '/customerapi/events'),
  fixed('filtered-events', '/customerapi/filtered-events'),
  fixed('event-stream', '/customerapi/event-stream'),
  fixed('listen', '/customerapi/channels/listen'),
  fixed('stomp', '/customerapi/channels/connect'),
  fixed('stomp', '/api/v1/channels/connect'),
  fixed('authenticate', '/customerapi/authenticate/subscription'),
  fixed('authenticate', '/authenticate'),
  fixed('message', '/api/message'),
  {
    transport: 'inject',
    re: /^\/customerapi\/channel\/([^/]+)\/(durable|nondurable)$/i,
    spell: (m) =>
      `/customerapi/channel/${m[1]}/${m[2]?.toLowerCase() === 'durable' ? 'Durable' : 'NonDurable'}`,
  },
];

function fixed(transport: FaultTransport, path: string) {
  const re = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\-]/g, '\\$&')}$`, 'i');
  return { transport, re, spell: () => path };
}

function routed(path: string): RoutedPath {
  for (const route of ROUTES) {
    const m = route.re.exec(path);
    if (m) return { transport: route.transport, path: route.spell(m) };
  }
  // Not a customer route (a 404, /health): express still ignores letter case there.
  return { transport: undefined, path: path.toLowerCase() };
}

/**
 * The route an HTTP request takes. Express routes ignore letter case and one trailing slash, so
 * `/CUSTOMERAPI/EVENTS/` is the events route while `/customerapi/events//` is no route at all (404).
 */
export function httpRouteOf(path: string): RoutedPath {
  return routed(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
}

/**
 * The route a WebSocket upgrade takes: the upgrade router compares the path exactly, after
 * dropping every trailing slash, so only that spelling reaches an endpoint (and a fault rule).
 */
export function upgradeRouteOf(path: string): RoutedPath {
  const trimmed = path.replace(/\/+$/, '');
  const route = routed(trimmed);
  return route.transport !== undefined && route.path === trimmed
    ? route
    : { transport: undefined, path: trimmed };
}

/**
 * Whether a rule's `path` names this route: an exact path means the route it would take as an
 * HTTP request, a prefix ending in `*` is compared in any letter case.
 */
export function pathMatches(pattern: string, route: RoutedPath): boolean {
  if (pattern.endsWith('*')) return route.path.toLowerCase().startsWith(pattern.slice(0, -1).toLowerCase());
  return httpRouteOf(pattern).path === route.path;
}
