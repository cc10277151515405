export const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

// Trotting's "kilometre time" as Swedish feeds print it, e.g. 1.14,3a; the `a` marks an auto start.
export function kmTime(seconds: number, distance: number, startMethod: string | undefined): string {
  const perKm = round((seconds * 1000) / distance, 1);
  const whole = Math.floor(perKm);
  const tenth = Math.round((perKm - whole) * 10);
  return `${Math.floor(whole / 60)}.${String(whole % 60).padStart(2, '0')},${tenth}${startMethod === 'auto' ? 'a' : ''}`;
}

export const raceTime = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(2).padStart(5, '0')}`;
