import type { StartMethod } from '../model/types';

export const round = (x: number, decimals: number): number => Math.round(x * 10 ** decimals) / 10 ** decimals;

/**
 * Trotting's kilometre time as Swedish feeds print it: minutes.seconds,tenths per kilometre,
 * `a` for an autostart (1.12,5a).
 */
export function kmTime(seconds: number, metres: number, method: StartMethod | undefined): string {
  const tenths = Math.round((seconds * 10_000) / metres);
  const whole = Math.floor(tenths / 10);
  return `${Math.floor(whole / 60)}.${String(whole % 60).padStart(2, '0')},${tenths % 10}${method === 'auto' ? 'a' : ''}`;
}

/** A gallop finishing time, m:ss.hh. */
export function raceTime(seconds: number): string {
  const hundredths = Math.round(seconds * 100);
  const minutes = Math.floor(hundredths / 6000);
  const rest = (hundredths - minutes * 6000) / 100;
  return `${minutes}:${rest.toFixed(2).padStart(5, '0')}`;
}

/** Seconds a length takes at racing pace. */
const LENGTH_SECONDS = 0.18;

/** The margin to the runner that finished just ahead, in the words results use. */
export function marginWords(behindSeconds: number): string {
  if (behindSeconds <= 0) return 'dött lopp';
  const lengths = behindSeconds / LENGTH_SECONDS;
  if (lengths < 0.1) return 'nos';
  if (lengths < 0.2) return 'huvud';
  if (lengths < 0.35) return 'hals';
  if (lengths < 0.75) return 'en halv längd';
  if (lengths < 1.25) return '1 längd';
  if (lengths < 1.75) return '1 1/2 längd';
  return `${Math.round(lengths)} längder`;
}

export const marginLengths = (behindSeconds: number): number =>
  Math.round((Math.max(0, behindSeconds) / LENGTH_SECONDS) * 4) / 4;
