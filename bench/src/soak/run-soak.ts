import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { postJson, postLegacy, sleep, type HttpResult } from '../harness/http';
import { requireOpenFiles } from '../harness/proc';
import { killAllChildren, startSim, type Server } from '../harness/processes';
import { round } from '../harness/stats';
import { watch } from '../harness/watch';
import { jsonPollers, legacyPollers, streamClients, type OddAnswers } from './clients';
import { KINDS, soakConfig, type MessageKind, type SoakConfig, type SoakOptions } from './config';
import { PostLog, ReceiptLedger } from './ledger';
import { soakJson, soakLegacyMessage } from './messages';
import { soakReport, writeSoakReport, type Ledgers } from './report';
import {
  JSON_DURABLE,
  JSON_TRANSIENT,
  LEGACY_DURABLE_TARGETS,
  LEGACY_TRANSIENT_TARGETS,
  writeUsersFiles,
} from './users';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface RunSoakOptions extends SoakOptions {
  /** Where the JSON and markdown reports go (default bench/results/raw/soak, git-ignored). */
  readonly outDir?: string;
  readonly log?: (message: string) => void;
}

type Post = (port: number, target: string, seq: number) => Promise<HttpResult>;
const legacy =
  (kind: 'Durable' | 'NonDurable'): Post =>
  (port, target, seq) =>
    postLegacy(port, kind, soakLegacyMessage(kind, target, seq));
const json: Post = (port, target, seq) => postJson(port, soakJson(target, seq));

/** Each kind's simulator, its targets (taken in turn) and its post of message `seq` to `target`. */
const POSTS: Record<MessageKind, readonly ['legacy' | 'json', readonly string[], Post]> = {
  legacyDurable: ['legacy', LEGACY_DURABLE_TARGETS, legacy('Durable')],
  legacyNonDurable: ['legacy', LEGACY_TRANSIENT_TARGETS, legacy('NonDurable')],
  jsonDurable: ['json', JSON_DURABLE, json],
  jsonTransient: ['json', JSON_TRANSIENT, json],
};

/** Posts one message of each kind every 1000/rate ms until the load time is up. */
async function postLoad(
  config: SoakConfig,
  ports: Record<'json' | 'legacy', number>,
  posts: Record<MessageKind, PostLog>,
) {
  const pending = new Set<Promise<void>>();
  const inFlight = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<MessageKind, number>;
  const interval = 1000 / config.postsPerSecond;
  const started = performance.now();
  for (let tick = 0; tick * interval < config.loadMs; tick++) {
    const wait = started + tick * interval - performance.now();
    if (wait > 0) await sleep(wait);
    for (const kind of KINDS) {
      const [sim, targets, post] = POSTS[kind];
      // A simulator that stops answering must not pile up requests without bound.
      if (posts[kind].count >= posts[kind].max || inFlight[kind] >= 32) continue;
      const target = targets[tick % targets.length] as string;
      const seq = posts[kind].next(target);
      inFlight[kind]++;
      const p: Promise<void> = post(ports[sim], target, seq)
        .then(
          (res) => res.status >= 200 && res.status < 300,
          () => false,
        )
        .then((ok) => {
          posts[kind].settle(seq, ok);
          inFlight[kind]--;
          pending.delete(p);
        });
      pending.add(p);
    }
  }
  await Promise.all(pending);
}

/** Runs one soak: both simulators as CLI processes, the clients, the poster, the final drain. */
export async function runSoak(options: RunSoakOptions = {}) {
  const started = Date.now();
  const config = soakConfig(options);
  const log = options.log ?? ((m: string) => console.log(m));
  const c = config.clients;
  requireOpenFiles(c.legacyPollers + c.jsonPollers + c.eventStream + c.stomp + 256);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'racedata-soak-'));
  const loadDelay = monitorEventLoopDelay({ resolution: 10 });
  const closers: Array<() => unknown> = [];
  const sims: Array<{ kind: 'legacy' | 'json'; sim: Server }> = [];
  try {
    const users = writeUsersFiles(tmp, config.legacyUsers, config.jsonUsers);
    const env = (file: string) => ({
      env: { LONG_POLL_TIMEOUT_MS: String(config.longPollTimeoutMs), USERS_FILE: file },
    });
    const [legacySim, jsonSim] = await Promise.all([
      startSim(REPO_ROOT, 'legacy', { plain: true, ...env(users.legacyFile) }),
      startSim(REPO_ROOT, 'json', { plain: true, ...env(users.jsonFile) }),
    ]);
    sims.push({ kind: 'legacy', sim: legacySim }, { kind: 'json', sim: jsonSim });
    log(
      `soak (${config.quick ? 'quick' : 'full'}): legacy pid ${legacySim.pid} port ${legacySim.port}, json pid ${jsonSim.pid} port ${jsonSim.port}`,
    );
    const max = Math.ceil((config.postsPerSecond * config.loadMs) / 1000) + 1;
    const posts = Object.fromEntries(KINDS.map((k) => [k, new PostLog(max)])) as Record<MessageKind, PostLog>;
    const ledgers: Ledgers = {
      posts,
      queue: new ReceiptLedger(posts.legacyDurable, users.legacy, users.legacy.length),
      events: new ReceiptLedger(posts.jsonDurable, users.json, c.jsonPollers),
      stomp: new ReceiptLedger(posts.legacyNonDurable, users.legacy, c.stomp),
      stream: new ReceiptLedger(posts.jsonTransient, users.json, c.eventStream),
    };
    const odd: OddAnswers = { count: 0 };
    log(`  connecting ${c.stomp} STOMP and ${c.eventStream} event-stream clients`);
    closers.push(
      await streamClients('stomp', legacySim.port, c.stomp, {
        users: users.legacy,
        ledger: ledgers.stomp,
        odd,
      }),
    );
    closers.push(
      await streamClients('event-stream', jsonSim.port, c.eventStream, {
        users: users.json,
        ledger: ledgers.stream,
        odd,
      }),
    );
    let hangingUp = true;
    const listen = legacyPollers(
      legacySim.port,
      config,
      { users: users.legacy, ledger: ledgers.queue, odd },
      () => hangingUp,
    );
    const events = jsonPollers(jsonSim.port, c.jsonPollers, {
      users: users.json,
      ledger: ledgers.events,
      odd,
    });
    closers.push(
      () => listen.stop(),
      () => events.stop(),
    );
    listen.start();
    events.start();
    for (let i = 0; i < 100 && (listen.written < c.legacyPollers || events.written < c.jsonPollers); i++)
      await sleep(50);
    log(
      `  ${c.legacyPollers} legacy long-pollers (${Math.round(config.hangUpShare * 100)}% hanging up), ${c.jsonPollers} JSON pollers waiting`,
    );

    const watcher = await watch(sims, config.probeEveryMs, config.rssEveryMs);
    const warmUpEndWall = Date.now() + config.warmUpMs;
    const warm = setTimeout(watcher.sample, config.warmUpMs);
    const progress = setInterval(() => {
      const kb = (kind: string) => Math.round((watcher.rss[kind]?.at(-1)?.kb ?? 0) / 1024);
      const posted = KINDS.map((k) => posts[k].count).join('/');
      log(
        `  posted ${posted}, legacy deliveries ${ledgers.queue.counts.deliveries}, hang-ups ${listen.hangUps}, JSON events read ${ledgers.events.counts.deliveries}, RSS legacy ${kb('legacy')} MB json ${kb('json')} MB`,
      );
    }, 30_000);
    closers.push(
      () => clearTimeout(warm),
      () => clearInterval(progress),
    );
    loadDelay.enable();
    log(`  posting ${config.postsPerSecond}/s of each kind for ${config.loadMs / 1000} s`);
    const loadStart = performance.now();
    await postLoad(config, { json: jsonSim.port, legacy: legacySim.port }, posts);
    const loadEndMs = performance.now() - loadStart;
    watcher.sample();

    // Final drain: no more hang-ups; wait until every delivery is in or the drain time is up.
    hangingUp = false;
    const drainStart = performance.now();
    const complete = () =>
      [ledgers.queue, ledgers.events, ledgers.stomp, ledgers.stream].every((l) => l.missing() === 0);
    while (!complete() && performance.now() - drainStart < config.drainMs) await sleep(250);
    const drainMs = performance.now() - drainStart;
    loadDelay.disable();
    log(`  drain ${complete() ? 'complete' : 'stopped at its limit'} after ${(drainMs / 1000).toFixed(1)} s`);
    for (const close of closers.splice(0)) close();
    const { rss, probes } = await watcher.stop();
    for (const { kind, sim } of sims)
      if (sim.exited()) throw new Error(`the ${kind} simulator died: ${sim.output()}`);
    const report = soakReport(config, ledgers, {
      ...{ listen, events, odd, pids: { legacy: legacySim.pid, json: jsonSim.pid }, rss, probes },
      ...{ warmUpEndWall, loadEndMs },
      ...{ loadEventLoopP99Ms: round(loadDelay.percentile(99) / 1e6), drainMs, drainComplete: complete() },
      durationMs: Date.now() - started,
    });
    const files = writeSoakReport(
      options.outDir ?? path.join(REPO_ROOT, 'bench', 'results', 'raw', 'soak'),
      report,
    );
    return { report, files };
  } finally {
    for (const close of closers) close();
    await Promise.all(sims.map(({ sim }) => sim.stop()));
    killAllChildren();
    rmSync(tmp, { recursive: true, force: true });
  }
}
