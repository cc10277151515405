import type { SimulatorDescription } from '@racedata/core';

/** A request path as the simulator routes it: the transport it reaches and one spelling of it. */
export interface RoutedPath {
  readonly transport: string | undefined;
  /** The route's own spelling (letter case of the route, no trailing slash); a parameter as sent. */
  readonly path: string;
}

interface Route {
  readonly transport: string;
  readonly re: RegExp;
  readonly spell: (m: RegExpExecArray) => string;
}

const PARAM = /\{[^/{}]+\}/g;

/** A route path of the description, matched in any letter case; `{name}` is one path segment. */
function routeOf(transport: string, path: string): Route {
  const parts = path.split(PARAM);
  const escaped = parts.map((part) => part.replace(/[.*+?^$()|[\]\\{}-]/g, '\\$&'));
  const re = new RegExp(`^${escaped.join('([^/]+)')}$`, 'i');
  // The fixed parts in the route's own spelling, each parameter as the request sent it.
  const spell = (m: RegExpExecArray) => parts.reduce((out, part, i) => out + (i > 0 ? m[i] : '') + part, '');
  return { transport, re, spell };
}

/**
 * The customer routes of one simulator, from its description: which transport a request or
 * upgrade reaches, and whether a fault rule's path names it.
 */
export class FaultRoutes {
  private readonly routes: readonly Route[];
  private readonly tokenless: ReadonlySet<string>;

  constructor(description: Pick<SimulatorDescription, 'transports'>) {
    this.routes = description.transports.flatMap((t) => t.paths.map((path) => routeOf(t.name, path)));
    this.tokenless = new Set(description.transports.filter((t) => t.tokenless === true).map((t) => t.name));
  }

  /** Whether requests of this transport carry no bearer token (so no user to match). */
  isTokenless(transport: string | undefined): boolean {
    return transport !== undefined && this.tokenless.has(transport);
  }

  private routed(path: string): RoutedPath {
    for (const route of this.routes) {
      const m = route.re.exec(path);
      if (m) return { transport: route.transport, path: route.spell(m) };
    }
    // Not a customer route (a 404, /health): express still ignores letter case there.
    return { transport: undefined, path: path.toLowerCase() };
  }

  /**
   * The route an HTTP request takes. Express routes ignore letter case and one trailing slash, so
   * `/A/B/` is the route `/a/b` while `/a/b//` is no route at all (404).
   */
  httpRouteOf(path: string): RoutedPath {
    return this.routed(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
  }

  /**
   * The route a WebSocket upgrade takes: the upgrade router compares the path exactly, after
   * dropping every trailing slash, so only that spelling reaches an endpoint (and a fault rule).
   */
  upgradeRouteOf(path: string): RoutedPath {
    const trimmed = path.replace(/\/+$/, '');
    const route = this.routed(trimmed);
    return route.transport !== undefined && route.path === trimmed
      ? route
      : { transport: undefined, path: trimmed };
  }

  /**
   * Whether a rule's `path` names this route: an exact path means the route it would take as an
   * HTTP request, a prefix ending in `*` is compared in any letter case.
   */
  pathMatches(pattern: string, route: RoutedPath): boolean {
    if (pattern.endsWith('*')) return route.path.toLowerCase().startsWith(pattern.slice(0, -1).toLowerCase());
    return this.httpRouteOf(pattern).path === route.path;
  }
}
