import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { checkedClients, legacyTag } from '../clients/receipts';
import { EARLY_HANG_UP_MS, type ClientSet } from '../clients/sets';
import { until } from '../harness/http';
import { PostLog, ReceiptLedger } from '../harness/ledger';
import { jsonDurableMessage, jsonTransientMessage, postJson, postLegacy } from '../harness/payloads';
import { killAllChildren, ourSim, requireOpenFiles, type Server, type SimKind } from '../harness/processes';
import { postAtRate } from '../harness/schedule';
import { round } from '../harness/rows';
import { usersFile } from '../harness/users-file';
import { watch } from '../harness/watch';
import { writeReportFiles } from '../results/write-results';
import { SUBSCRIPTIONS, TARGETS, TRANSPORTS, soakConfig, type SoakOptions } from './config';
import { soakMarkdown, soakReport } from './report';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** `outDir`: where the JSON and markdown reports go (default bench/results/raw/soak, git-ignored). */
export type RunSoakOptions = SoakOptions & { readonly outDir?: string; readonly log?: (m: string) => void };

/** Message `seq` of a transport's kind to `target`; legacy documents carry their kind and channel. */
const post = ({ kind }: (typeof TRANSPORTS)[number], port: number, target: string, seq: number) =>
  kind === 'durable' || kind === 'transient'
    ? postJson(port, (kind === 'durable' ? jsonDurableMessage : jsonTransientMessage)(seq, target))
    : postLegacy(port, kind, seq, target, legacyTag(kind, target));

/** Runs one soak: both simulators as CLI processes, the clients, the poster, the final drain. */
export async function runSoak(options: RunSoakOptions = {}) {
  const started = Date.now();
  const config = soakConfig(options);
  const log = options.log ?? ((m: string) => console.log(m));
  requireOpenFiles(Object.values(config.clients).reduce((a, b) => a + b, 256));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'racedata-soak-'));
  const loadDelay = monitorEventLoopDelay({ resolution: 10 });
  const [sets, timers] = [[] as ClientSet[], [] as NodeJS.Timeout[]];
  const sims: Array<{ kind: SimKind; sim: Server }> = [];
  try {
    const users = {
      legacy: usersFile(tmp, 'legacy', config.legacyUsers, SUBSCRIPTIONS.legacy),
      json: usersFile(tmp, 'json', config.jsonUsers, SUBSCRIPTIONS.json),
    };
    const start = async (kind: SimKind) => {
      const env = { LONG_POLL_TIMEOUT_MS: String(config.longPollTimeoutMs), USERS_FILE: users[kind].file };
      return { kind, sim: await ourSim({ simRoot: REPO_ROOT }, kind, { plain: true, env }) };
    };
    sims.push(...(await Promise.all([start('legacy'), start('json')])));
    const port = (kind: SimKind) => (sims.find((s) => s.kind === kind) as { sim: Server }).sim.port;
    const running = sims.map((s) => `${s.kind} pid ${s.sim.pid} port ${s.sim.port}`);
    log(`soak (${config.quick ? 'quick' : 'full'}): ${running.join(', ')}`);
    let hangingUp = true;
    const hangsUp = (i: number) =>
      Math.floor((i + 1) * config.hangUpShare) > Math.floor(i * config.hangUpShare);
    // The hang-up share abandon half their polls and poll again at once: half of those 0-20 ms
    // after sending (before any byte of the answer), half at a random moment before the timeout.
    const hangUpAfter = (i: number) =>
      hangingUp && hangsUp(i) && Math.random() < 0.5
        ? Math.random() * (Math.random() < 0.5 ? EARLY_HANG_UP_MS : config.longPollTimeoutMs)
        : undefined;
    // Each transport's receipts: client i is of user i mod users; a legacy queue is its user's.
    const max = Math.ceil((config.postsPerSecond * config.loadMs) / 1000) + 1;
    const transports: Array<readonly [string, ReceiptLedger, ClientSet]> = [];
    for (const t of TRANSPORTS) {
      const [kind, { users: all, tokens }] = [t.clients, users[t.sim]];
      const count = config.clients[kind];
      const ledger = new ReceiptLedger(new PostLog(max), all, t.kind === 'Durable' ? all.length : count);
      const hangUps = kind === 'legacy-listens' && { hangUpAfter, hangUpStyle: config.hangUpStyle };
      const clients = await checkedClients({ kind, port: port(t.sim), count, tokens, ...hangUps }, ledger);
      sets.push(clients);
      transports.push([t.name, ledger, clients] as const);
    }
    await until(() => sets.every((s) => s.waiting() >= s.count), 5000, 50);
    log(`  ${transports.map(([name, , set]) => `${set.count} ${name} clients`).join(', ')} waiting`);

    const watcher = await watch(sims, config.probeEveryMs, config.rssEveryMs);
    const warmUpEndWall = Date.now() + config.warmUpMs;
    timers.push(setTimeout(watcher.sample, config.warmUpMs));
    const progress = () => transports.map(([name, l]) => `${name} ${l.posts.count} / ${l.counts.deliveries}`);
    timers.push(setInterval(() => log(`  posted / received: ${progress().join(', ')}`), 30_000));
    loadDelay.enable();
    log(`  posting ${config.postsPerSecond}/s of each kind for ${config.loadMs / 1000} s`);
    const loadStart = performance.now();
    const ticks = Math.ceil((config.postsPerSecond * config.loadMs) / 1000);
    await Promise.all(
      TRANSPORTS.map((t, k) => {
        const send = (seq: number, target: string) => post(t, port(t.sim), target, seq);
        const target = (tick: number) => TARGETS[t.kind][tick % TARGETS[t.kind].length] as string;
        return postAtRate(transports[k]?.[1].posts as PostLog, config.postsPerSecond, ticks, send, target);
      }),
    );
    const loadEndMs = performance.now() - loadStart;
    watcher.sample();

    // Final drain: no more hang-ups; wait until every delivery is in or the drain time is up.
    hangingUp = false;
    const drainStart = performance.now();
    const drained = () => transports.every(([, l]) => l.missing() === 0);
    const drainComplete = await until(drained, config.drainMs, 250);
    const drainMs = performance.now() - drainStart;
    loadDelay.disable();
    const how = drainComplete ? 'complete' : 'stopped at its limit';
    log(`  drain ${how} after ${(drainMs / 1000).toFixed(1)} s`);
    for (const set of sets.splice(0)) set.close();
    const { rss, probes } = await watcher.stop();
    for (const { kind, sim } of sims)
      if (sim.exited()) throw new Error(`the ${kind} simulator died: ${sim.output()}`);
    const report = soakReport(config, transports, {
      ...{ pids: Object.fromEntries(sims.map((s) => [s.kind, s.sim.pid])), rss, probes },
      ...{ warmUpEndWall, loadEndMs, loadEventLoopP99Ms: round(loadDelay.percentile(99) / 1e6) },
      ...{ drainMs, drainComplete, durationMs: Date.now() - started },
    });
    const outDir = options.outDir ?? path.join(REPO_ROOT, 'bench', 'results', 'raw', 'soak');
    const name = `soak-${report.mode}-${report.machine.date.replace(/[:.]/g, '-')}`;
    return { report, files: writeReportFiles(outDir, name, soakMarkdown(report), report) };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const set of sets) set.close();
    await Promise.all(sims.map(({ sim }) => sim.stop()));
    killAllChildren();
    rmSync(tmp, { recursive: true, force: true });
  }
}
