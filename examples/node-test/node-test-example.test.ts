import { execFile } from 'node:child_process';
import path from 'node:path';

// Runs the node:test example as a user would (`node --test`), in a process of its own, against the
// built package: its `import { startSimulators } from 'racedata-sim'` resolves to the build, which
// `npm test` makes first.
test('the node:test example passes under node --test', async () => {
  const file = path.join(__dirname, 'simulators.test.mjs');
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, ['--test', file], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
  expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/# pass 2\n/) });
  expect(output).toMatch(/# fail 0\n/);
});
