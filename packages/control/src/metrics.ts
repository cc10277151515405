import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Gauge, Registry } from 'prom-client';
import { type Logger, monotonicMs, type SimulatorSettings, toSimError } from '@racedata/core';
import { CONTROL_PREFIX, checkToken } from './control-plane';
import type { ControlHooks } from './simulator-types';
import { closeCodeLabel } from './close-code-label';
import type { Faults } from './faults';
import type { Journal } from './journal';
import { RequestCounts } from './request-counts';

export const METRICS_PATH = '/metrics';

/** What a simulator tells its metrics beyond GET /_sim/state. */
export interface MetricsOptions {
  /** Its HTTP routes, `{name}` for a path segment; any other path is counted as `other`. */
  readonly routes: readonly string[];
  /** The transport label of connected_sessions: the simulator's session transport. */
  readonly sessionTransport: string;
  /** Messages the store or queues dropped to stay within their bounds, since the start. */
  readonly dropped?: () => number;
}

export interface SimulatorMetrics {
  /** Built on the first scrape (see createSimulatorMetrics). */
  registry(): Registry;
  /** Counts and times each request, and answers GET /metrics (gated like /_sim/*). */
  wrap(inner: RequestListener): RequestListener;
}

interface MetricsDeps {
  readonly options: MetricsOptions;
  readonly settings: Pick<SimulatorSettings, 'controlApi' | 'controlToken'>;
  readonly journal: Journal;
  readonly faults: Faults;
  readonly hooks: ControlHooks;
  readonly logger: Logger;
}

/**
 * prom-client, loaded on the first scrape: with its process metrics (perf_hooks, v8) it cost
 * every start milliseconds, for a page most runs never ask for.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const promClient = () => require('prom-client') as typeof import('prom-client');

// Process metrics are one per process whatever the number of simulators; collected once, into a
// registry of their own (never prom-client's global one), so that building a simulator does not
// add another event-loop monitor and GC observer that nothing ever removes. They start with the
// first scrape, so the GC and event-loop-lag figures cover the time since then.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    const { collectDefaultMetrics, Registry } = promClient();
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * One registry per simulator: two simulators in one process never share a count. Everything it
 * reports is counted in plain numbers as it happens (requests, the journal's tallies, fault
 * firings) and read on a scrape, so the registry itself is built on the first one.
 */
export function createSimulatorMetrics(deps: MetricsDeps): SimulatorMetrics {
  const routeOf = routeMatcher(deps.options.routes);
  const requests = new RequestCounts();
  const firings = new Map<string, number>();
  deps.faults.onFire((rule) => firings.set(rule.action.type, (firings.get(rule.action.type) ?? 0) + 1));
  let registry: Registry | undefined;
  const registryOf = () => (registry ??= buildRegistry(deps, requests, firings));
  return { registry: registryOf, wrap: metricsWrap(deps, routeOf, requests, registryOf) };
}

function buildRegistry(
  deps: MetricsDeps,
  requests: RequestCounts,
  firings: ReadonlyMap<string, number>,
): Registry {
  const { options, journal, faults, hooks } = deps;
  const { Counter, Gauge, Registry } = promClient();
  const registry = new Registry();
  requests.register(registry);
  // The journal counts its entries as plain numbers per label value; prom-client gets them on a
  // scrape, so nothing is hashed or allocated per delivered event.
  const fromCounts = (
    name: string,
    help: string,
    labelNames: readonly string[],
    counts: () => ReadonlyMap<string, number>,
    labels: (key: string) => Record<string, string>,
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        // inc() adds up keys that share labels (close codes bucketed as "other").
        for (const [key, n] of counts()) this.inc(labels(key), n);
      },
    });
  fromCounts(
    'racedata_deliveries_total',
    'Messages handed to a client, by transport',
    ['transport'],
    () => journal.counts.delivered,
    (transport) => ({ transport }),
  );
  fromCounts(
    'racedata_messages_received_total',
    'Messages the simulator took in, by source (post, inject, replay)',
    ['source'],
    () => journal.counts.received,
    (source) => ({ source }),
  );
  fromCounts(
    'racedata_sessions_closed_total',
    'WebSocket and STOMP sessions of authenticated users that ended, by transport and close code',
    ['transport', 'code'],
    () => journal.counts.closed,
    (key) => {
      const [transport = '', code = ''] = key.split(' ');
      return { transport, code: closeCodeLabel(Number(code), faults.closeCodes) };
    },
  );
  fromCounts(
    'racedata_fault_firings_total',
    'Times a /_sim/faults rule fired, by action',
    ['action'],
    () => firings,
    (action) => ({ action }),
  );

  const gauge = (name: string, help: string, read: (g: Gauge) => void, labelNames: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        read(this);
      },
    });
  gauge('racedata_held_polls', 'Long polls held now', (g) => {
    g.set(sum(hooks.state().users, 'heldPolls'));
  });
  gauge(
    'racedata_connected_sessions',
    'Open WebSocket sessions, by transport',
    (g) => g.set({ transport: options.sessionTransport }, sum(hooks.state().users, 'sockets')),
    ['transport'],
  );
  gauge('racedata_replay_on', '1 while the automatic replay runs', (g) => {
    g.set(hooks.state().replay.on ? 1 : 0);
  });
  gauge('racedata_replay_position', 'Messages of the current replay pass sent so far', (g) => {
    g.set(hooks.state().replay.position);
  });
  gauge('racedata_fault_rules', 'Fault rules in force', (g) => {
    g.set(faults.size);
  });
  gauge(
    'racedata_fault_waiting_requests',
    'Requests and WebSocket upgrades a hold or delay rule keeps waiting now, by action',
    (g) => {
      const counts = faults.waits.counts();
      g.set({ action: 'hold' }, counts.hold);
      g.set({ action: 'delay' }, counts.delay);
    },
    ['action'],
  );
  gauge('racedata_replay_total', 'Messages in one replay pass', (g) => {
    g.set(hooks.state().replay.total);
  });
  const state = hooks.state();
  if (state.store) {
    gauge('racedata_stored_events', 'Durable events in the store', (g) => {
      g.set(hooks.state().store?.events ?? 0);
    });
    gauge('racedata_stored_event_bytes', 'JSON bytes of the durable events in the store', (g) => {
      g.set(hooks.state().store?.bytes ?? 0);
    });
  }
  if (state.queues) {
    gauge('racedata_queued_messages', 'Legacy messages queued', (g) => {
      g.set(hooks.state().queues?.messages ?? 0);
    });
    gauge('racedata_queued_bytes', 'UTF-8 bytes of the legacy messages queued', (g) => {
      g.set(hooks.state().queues?.bytes ?? 0);
    });
  }
  const dropped = options.dropped;
  if (dropped) {
    new Counter({
      name: 'racedata_dropped_messages_total',
      help: 'Messages the store or queues dropped to stay within their bounds',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(dropped());
      },
    });
  }
  return registry;
}

function metricsWrap(
  deps: MetricsDeps,
  routeOf: (url: string) => string,
  requests: RequestCounts,
  registryOf: () => Registry,
): (inner: RequestListener) => RequestListener {
  const { settings, logger } = deps;
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      checkToken(req, settings.controlToken);
    } catch (err) {
      const error = toSimError(
        err,
        () => undefined,
        () => undefined,
      );
      sendText(
        res,
        error.status,
        'application/json; charset=utf-8',
        JSON.stringify({
          status: 'fail',
          code: error.code,
          message: error.message,
        }),
      );
      return;
    }
    const registry = registryOf();
    const text = (await registry.metrics()) + (await processMetrics().metrics());
    sendText(res, 200, registry.contentType, text);
  };

  return (inner: RequestListener): RequestListener => {
    return (req, res) => {
      const start = monotonicMs();
      const url = req.url ?? '';
      const route = routeOf(url);
      const method = req.method ?? '';
      res.once('close', () => {
        const status = res.writableFinished ? String(res.statusCode) : 'aborted';
        requests.record(route, method, status, (monotonicMs() - start) / 1000);
      });
      if (route === METRICS_PATH && settings.controlApi !== 'off' && method === 'GET') {
        serve(req, res).catch((err: unknown) => {
          logger.error({ err }, 'metrics scrape failed');
          if (!res.headersSent) sendText(res, 500, 'text/plain; charset=utf-8', 'metrics scrape failed');
          else res.end();
        });
        return;
      }
      inner(req, res);
    };
  };
}

/** Known routes by name, `/_sim/*`, `/metrics`, else `other`: the label set stays bounded. */
export function routeMatcher(routes: readonly string[]): (url: string) => string {
  const exact = new Set<string>([METRICS_PATH]);
  const patterns: Array<{ name: string; re: RegExp }> = [];
  for (const route of routes) {
    if (!route.includes('{')) exact.add(route);
    else {
      const source = route
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      patterns.push({ name: route, re: new RegExp(`^${source}$`) });
    }
  }
  return (url) => {
    const q = url.indexOf('?');
    let path = q === -1 ? url : url.slice(0, q);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (exact.has(path)) return path;
    if (path.startsWith(CONTROL_PREFIX)) return '/_sim/*';
    for (const { name, re } of patterns) if (re.test(path)) return name;
    return 'other';
  };
}

function sum(
  users: Record<string, { readonly sockets: number; readonly heldPolls: number }>,
  key: 'sockets' | 'heldPolls',
): number {
  let total = 0;
  for (const user of Object.values(users)) total += user[key];
  return total;
}

function sendText(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text, 'utf8'),
    'cache-control': 'no-store',
  });
  res.end(text);
}
