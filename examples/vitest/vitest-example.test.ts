import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

// Runs the vitest example as a user would (`vitest run`), in a process of its own, against the
// built package: its `import { startSimulators } from 'racedata-sim'` resolves to the build, which
// `npm test` makes first.
test('the vitest example passes under vitest run', async () => {
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const config = path.join(__dirname, 'vitest.config.mts');
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [vitest, 'run', '--config', config, '--reporter', 'verbose'],
      { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: '1', CI: 'true' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
  expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/Tests\s+2 passed \(2\)/) });
}, 90_000);
