import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { killAllChildren } from '../harness/processes';
import { requireOpenFiles, rssKb } from '../harness/proc';
import { startHealthProbe, type HealthProbe } from './health-probe';
import { startSim, type Server, type SimKind } from '../harness/processes';
import { sleep, type HttpResult } from '../harness/http';
import { round } from '../harness/stats';
import { postJson, postLegacy } from '../harness/http';
import { jsonPollers, legacyPollers, streamClients } from './clients';
import type { OddAnswers } from './clients';
import { KINDS, soakConfig, type MessageKind, type SoakConfig, type SoakOptions } from './config';
import { soakFigures, verdicts } from './figures';
import { soakLedgers, type PostLog } from './ledger';
import { soakJson, soakLegacyMessage } from './messages';
import { writeSoakReport, type SoakReport } from './report';
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

type Ports = Record<'json' | 'legacy', number>;
type Post = (ports: Ports, target: string, seq: number) => Promise<HttpResult>;
const legacyPost =
  (kind: 'Durable' | 'NonDurable'): Post =>
  (ports, target, seq) =>
    postLegacy(ports.legacy, kind, soakLegacyMessage(kind, target, seq));
const jsonPost: Post = (ports, target, seq) => postJson(ports.json, soakJson(target, seq));

/** Each kind's targets (taken in turn) and its post of message `seq` to `target`. */
const POSTS: Record<MessageKind, readonly [targets: readonly string[], post: Post]> = {
  legacyDurable: [LEGACY_DURABLE_TARGETS, legacyPost('Durable')],
  legacyNonDurable: [LEGACY_TRANSIENT_TARGETS, legacyPost('NonDurable')],
  jsonDurable: [JSON_DURABLE, jsonPost],
  jsonTransient: [JSON_TRANSIENT, jsonPost],
};

/** Posts one message of each kind every 1000/rate ms until the load time or the counts are used up. */
async function postLoad(
  config: SoakConfig,
  ports: Ports,
  posts: Record<MessageKind, PostLog>,
): Promise<void> {
  const pending = new Set<Promise<void>>();
  const inFlight = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<MessageKind, number>;
  const send = (kind: MessageKind, tick: number) => {
    const log = posts[kind];
    // A simulator that stops answering must not pile up requests without bound.
    if (log.count >= log.max || inFlight[kind] >= 32) return;
    const [targets, post] = POSTS[kind];
    const target = targets[tick % targets.length] as string;
    const seq = log.next(target, performance.now());
    inFlight[kind]++;
    const p = post(ports, target, seq).then(
      (res) => log.settle(seq, res.status >= 200 && res.status < 300),
      () => log.settle(seq, false),
    );
    const tracked = p.finally(() => {
      inFlight[kind]--;
      pending.delete(tracked);
    });
    pending.add(tracked);
  };
  const interval = 1000 / config.postsPerSecond;
  const started = performance.now();
  for (let tick = 0; ; tick++) {
    const due = started + tick * interval;
    if (due - started >= config.loadMs) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    for (const kind of KINDS) send(kind, tick);
  }
  await Promise.all(pending);
}

/** Runs one soak: both simulators as CLI processes, the clients, the poster, the final drain. */
export async function runSoak(
  options: RunSoakOptions = {},
): Promise<{ report: SoakReport; files: { json: string; markdown: string } }> {
  const started = Date.now();
  const config = soakConfig(options);
  const log = options.log ?? ((m: string) => console.log(m));
  const c = config.clients;
  const sockets = c.legacyPollers + c.jsonPollers + c.eventStream + c.stomp;
  requireOpenFiles(sockets + 256);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'racedata-soak-'));
  const loadDelay = monitorEventLoopDelay({ resolution: 10 });
  const closers: Array<() => void> = [];
  let prober: HealthProbe | undefined;
  const sims: Array<{ kind: SimKind; sim: Server }> = [];
  try {
    const users = writeUsersFiles(tmp, config.legacyUsers, config.jsonUsers);
    const common = { LONG_POLL_TIMEOUT_MS: String(config.longPollTimeoutMs) };
    const [legacy, json] = await Promise.all([
      startSim(REPO_ROOT, 'legacy', { plain: true, env: { ...common, USERS_FILE: users.legacyFile } }),
      startSim(REPO_ROOT, 'json', { plain: true, env: { ...common, USERS_FILE: users.jsonFile } }),
    ]);
    sims.push({ kind: 'legacy', sim: legacy }, { kind: 'json', sim: json });
    log(
      `soak (${config.quick ? 'quick' : 'full'}): legacy pid ${legacy.pid} port ${legacy.port}, json pid ${json.pid} port ${json.port}`,
    );

    const maxPosts = Math.ceil((config.postsPerSecond * config.loadMs) / 1000) + 1;
    const ledgers = soakLedgers(maxPosts, users, c);
    const { posts } = ledgers;
    const odd: OddAnswers = { count: 0 };

    const targets = sims.map(({ kind, sim }) => ({ name: kind, port: sim.port }));
    prober = await startHealthProbe(targets, config.probeEveryMs, config.loadMs + config.drainMs + 120_000);
    log(`  connecting ${c.stomp} STOMP and ${c.eventStream} event-stream clients`);
    const stomp = await streamClients('stomp', legacy.port, c.stomp, users.legacy, ledgers.stomp, odd);
    closers.push(() => stomp.close());
    const stream = await streamClients(
      'event-stream',
      json.port,
      c.eventStream,
      users.json,
      ledgers.stream,
      odd,
    );
    closers.push(() => stream.close());
    let hangingUp = true;
    const listen = legacyPollers(legacy.port, config, users.legacy, ledgers.queue, odd, () => hangingUp);
    const events = jsonPollers(json.port, c.jsonPollers, users.json, ledgers.events, odd);
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

    const rss: Record<string, Array<{ atMs: number; kb: number }>> = { legacy: [], json: [] };
    const loadStart = performance.now();
    const warmUpEndWall = Date.now() + config.warmUpMs;
    const sampleRss = () => {
      const atMs = Math.round(performance.now() - loadStart);
      for (const { kind, sim } of sims) {
        const kb = rssKb(sim.pid);
        if (kb !== undefined) rss[kind]?.push({ atMs, kb });
      }
    };
    sampleRss();
    const rssTimer = setInterval(sampleRss, config.rssEveryMs);
    const warmTimer = setTimeout(sampleRss, config.warmUpMs);
    closers.push(
      () => clearInterval(rssTimer),
      () => clearTimeout(warmTimer),
    );
    const progress = config.quick
      ? undefined
      : setInterval(() => {
          const s = Math.round((performance.now() - loadStart) / 1000);
          log(
            `  ${s} s: posted ${KINDS.map((k) => posts[k].count).join('/')}, legacy deliveries ${ledgers.queue.counts.deliveries}, hang-ups ${listen.hangUps}, JSON events read ${ledgers.events.counts.deliveries}, RSS legacy ${Math.round((rss.legacy?.at(-1)?.kb ?? 0) / 1024)} MB json ${Math.round((rss.json?.at(-1)?.kb ?? 0) / 1024)} MB`,
          );
        }, 30_000);
    if (progress) closers.push(() => clearInterval(progress));

    loadDelay.enable();
    log(`  posting ${config.postsPerSecond}/s of each kind for ${config.loadMs / 1000} s`);
    await postLoad(config, { json: json.port, legacy: legacy.port }, posts);
    const loadEndMs = performance.now() - loadStart;
    sampleRss();

    // Final drain: no more hang-ups; wait until every delivery is in or the drain time is up.
    hangingUp = false;
    const drainStart = performance.now();
    const complete = () =>
      [ledgers.queue, ledgers.events, ledgers.stomp, ledgers.stream].every((l) => l.missing() === 0);
    let drained = complete();
    while (!drained && performance.now() - drainStart < config.drainMs) {
      await sleep(250);
      drained = complete();
    }
    const drainMs = performance.now() - drainStart;
    loadDelay.disable();
    log(`  drain ${drained ? 'complete' : 'stopped at its limit'} after ${(drainMs / 1000).toFixed(1)} s`);
    sampleRss();
    for (const close of closers.splice(0)) close();
    const probes = await prober.stop();
    prober = undefined;

    const figures = soakFigures(config, ledgers, {
      listen,
      events,
      odd,
      pids: { legacy: legacy.pid, json: json.pid },
      rss,
      probes,
      warmUpEndWall,
      loadEndMs,
      loadEventLoopP99Ms: round(loadDelay.percentile(99) / 1e6),
      drainMs,
      drainComplete: drained,
    });
    for (const { kind, sim } of sims) {
      if (sim.exited()) throw new Error(`the ${kind} simulator died during the run: ${sim.output()}`);
    }
    await Promise.all(sims.map(({ sim }) => sim.stop()));
    const list = verdicts(figures);
    const report: SoakReport = {
      ...figures,
      verdicts: list,
      pass: list.every((v) => v.pass),
      durationMs: Date.now() - started,
    };
    const files = writeSoakReport(
      options.outDir ?? path.join(REPO_ROOT, 'bench', 'results', 'raw', 'soak'),
      report,
    );
    return { report, files };
  } finally {
    for (const close of closers) close();
    await prober?.stop();
    await Promise.all(sims.map(({ sim }) => sim.stop().catch(() => undefined)));
    killAllChildren();
    rmSync(tmp, { recursive: true, force: true });
  }
}
