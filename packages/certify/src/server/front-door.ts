import type { IncomingMessage, RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestUrl } from '@racedata/control';
import type {
  AnswerChange,
  FrameChange,
  FrontDoor,
  OutageOutcome,
  OutagePlan,
  SilencedSession,
} from '../types';
import { rewriteAnswer } from './answer-rewrite';
import { FrameTap } from './frame-tap';
import { outage, type OutageTarget } from './outage';
import { answerVariables, VARIABLES_PATH } from './variables-route';

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** `/A/b/` and `/a/b` are one route to the simulators. */
export function routeOf(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * certify's own layer between the client and the simulator (see FrontDoor in types.ts): it taps
 * every WebSocket session so a scenario can silence it, change its frames or add one, changes
 * long-poll answers, and takes the whole server away for an outage. Nothing passes through it
 * changed unless a scenario asked.
 */
export class CertifyFrontDoor implements FrontDoor {
  private readonly taps = new Map<FrameTap, string>();
  private readonly frameChanges = new Set<FrameChange>();
  private readonly answerChanges = new Set<AnswerChange>();
  private target: OutageTarget | undefined;
  private variables: Readonly<Record<string, string>> | undefined;

  constructor(private readonly now: () => number) {}

  /** What GET /_sim/certify/variables answers from now on; `served` is the host:port they name. */
  serveVariables(variables: Readonly<Record<string, string>>, served: string): void {
    this.variables = variables;
    this.served = served;
  }

  private served = '';

  /** The server an outage takes away, once it listens. */
  serve(target: OutageTarget): void {
    this.target = target;
  }

  /**
   * In front of everything, the recorder included: a liveness probe (a container's HEALTHCHECK
   * asking GET /health every few seconds) is answered by the simulator and never taken for the
   * client's traffic.
   */
  probes(recorded: RequestListener, simulator: RequestListener): RequestListener {
    return (req, res) => {
      if (routeOf(requestUrl(req).pathname) === '/health') simulator(req, res);
      else recorded(req, res);
    };
  }

  handle(inner: RequestListener): RequestListener {
    return (req, res) => {
      const route = routeOf(requestUrl(req).pathname);
      if (route === VARIABLES_PATH) return answerVariables(req, res, this.variables, this.served);
      if (this.answerChanges.size > 0) {
        const changes = [...this.answerChanges].filter((change) => change.path === route);
        rewriteAnswer(res, changes, this.now);
      }
      inner(req, res);
    };
  }

  handleUpgrade(inner: UpgradeListener): UpgradeListener {
    return (req, socket, head) => {
      const tap = new FrameTap(socket, () => [...this.frameChanges], this.now);
      this.taps.set(tap, routeOf(requestUrl(req).pathname));
      socket.once('close', () => this.taps.delete(tap));
      inner(req, socket, head);
    };
  }

  silence(paths: readonly string[]): SilencedSession[] {
    const silenced: SilencedSession[] = [];
    for (const [tap, path] of this.on(paths)) {
      if (tap.silenced) continue;
      tap.silence();
      silenced.push({ path, lastFrameAt: tap.lastFrameAt, lastFrame: tap.lastFrameText });
    }
    return silenced;
  }

  inject(paths: readonly string[], text: string): number {
    let sent = 0;
    for (const [tap] of this.on(paths)) if (tap.inject(text)) sent++;
    return sent;
  }

  changeFrames(change: FrameChange): () => void {
    this.frameChanges.add(change);
    return () => this.frameChanges.delete(change);
  }

  changeAnswers(change: AnswerChange): () => void {
    this.answerChanges.add(change);
    return () => this.answerChanges.delete(change);
  }

  outage(plan: OutagePlan, signal: AbortSignal): Promise<OutageOutcome> {
    if (!this.target) return Promise.reject(new Error('the certify server is not listening'));
    return outage(this.target, plan, signal);
  }

  private on(paths: readonly string[]): Array<[FrameTap, string]> {
    const wanted = new Set(paths.map(routeOf));
    return [...this.taps].filter(([, path]) => wanted.has(path));
  }
}
