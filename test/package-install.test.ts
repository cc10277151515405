import { execFile, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * racedata-sim as another project gets it: `npm pack` of this repository, installed from the
 * tarball into a fresh project outside it, where a jest suite (CommonJS), a node:test suite (ESM),
 * a strict compile against the public types and the command run (test/consumer/ holds them).
 * It runs the built output, which `npm test` builds first.
 *
 * The tarball is installed offline with an empty npm cache of its own: it must bring everything
 * it runs, and `testcontainers` is an optional peer that npm leaves out. The consumer's tools
 * (jest, typescript, @types/node, and testcontainers once its entry is tried) are this
 * repository's own installs, run or linked from its node_modules: the npm cache that .ci/run's
 * `npm ci --cache` filled is not known to the `npm test` it runs next, so installing them from a
 * cache would only work where some cache happens to be warm.
 */
const root = path.resolve(__dirname, '..');
const fixtures = path.join(__dirname, 'consumer');
const tools = path.join(root, 'node_modules');

interface Npm {
  readonly file: string;
  readonly args: readonly string[];
}

/** The npm running this suite (npm sets npm_execpath for scripts), else the one on PATH. */
function findNpm(): Npm | undefined {
  const execpath = process.env.npm_execpath;
  const candidates: Npm[] = [
    ...(execpath && /npm-cli\.js$/.test(execpath) ? [{ file: process.execPath, args: [execpath] }] : []),
    { file: 'npm', args: [] },
  ];
  return candidates.find(
    (npm) => spawnSync(npm.file, [...npm.args, '--version'], { timeout: 10_000, shell: false }).status === 0,
  );
}

// The consumer runs in an environment of its own: npm passes its settings to scripts as npm_*
// variables (npm_config_local_prefix names this repository, which an inherited one would make
// the install's target), and the jest running this file marks its workers with JEST_*.
function consumerEnv(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|jest_|init_cwd$)/i.test(key)),
  );
  return { ...env, npm_config_cache: cache, npm_config_update_notifier: 'false', NODE_ENV: 'test' };
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  /** The command, then everything it printed. */
  readonly output: string;
}

function run(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<Ran>((resolve) => {
    execFile(
      file,
      args,
      { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({
          code,
          stdout,
          output: `$ ${[file, ...args].join(' ')}\n${stdout}${stderr}${error?.killed ? '\n(killed: timed out)' : ''}`,
        });
      },
    );
  });
}

/** Fails with what the command printed unless it exited 0. */
async function ok(ran: Promise<Ran>): Promise<Ran> {
  const result = await ran;
  if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.output}`);
  return result;
}

const npm = findNpm();
const unavailable = npm ? undefined : 'no npm: neither npm_execpath nor npm on PATH runs';
if (unavailable && process.env.CI !== 'true') {
  process.stderr.write(`package-install.test.ts: SKIPPED: ${unavailable}\n`);
}
const describeIfNpm = unavailable && process.env.CI !== 'true' ? describe.skip : describe;

describeIfNpm('racedata-sim installed from its tarball into another project', () => {
  let tmp = '';
  let project = '';
  let env: NodeJS.ProcessEnv = {};
  let files: string[] = [];
  const npmRun = (args: string[], cwd: string, timeoutMs: number) => {
    if (!npm) throw new Error(`CI=true and ${unavailable}`);
    return ok(run(npm.file, [...npm.args, ...args], cwd, env, timeoutMs));
  };
  const nodeRun = (args: string[], timeoutMs: number) =>
    ok(run(process.execPath, args, project, env, timeoutMs));
  const tsc = (config: string) =>
    nodeRun([path.join(tools, 'typescript/bin/tsc'), '--strict', '--noEmit', '-p', config], 30_000);

  beforeAll(async () => {
    for (const built of ['packages/testkit/dist/racedata-sim.cjs', 'packages/cli/dist/racedata-sim.cjs']) {
      if (!existsSync(path.join(root, built)))
        throw new Error(`${built} is missing: run npm run build first`);
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), 'racedata-consumer-'));
    project = path.join(tmp, 'project');
    env = consumerEnv(path.join(tmp, 'npm-cache'));
    // The build already ran (npm test); --ignore-scripts keeps `prepare` from building again
    // under the tests that run the built files.
    const packed = await npmRun(
      ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp],
      root,
      30_000,
    );
    const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    files = info.files.map((f) => f.path);

    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'racedata-consumer',
        private: true,
        jest: { testEnvironment: 'node', testMatch: ['**/events.test.js'] },
      }),
    );
    for (const file of readdirSync(fixtures))
      copyFileSync(path.join(fixtures, file), path.join(project, file));
    // The certify reference client, the way a consumer project would have its own.
    for (const file of ['events-client.mjs', 'http-helpers.mjs'])
      copyFileSync(path.join(root, 'examples', 'certify', file), path.join(project, file));
    // The same source compiled as an ES module as well (.mts), against the same declarations.
    copyFileSync(path.join(fixtures, 'typed.ts'), path.join(project, 'typed.mts'));
    const tsconfig = (include: string[]) =>
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          target: 'es2022',
          types: ['node'],
          typeRoots: [path.join(tools, '@types')],
          skipLibCheck: false,
        },
        files: include,
      });
    writeFileSync(path.join(project, 'tsconfig.json'), tsconfig(['typed.ts', 'typed.mts']));
    writeFileSync(path.join(project, 'tsconfig.testcontainers.json'), tsconfig(['typed-testcontainers.ts']));

    await npmRun(
      ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, info.filename)],
      project,
      30_000,
    );
  }, 70_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('the tarball holds the bundles, their types and the recordings; no sources, tests or bench', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'packages/cli/bin/racedata-sim.js',
        'packages/cli/dist/racedata-sim.cjs',
        'packages/cli/dist/racedata-sim.on-demand.js',
        'packages/testkit/dist/racedata-sim.cjs',
        'packages/testkit/dist/testcontainers.cjs',
        'packages/testkit/dist/types/index.d.ts',
        'packages/testkit/dist/types/testcontainers/index.d.ts',
        'recordings/README.md',
      ]),
    );
    expect(
      files.filter(
        (f) => /(^|\/)(src|test|bench|docs|scripts)\/|\.(ts|png|map)$/.test(f) && !f.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });

  test('the install brings nothing else: no dependency, and not the optional testcontainers', () => {
    const installed = readdirSync(path.join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed).toEqual(['racedata-sim']);
  });

  test('the main entry compiles with tsc --strict, as CommonJS and as an ES module', async () => {
    await tsc('tsconfig.json');
  }, 30_000);

  test('npx racedata-sim --help', async () => {
    const { output } = await npmRun(['exec', '--offline', '--', 'racedata-sim', '--help'], project, 15_000);
    expect(output).toContain('Usage: racedata-sim');
  }, 20_000);

  test('npx racedata-sim certify grades a client of the project and writes its report', async () => {
    await npmRun(
      [
        'exec',
        '--offline',
        '--',
        'racedata-sim',
        'certify',
        'events',
        '--only',
        'auth-key-secret,repoll-after-200',
        '--report',
        'certify.json',
        '--',
        process.execPath,
        'events-client.mjs',
      ],
      project,
      40_000,
    );
    const report = JSON.parse(readFileSync(path.join(project, 'certify.json'), 'utf8')) as {
      failed: number;
      checks: { id: string; status: string }[];
    };
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ['auth-key-secret', 'pass'],
      ['repoll-after-200', 'pass'],
    ]);
    expect(report.failed).toBe(0);
  }, 45_000);

  test("the test kit's certify() does the same from the project's own script", async () => {
    const { stdout } = await nodeRun(['certify.mjs'], 40_000);
    expect(JSON.parse(stdout)).toEqual({
      failed: 0,
      verdicts: { 'auth-key-secret': 'pass', 'repoll-after-200': 'pass' },
    });
  }, 45_000);

  describe('with testcontainers installed beside it', () => {
    beforeAll(() => {
      symlinkSync(
        path.join(tools, 'testcontainers'),
        path.join(project, 'node_modules/testcontainers'),
        'dir',
      );
    });

    test('a jest suite (CommonJS) starts the simulators and polls an event', async () => {
      const { output } = await nodeRun(
        [path.join(tools, 'jest/bin/jest.js'), '--ci', '--rootDir', project],
        45_000,
      );
      expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    }, 50_000);

    test('a node:test suite (ESM) does the same through import', async () => {
      const { output } = await nodeRun(['--test', 'events.test.mjs'], 30_000);
      expect(output).toMatch(/# pass 2\b/);
    }, 35_000);

    test('racedata-sim/testcontainers compiles with tsc --strict', async () => {
      await tsc('tsconfig.testcontainers.json');
    }, 30_000);
  });
});
