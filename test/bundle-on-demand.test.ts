import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { modulesDirPerTest } from './modules-dir';

// The CLI's bundle leaves the modules a start never runs to a file beside it
// (scripts/bundle-on-demand.mjs). Here esbuild bundles a few CommonJS modules: one a start
// requires, one required only later (the root), which requires a module of its own and one the
// start shares, whose state must be the very same object on both sides. Split, the bundle must
// print what the whole one prints, never read the on-demand file before the root is required, and
// say which file is missing or from another build when it cannot be used.
const SCRIPTS = path.resolve(__dirname, '..', 'scripts');

const scratch = modulesDirPerTest('bundle-on-demand-', {
  'entry.js': [
    "'use strict';",
    "const shared = require('./shared');",
    "const start = require('./start');",
    'shared.seen.push(start.name);',
    "const later = () => require('./later');",
    "const fs = require('fs');",
    "const read = () => fs.existsSync('reads.log') ? fs.readFileSync('reads.log', 'utf8') : '';",
    'const before = read();',
    'console.log(JSON.stringify({ before, later: later().run(), again: later().run(), seen: shared.seen, self: later().self }));',
  ].join('\n'),
  'shared.js': "'use strict'; exports.seen = [];",
  'start.js': "'use strict'; exports.name = 'start';",
  'later.js': [
    "'use strict';",
    "const shared = require('./shared');",
    "const own = require('./own');",
    'let runs = 0;',
    'exports.self = typeof this;',
    'exports.run = () => { shared.seen.push(own.word + ++runs); return shared.seen.length; };',
  ].join('\n'),
  'own.js': "'use strict'; exports.word = '}) later ';",
});
const node = (source: string) => scratch.node(source);

/** Bundles entry.js whole (whole.cjs) and split with later.js as the root (split.cjs and the on-demand file). */
const build = `
  import { createRequire } from 'node:module';
  import { writeFileSync } from 'node:fs';
  import { plainModuleWrappers } from ${JSON.stringify(path.join(SCRIPTS, 'bundle-wrappers.mjs'))};
  import { splitOnDemand, ON_DEMAND_FILE } from ${JSON.stringify(path.join(SCRIPTS, 'bundle-on-demand.mjs'))};
  const { buildSync } = createRequire(${JSON.stringify(path.join(SCRIPTS, 'bundle.mjs'))})('esbuild');
  const built = buildSync({ entryPoints: ['entry.js'], bundle: true, platform: 'node', format: 'cjs',
    write: false, minifyWhitespace: true, minifySyntax: true });
  const whole = plainModuleWrappers(built.outputFiles[0].text);
  // Preloaded, it logs each opening of the on-demand file.
  writeFileSync('hook.cjs', "const fs=require('fs'),open=fs.openSync;fs.openSync=(f,...a)=>(String(f).endsWith(" +
    JSON.stringify(ON_DEMAND_FILE) + ")&&fs.appendFileSync('reads.log','read '),open(f,...a));");
  const split = splitOnDemand(whole, ['later.js']);
  writeFileSync('whole.cjs', whole);
  writeFileSync('split.cjs', split.main);
  writeFileSync(ON_DEMAND_FILE, split.onDemand);
  console.log(JSON.stringify({ moved: split.moved, file: ON_DEMAND_FILE }));
`;

test('a split bundle runs as the whole one does, reading the on-demand part only when a moved module is required', () => {
  const { moved, file } = JSON.parse(node(build)) as { moved: string[]; file: string };
  expect(moved).toEqual(['own.js', 'later.js']);
  const main = readFileSync(path.join(scratch.dir, 'split.cjs'), 'utf8');
  const onDemand = readFileSync(path.join(scratch.dir, file), 'utf8');
  expect(main).not.toContain('}) later ');
  expect(onDemand).toContain('}) later ');
  expect(onDemand).not.toContain('exports.name="start"');
  const run = (bundle: string) => {
    rmSync(path.join(scratch.dir, 'reads.log'), { force: true });
    const result = spawnSync(process.execPath, ['-r', './hook.cjs', bundle], {
      cwd: scratch.dir,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(result.stderr);
    const log = path.join(scratch.dir, 'reads.log');
    return {
      out: JSON.parse(result.stdout) as unknown,
      reads: existsSync(log) ? readFileSync(log, 'utf8') : '',
    };
  };
  const whole = run('whole.cjs');
  const split = run('split.cjs');
  expect(split.out).toEqual(whole.out);
  expect(split.out).toEqual({
    before: '',
    later: 2,
    again: 3,
    seen: ['start', '}) later 1', '}) later 2'],
    self: 'object',
  });
  // Read once, after the start had run.
  expect(whole.reads).toBe('');
  expect(split.reads).toBe('read ');
});

test('a missing on-demand part, or one from another build, is named when a moved module is required', () => {
  const { file } = JSON.parse(node(build)) as { file: string };
  const onDemand = readFileSync(path.join(scratch.dir, file), 'utf8');
  const stderrOf = () => spawnSync(process.execPath, ['split.cjs'], { cwd: scratch.dir, encoding: 'utf8' });
  writeFileSync(
    path.join(scratch.dir, file),
    onDemand.replace(/^(\/\/ racedata-sim on-demand )[0-9a-f]/, '$1x'),
  );
  const other = stderrOf();
  expect(other.status).not.toBe(0);
  expect(other.stderr).toContain(
    `${path.join(scratch.dir, file)} is from another build than ${path.join(scratch.dir, 'split.cjs')}`,
  );
  rmSync(path.join(scratch.dir, file));
  const missing = stderrOf();
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toMatch(
    /the bundle's on-demand part, which npm run build writes beside it, cannot be read: ENOENT/,
  );
});

test('a root that is not in the bundle, or a bundle that already uses the loader names, stops the build', () => {
  const said = node(`
    import { splitOnDemand } from ${JSON.stringify(path.join(SCRIPTS, 'bundle-on-demand.mjs'))};
    const code = 'var __commonJS=(cb,mod)=>function(){};var require_a=__commonJS(/*a.js*/function(exports){});require_a();';
    for (const [text, roots] of [[code, ['b.js']], [code + 'var __onDemand;', ['a.js']]]) {
      try { splitOnDemand(text, roots); console.log('split'); } catch (err) { console.log(err.message); }
    }
    console.log(splitOnDemand(code, []).onDemand === undefined ? 'nothing moves' : 'moved');
  `);
  expect(said).toBe(
    'bundle: no module b.js to leave for later\nbundle: __onDemand is already in use\nnothing moves\n',
  );
});
