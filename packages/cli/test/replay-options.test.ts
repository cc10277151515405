import { isSimError } from '@racedata/core';
import { resolveReplayOptions } from '../src/replay/replay-options';

const TARGET = { target: 'http://localhost:8080' };

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isSimError(err) && err.code === 'CONFIG_INVALID') return err.message;
    throw err;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('replay: options', () => {
  it('defaults to timed replay without a cap, no loop, 30 s wait, 3 retries', () => {
    expect(resolveReplayOptions(TARGET, {})).toEqual({
      target: 'http://localhost:8080',
      recordingsDir: undefined,
      kind: undefined,
      schedule: { mode: 'timed' },
      loop: false,
      rebaseDates: false,
      waitTimeoutMs: 30_000,
      retries: 3,
      progressIntervalMs: 10_000,
      logLevel: 'info',
      logFormat: 'auto',
    });
  });

  it('reads every variable from the environment', () => {
    const options = resolveReplayOptions(
      {},
      {
        REPLAY_TARGET: 'http://sim:3000/',
        RECORDINGS_DIR: '/recordings',
        REPLAY_KIND: 'json',
        MAX_DELAY: '2000',
        INITIAL_DELAY: '5',
        REPLAY_LOOP: 'true',
        REPLAY_REBASE_DATES: 'yes',
        REPLAY_WAIT_TIMEOUT: '100',
        REPLAY_RETRIES: '0',
        REPLAY_PROGRESS_INTERVAL: '0',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      },
    );
    expect(options).toEqual({
      target: 'http://sim:3000',
      recordingsDir: '/recordings',
      kind: 'json',
      schedule: { mode: 'timed', maxDelayMs: 2000, initialDelayMs: 5 },
      loop: true,
      rebaseDates: true,
      waitTimeoutMs: 100,
      retries: 0,
      progressIntervalMs: 0,
      logLevel: 'warn',
      logFormat: 'json',
    });
  });

  it('switches to interval replay, which loops unless told not to', () => {
    const env = { AUTO_REPLAY_MESSAGE_INTERVAL: '200', MAX_DELAY: '5' };
    const looping = resolveReplayOptions(TARGET, env);
    expect(looping.schedule).toEqual({ mode: 'interval', intervalMs: 200 });
    expect(looping.loop).toBe(true);
    expect(resolveReplayOptions({ ...TARGET, loop: false }, env).loop).toBe(false);
    expect(resolveReplayOptions(TARGET, { ...env, REPLAY_LOOP: 'false' }).loop).toBe(false);
  });

  it('lets a flag beat its variable', () => {
    const options = resolveReplayOptions(
      { target: 'http://flag:1', maxDelay: '7', rebaseDates: false },
      { REPLAY_TARGET: 'http://env:2', MAX_DELAY: 'not read', REPLAY_REBASE_DATES: 'true' },
    );
    expect(options.target).toBe('http://flag:1');
    expect(options.schedule).toEqual({ mode: 'timed', maxDelayMs: 7 });
    expect(options.rebaseDates).toBe(false);
  });

  it.each([
    [{ MAX_DELAY: 'abc' }, /^MAX_DELAY \(--max-delay\): expected a whole number, got "abc"$/],
    [{ MAX_DELAY: '-1' }, /^MAX_DELAY \(--max-delay\): expected a number from 0/],
    [{ AUTO_REPLAY_MESSAGE_INTERVAL: '0' }, /^AUTO_REPLAY_MESSAGE_INTERVAL \(--interval\)/],
    [{ MAX_DELAY: '2147483648' }, /^MAX_DELAY \(--max-delay\): expected a number from 0 to 2147483647/],
    [{ REPLAY_LOOP: 'sometimes' }, /^REPLAY_LOOP \(--loop\): expected true or false/],
    [{ REPLAY_KIND: 'xml' }, /^REPLAY_KIND \(--kind\): expected one of legacy, json/],
    [{ REPLAY_TARGET: 'ftp://x' }, /^REPLAY_TARGET \(--target\): expected an http\(s\) URL/],
    [{ REPLAY_TARGET: 'localhost:8080' }, /^REPLAY_TARGET \(--target\)/],
    [{ REPLAY_TARGET: 'not a url' }, /^REPLAY_TARGET \(--target\): expected an http\(s\) URL/],
    [{ REPLAY_RETRIES: '100' }, /^REPLAY_RETRIES \(--retries\): expected a number from 0 to 20/],
  ])('refuses %p with one line naming the variable', (env, message) => {
    const target = 'REPLAY_TARGET' in env ? {} : TARGET;
    expect(configError(() => resolveReplayOptions(target, env))).toMatch(message);
  });

  it('requires a target', () => {
    expect(configError(() => resolveReplayOptions({}, {}))).toMatch(
      /^REPLAY_TARGET \(--target\) is required/,
    );
  });
});
