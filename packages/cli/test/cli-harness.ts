import { PassThrough } from 'node:stream';
import type { CliContext } from '../src/context';

export interface FakeCli {
  ctx: CliContext;
  stdout(): string;
  stderr(): string;
  exited: Promise<number>;
  signal(name?: string): void;
  /** Resolves once stdout contains the text. */
  waitForOutput(text: string | RegExp): Promise<string>;
}

/** A CliContext that records output and exit codes instead of touching the real process. */
export function fakeCli(env: Record<string, string | undefined> = {}): FakeCli {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk: Buffer) => (outText += chunk.toString()));
  err.on('data', (chunk: Buffer) => (errText += chunk.toString()));
  let handler: ((signal: string) => void) | undefined;
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const ctx: CliContext = {
    env,
    stdout: out,
    stderr: err,
    exit: (code) => resolveExit(code),
    onShutdownSignal: (h) => (handler = h),
  };
  return {
    ctx,
    stdout: () => outText,
    stderr: () => errText,
    exited,
    signal: (name = 'SIGTERM') => handler?.(name),
    waitForOutput: (text) =>
      new Promise((resolve) => {
        const check = () => {
          const hit = typeof text === 'string' ? outText.includes(text) : text.test(outText);
          if (!hit) return false;
          out.off('data', check);
          resolve(outText);
          return true;
        };
        if (!check()) out.on('data', check);
      }),
  };
}

/** The port the banner says a simulator listens on. */
export function bannerPort(output: string, title: string): number {
  const match = new RegExp(`${title} listening on http://[^:]+:(\\d+)`).exec(output);
  if (!match?.[1]) throw new Error(`no "${title}" banner in:\n${output}`);
  return Number(match[1]);
}
