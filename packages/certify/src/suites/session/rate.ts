/**
 * The most of `times` (ms, any order) that fall in one window of `windowMs`, the window sliding
 * from each of them: "at most 2 attempts a second" is read over every second, not per clock
 * second, so a burst straddling a second boundary is still seen.
 */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}
