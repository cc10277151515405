import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { killAllChildren } from '../lib/child-server';
import { openFilesLimit, rssKb } from '../lib/proc-stats';
import { startHealthProbe, type HealthProbe } from './health-probe';
import { roundDistribution, rssFigures, transientFigures, verdicts } from './verdicts';
import { startCliSimulator, type CliSimulator } from '../lib/simulator-process';
import { sleep } from '../lib/http-client';
import type { PollClients } from '../lib/poll-clients';
import { distribution, round } from '../lib/stats';
import { machineInfo } from '../machine';
import { eventStreamClients, jsonPollers, legacyPollers, roundRobin, stompClients } from './clients';
import type { OddAnswers, SocketClients } from './clients';
import { KINDS, soakConfig, type MessageKind, type SoakConfig, type SoakOptions } from './config';
import { BroadcastLedger, EventLogLedger, PostLog, QueueLedger } from './ledger';
import { postJson, postLegacy } from '../lib/posts';
import { eventIdOf, soakJson, soakLegacyMessage } from './messages';
import { writeSoakReport, type ProbeFigures, type SoakReport } from './report';
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

const PROBE_LABEL =
  'GET /health probe latency after warm-up (from a separate process; the simulators expose no event-loop figure)';

interface Ledgers {
  posts: Record<MessageKind, PostLog>;
  queue: QueueLedger;
  events: EventLogLedger;
  stomp: BroadcastLedger;
  stream: BroadcastLedger;
}

/** Posts one message of each kind every 1000/rate ms until the load time or the counts are used up. */
async function postLoad(
  config: SoakConfig,
  sims: { json: CliSimulator; legacy: CliSimulator },
  ledgers: Ledgers,
): Promise<void> {
  const pending = new Set<Promise<void>>();
  const inFlight: Record<MessageKind, number> = {
    legacyDurable: 0,
    legacyNonDurable: 0,
    jsonDurable: 0,
    jsonTransient: 0,
  };
  const send = (
    kind: MessageKind,
    target: string,
    post: (seq: number) => Promise<{ status: number; body: Buffer }>,
  ) => {
    const log = ledgers.posts[kind];
    // A simulator that stops answering must not pile up requests without bound.
    if (log.count >= log.max || inFlight[kind] >= 32) return;
    const seq = log.next(target, performance.now());
    inFlight[kind]++;
    const p = post(seq).then(
      (res) => {
        const ok = res.status >= 200 && res.status < 300;
        log.settle(seq, ok, kind === 'jsonDurable' && ok ? eventIdOf(res.body) : undefined);
      },
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
    send('legacyDurable', LEGACY_DURABLE_TARGETS[tick % LEGACY_DURABLE_TARGETS.length] as string, (seq) =>
      postLegacy(
        sims.legacy.port,
        'Durable',
        soakLegacyMessage('Durable', ledgers.posts.legacyDurable.target[seq] as string, seq),
      ),
    );
    send(
      'legacyNonDurable',
      LEGACY_TRANSIENT_TARGETS[tick % LEGACY_TRANSIENT_TARGETS.length] as string,
      (seq) =>
        postLegacy(
          sims.legacy.port,
          'NonDurable',
          soakLegacyMessage('NonDurable', ledgers.posts.legacyNonDurable.target[seq] as string, seq),
        ),
    );
    send('jsonDurable', JSON_DURABLE[tick % JSON_DURABLE.length] as string, (seq) =>
      postJson(sims.json.port, soakJson(ledgers.posts.jsonDurable.target[seq] as string, seq)),
    );
    send('jsonTransient', JSON_TRANSIENT[tick % JSON_TRANSIENT.length] as string, (seq) =>
      postJson(sims.json.port, soakJson(ledgers.posts.jsonTransient.target[seq] as string, seq)),
    );
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
  const limit = openFilesLimit();
  if (limit !== undefined && limit < sockets + 256) {
    throw new Error(
      `open-file limit ${limit} is below the ${sockets + 256} this run needs: raise it (ulimit -n 8192)`,
    );
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'racedata-soak-'));
  const loadDelay = monitorEventLoopDelay({ resolution: 10 });
  const closers: Array<() => void> = [];
  let prober: HealthProbe | undefined;
  const sims: CliSimulator[] = [];
  try {
    const users = writeUsersFiles(tmp, config.legacyUsers, config.jsonUsers);
    const common = { LONG_POLL_TIMEOUT_MS: String(config.longPollTimeoutMs) };
    const [legacy, json] = await Promise.all([
      startCliSimulator(REPO_ROOT, 'legacy', { env: { ...common, USERS_FILE: users.legacyFile } }),
      startCliSimulator(REPO_ROOT, 'json', { env: { ...common, USERS_FILE: users.jsonFile } }),
    ]);
    sims.push(legacy, json);
    log(
      `soak (${config.quick ? 'quick' : 'full'}): legacy pid ${legacy.pid} port ${legacy.port}, json pid ${json.pid} port ${json.port}`,
    );

    const maxPosts = Math.ceil((config.postsPerSecond * config.loadMs) / 1000) + 1;
    const posts = Object.fromEntries(KINDS.map((k) => [k, new PostLog(maxPosts)])) as Record<
      MessageKind,
      PostLog
    >;
    const ledgers: Ledgers = {
      posts,
      queue: new QueueLedger(posts.legacyDurable, users.legacy),
      events: new EventLogLedger(posts.jsonDurable, users.json, roundRobin(users.json.length), c.jsonPollers),
      stomp: new BroadcastLedger(
        posts.legacyNonDurable,
        users.legacy,
        roundRobin(users.legacy.length),
        c.stomp,
      ),
      stream: new BroadcastLedger(
        posts.jsonTransient,
        users.json,
        roundRobin(users.json.length),
        c.eventStream,
      ),
    };
    const odd: OddAnswers = { count: 0 };

    prober = await startHealthProbe(sims, config.probeEveryMs, config.loadMs + config.drainMs + 120_000);
    log(`  connecting ${c.stomp} STOMP and ${c.eventStream} event-stream clients`);
    const stomp: SocketClients = await stompClients(legacy.port, c.stomp, users.legacy, ledgers.stomp, odd);
    closers.push(() => stomp.close());
    const stream: SocketClients = await eventStreamClients(
      json.port,
      c.eventStream,
      users.json,
      ledgers.stream,
      odd,
    );
    closers.push(() => stream.close());
    let hangingUp = true;
    const listen: PollClients = legacyPollers({
      port: legacy.port,
      count: c.legacyPollers,
      users: users.legacy,
      ledger: ledgers.queue,
      hangUpShare: config.hangUpShare,
      hangUpStyle: config.hangUpStyle,
      longPollTimeoutMs: config.longPollTimeoutMs,
      hangingUp: () => hangingUp,
      odd,
    });
    const events: PollClients = jsonPollers(json.port, c.jsonPollers, users.json, ledgers.events, odd);
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
      for (const sim of sims) {
        const kb = rssKb(sim.pid);
        if (kb !== undefined) rss[sim.kind]?.push({ atMs, kb });
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
    await postLoad(config, { json, legacy }, ledgers);
    const loadEndMs = performance.now() - loadStart;
    sampleRss();

    // Final drain: no more hang-ups; wait until every delivery is in or the drain time is up.
    hangingUp = false;
    const drainStart = performance.now();
    const complete = () =>
      ledgers.queue.missing() === 0 &&
      ledgers.events.complete() &&
      ledgers.stomp.complete() &&
      ledgers.stream.complete();
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

    const lostSamples: Array<{ seq: number; user: string; target: string }> = [];
    const queueLost = ledgers.queue.missing(lostSamples);
    const eventsLost = ledgers.events.missing();
    const legacyStomp = transientFigures(ledgers.stomp);
    const jsonEventStream = transientFigures(ledgers.stream);
    const qc = ledgers.queue.counts;
    const ec = ledgers.events.counts;
    const probe: Record<string, ProbeFigures> = {};
    for (const sim of sims) {
      const p = probes[sim.kind];
      const afterWarmUp = (p?.samples ?? []).filter((_, k) => (p?.sentAt[k] ?? 0) >= warmUpEndWall);
      probe[sim.kind] = {
        ...roundDistribution(distribution(afterWarmUp)),
        failed: p?.failed ?? 0,
        wholeRun: roundDistribution(distribution(p?.samples ?? [])),
      };
    }
    const body: Omit<SoakReport, 'verdicts' | 'pass'> = {
      mode: config.quick ? 'quick' : 'full',
      machine: machineInfo(),
      settings: {
        loadMs: config.loadMs,
        warmUpMs: config.warmUpMs,
        drainMs: config.drainMs,
        postsPerSecondEachKind: config.postsPerSecond,
        longPollTimeoutMs: config.longPollTimeoutMs,
        clients: { ...c },
        legacyUsers: config.legacyUsers,
        jsonUsers: config.jsonUsers,
        hangUpShare: config.hangUpShare,
        hangUpStyle: config.hangUpStyle,
      },
      posted: Object.fromEntries(
        KINDS.map((k) => [
          k,
          { posted: posts[k].count, accepted: posts[k].count - posts[k].failed, failed: posts[k].failed },
        ]),
      ),
      legacyDurable: {
        expected: ledgers.queue.expectedPairs(),
        deliveries: qc.deliveries,
        lost: queueLost,
        duplicated: qc.duplicated,
        foreign: qc.foreign,
        corrupt: qc.corrupt,
        hangUps: listen.hangUps,
        pollErrors: listen.errors,
        ...(listen.lastError !== undefined && { lastPollError: listen.lastError }),
        lostExamples: lostSamples,
      },
      jsonDurable: {
        expected: ledgers.events.expectedDeliveries(),
        deliveries: ec.deliveries,
        lost: eventsLost,
        duplicated: ec.duplicated,
        outOfOrder: ledgers.events.outOfOrder,
        foreign: ec.foreign,
        corrupt: ec.corrupt,
        pollErrors: events.errors,
        ...(events.lastError !== undefined && { lastPollError: events.lastError }),
      },
      legacyStomp,
      jsonEventStream,
      oddAnswers: { ...odd },
      totals: {
        posted: KINDS.reduce((sum, k) => sum + posts[k].count, 0),
        lost: queueLost + eventsLost,
        duplicated: qc.duplicated + ec.duplicated + legacyStomp.duplicated + jsonEventStream.duplicated,
        foreign: qc.foreign + ec.foreign + legacyStomp.foreign + jsonEventStream.foreign,
        transientMissing: legacyStomp.missing + jsonEventStream.missing,
      },
      latency: {
        'legacy listen (Durable)': roundDistribution(distribution(ledgers.queue.latency.values())),
        'legacy STOMP (NonDurable)': roundDistribution(distribution(ledgers.stomp.latency.values())),
        'JSON /events (durable)': roundDistribution(distribution(ledgers.events.latency.values())),
        'JSON event-stream (transient)': roundDistribution(distribution(ledgers.stream.latency.values())),
      },
      rss: {
        legacy: rssFigures(legacy.pid, rss.legacy ?? [], config.warmUpMs, loadEndMs),
        json: rssFigures(json.pid, rss.json ?? [], config.warmUpMs, loadEndMs),
      },
      probe,
      probeLabel: PROBE_LABEL,
      loadEventLoopP99Ms: round(loadDelay.percentile(99) / 1e6),
      drainMs: Math.round(drainMs),
      drainComplete: drained,
      durationMs: 0,
    };
    for (const sim of sims) {
      if (sim.exited()) throw new Error(`the ${sim.kind} simulator died during the run: ${sim.output()}`);
    }
    await Promise.all(sims.map((s) => s.stop()));
    const list = verdicts(body);
    const report: SoakReport = {
      ...body,
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
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    killAllChildren();
    rmSync(tmp, { recursive: true, force: true });
  }
}
