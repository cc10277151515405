import type { Simulator, SimulatorSettings } from '@racedata/core';
import { createProbed as probed } from '@racedata/test-support';
import WebSocket from 'ws';
import { createLegacySimulator, type LegacySimulatorDeps, type LegacySimulatorProbe } from '../src';
import type { StompFrame } from '../src/stomp/stomp-frame';
import { StompParser } from '../src/stomp/stomp-parser';

export { closeAll, waitFor } from '@racedata/test-support';

export const TOKEN = 'dGVzdHVzZXI=';
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export interface Running {
  sim: Simulator;
  /** In-process access (publish, queues, STOMP fan-out) through the factory's test-only probe. */
  probe: LegacySimulatorProbe;
  base: string;
  ws(path?: string): string;
}

/** Starts a simulator on an ephemeral port; closeAll() in afterEach stops it. */
export async function startSim(
  settings: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): Promise<Running> {
  const { sim, probe } = createProbed({ longPollTimeoutMs: 2000, ...settings }, deps);
  const { port } = await sim.listen(0, '127.0.0.1');
  return {
    sim,
    probe,
    base: `http://127.0.0.1:${port}`,
    ws: (path = '/customerapi/channels/connect') => `ws://127.0.0.1:${port}${path}`,
  };
}

/** A simulator (not listening, closed by closeAll()) and its test-only probe. */
export function createProbed(
  settings: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): { sim: Simulator; probe: LegacySimulatorProbe } {
  return probed(createLegacySimulator, settings, deps);
}

export function post(
  base: string,
  path: string,
  body: string,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(base + path, { method: 'POST', headers: { 'content-type': contentType }, body });
}

export interface Closed {
  code: number;
  reason: string;
}

/** A bare WebSocket STOMP peer that sends exactly what the test says and records every frame. */
export class RawStomp {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<Closed>;
  heartBeats = 0;
  private readonly frames: StompFrame[] = [];
  private waiters: Array<(frame: StompFrame) => void> = [];

  constructor(url: string, headers: Record<string, string> = AUTH, protocols?: string[]) {
    this.ws = new WebSocket(url, protocols, { headers });
    const parser = new StompParser({
      onFrame: (frame) => {
        const waiter = this.waiters.shift();
        if (waiter) waiter(frame);
        else this.frames.push(frame);
      },
      onHeartBeat: () => {
        this.heartBeats += 1;
      },
    });
    parser.version = '1.2';
    this.ws.on('message', (data: Buffer) => parser.push(data));
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  static async connect(
    url: string,
    connectHeaders = 'accept-version:1.2\nheart-beat:0,0',
  ): Promise<RawStomp> {
    const peer = new RawStomp(url);
    await peer.opened;
    peer.send(`CONNECT\n${connectHeaders}\n\n\0`);
    const frame = await peer.next();
    if (frame.command !== 'CONNECTED') throw new Error(`expected CONNECTED, got ${frame.command}`);
    return peer;
  }

  send(text: string | Buffer): void {
    this.ws.send(text);
  }

  next(): Promise<StompFrame> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Frames received and not yet taken by next(). */
  pending(): readonly StompFrame[] {
    return this.frames;
  }

  close(): void {
    this.ws.close();
  }
}
