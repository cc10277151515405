import path from 'node:path';
import { modulesDirPerTest } from './modules-dir';

// The bundles' module wrappers are rewritten as plain functions after esbuild writes them
// (scripts/bundle-wrappers.mjs). Here esbuild bundles a few CommonJS modules whose text is full
// of braces a rewrite by pattern would trip on, and the rewritten bundle must print what
// esbuild's own does, with no wrapper left in the object form.
const SCRIPTS = path.resolve(__dirname, '..', 'scripts');

const scratch = modulesDirPerTest('bundle-wrappers-', {
  'entry.js': [
    "const braces = require('./braces');",
    "const self = require('./self');",
    "const later = () => require('./later');",
    'console.log(JSON.stringify({ braces, self, later: later().value, again: later().value }));',
  ].join('\n'),
  'braces.js': [
    'const text = `}}) ${"{"} }`;',
    'const pattern = /\\}\\)\\}/;',
    "module.exports = { text, matches: pattern.test('})}'), nested: { a: { b: '}}' } } };",
  ].join('\n'),
  // In Node a module's `this` is its exports; in esbuild's bundle it is what its call leaves.
  'self.js': 'exports.kind = typeof this; exports.args = arguments.length;',
  'later.js': 'exports.value = (globalThis.loads = (globalThis.loads || 0) + 1);',
});
const node = (source: string) => scratch.node(source);

test('a rewritten bundle runs its modules as esbuild wrote them, one wrapper form left', () => {
  const out = JSON.parse(
    node(`
      import { createRequire } from 'node:module';
      import { writeFileSync } from 'node:fs';
      import { execFileSync } from 'node:child_process';
      import { plainModuleWrappers } from ${JSON.stringify(path.join(SCRIPTS, 'bundle-wrappers.mjs'))};
      const { buildSync } = createRequire(${JSON.stringify(path.join(SCRIPTS, 'bundle.mjs'))})('esbuild');
      const built = buildSync({ entryPoints: ['entry.js'], bundle: true, platform: 'node', format: 'cjs',
        write: false, minifyWhitespace: true, minifySyntax: true });
      const code = built.outputFiles[0].text;
      const plain = plainModuleWrappers(code);
      writeFileSync('object.cjs', code);
      writeFileSync('plain.cjs', plain);
      const run = (file) => execFileSync(process.execPath, [file], { encoding: 'utf8' });
      console.log(JSON.stringify({
        object: run('object.cjs'), plain: run('plain.cjs'),
        objectForms: code.split('__commonJS({').length - 1, plainForms: plain.split('__commonJS({').length - 1,
        functions: plain.split('*/function(').length - 1, named: plain.includes('__commonJS(/*braces.js*/function('),
      }));
    `),
  ) as {
    object: string;
    plain: string;
    objectForms: number;
    plainForms: number;
    functions: number;
    named: boolean;
  };
  expect(out.objectForms).toBe(3);
  expect(out.plainForms).toBe(0);
  expect(out.functions).toBe(3);
  expect(out.named).toBe(true);
  expect(out.plain).toBe(out.object);
  expect(JSON.parse(out.plain)).toEqual({
    braces: { text: '}}) { }', matches: true, nested: { a: { b: '}}' } } },
    self: { kind: 'object', args: 2 },
    later: 1,
    again: 1,
  });
});

test('a wrapper not in the shape esbuild writes stops the build instead of a half rewrite', () => {
  const said = node(`
    import { plainModuleWrappers } from ${JSON.stringify(path.join(SCRIPTS, 'bundle-wrappers.mjs'))};
    var code = 'var __commonJS=(cb,mod)=>function(){};var a=__commonJS({"a.js"(exports){}, "b.js"(exports){}});';
    try { plainModuleWrappers(code); console.log('rewritten'); } catch (err) { console.log(err.message); }
    console.log(plainModuleWrappers('var a = 1;') === 'var a = 1;' ? 'untouched' : 'changed');
  `);
  expect(said).toMatch(/^bundle: a module wrapper not in esbuild's shape at \d+\nuntouched\n$/);
});
