// The test kit as the racedata-sim package ships it (package.json `exports`), so an install needs
// neither the workspace packages nor any dependency:
// - packages/testkit/dist/racedata-sim.cjs: the test kit, the simulators and their dependencies
//   in one CommonJS file, slimmed as the CLI's bundle is (scripts/bundle.mjs). It sits in dist/
//   beside the compiled test kit so that bundled-recordings.ts finds recordings/ as before.
// - packages/testkit/dist/testcontainers.cjs: the Testcontainers entry, loaded from that same
//   file, so both entries share one ControlClient and one ControlError (instanceof holds across
//   them); `testcontainers` itself stays the user's own install (an optional peer).
// - packages/testkit/dist/types/: the compiled declarations, whose imports of workspace packages
//   point at one file of just the workspace types they use (dts-bundle-generator), so a strict
//   compile needs no declaration of a bundled dependency.
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyOptions, slimPlugins, writeAtomically } from './bundle.mjs';
import { plainModuleWrappers } from './bundle-wrappers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testkit = path.join(root, 'packages/testkit');
const dist = path.join(testkit, 'dist');
const types = path.join(dist, 'types');
const WORKSPACE_TYPES = 'workspace-types';
const LOADER = '__testcontainers';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
};

// The main entry and, behind a function, the Testcontainers entry: esbuild wraps a module that is
// only require()d so that it runs when first required, so loading racedata-sim never loads
// `testcontainers`.
const main = await build({
  ...common,
  stdin: {
    contents: `export * from './index';\nexport const ${LOADER} = () => require('./testcontainers/index');\n`,
    resolveDir: path.join(testkit, 'src'),
    loader: 'ts',
    sourcefile: 'racedata-sim.ts',
  },
  write: false,
  ...minifyOptions,
  external: ['testcontainers'],
  plugins: slimPlugins,
});
writeAtomically(path.join(dist, 'racedata-sim.cjs'), plainModuleWrappers(main.outputFiles[0].text));

// Node's import of a CommonJS file finds its names by reading its source (cjs-module-lexer), so
// the Testcontainers entry spells them out in the form esbuild writes for its own output.
const names = await build({
  ...common,
  entryPoints: [path.join(testkit, 'src/testcontainers/index.ts')],
  format: 'esm',
  write: false,
  outdir: dist,
  metafile: true,
  packages: 'external',
});
const exported = Object.values(names.metafile.outputs).flatMap((output) => output.exports);
writeAtomically(
  path.join(dist, 'testcontainers.cjs'),
  [
    "'use strict';",
    '// racedata-sim/testcontainers; scripts/bundle-testkit.mjs writes it.',
    `module.exports = require('./racedata-sim.cjs').${LOADER}();`,
    `0 && (module.exports = { ${exported.join(', ')} });`,
    '',
  ].join('\n'),
);

/** Every .d.ts under `dir`, relative to it. */
function declarations(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) return entry.name === 'types' && !prefix ? [] : declarations(dir, rel);
    return entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const WORKSPACE_IMPORT = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](@racedata\/[\w-]+)['"]/g;
const WORKSPACE_SPECIFIER = /(['"])@racedata\/[\w-]+\1/g;
const INLINE_IMPORT = /import\((['"])(@racedata\/[\w-]+)\1\)\.(\w+)/g;

const files = declarations(dist).map((rel) => ({ rel, text: readFileSync(path.join(dist, rel), 'utf8') }));
const used = new Map(); // name -> workspace package
for (const { text } of files) {
  for (const [, list, from] of text.matchAll(WORKSPACE_IMPORT)) {
    for (const item of list.split(',')) {
      const name = item.replace(/^\s*type\s+/, '').trim();
      if (name) used.set(name, from);
    }
  }
  for (const [, , from, name] of text.matchAll(INLINE_IMPORT)) used.set(name, from);
}

rmSync(types, { recursive: true, force: true });
mkdirSync(types, { recursive: true });
// dts-bundle-generator reads a TypeScript entry; this one sits where `@racedata/*` resolves.
const entry = path.join(types, `${WORKSPACE_TYPES}.entry.ts`);
const byPackage = new Map();
for (const [name, from] of used) byPackage.set(from, [...(byPackage.get(from) ?? []), name]);
writeFileSync(
  entry,
  [...byPackage].map(([from, list]) => `export type { ${list.join(', ')} } from '${from}';\n`).join(''),
);
const config = path.join(types, 'tsconfig.entry.json');
writeFileSync(
  config,
  JSON.stringify({
    extends: path.join(root, 'tsconfig.base.json'),
    compilerOptions: { composite: false, incremental: false, declarationMap: false },
    files: [entry],
  }),
);
const [bundled] = generateDtsBundle(
  [{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false } }],
  { preferredConfigPath: config },
);
rmSync(entry);
rmSync(config);
const foreign = [...bundled.matchAll(/from\s+['"]([^'"]+)['"]/g)]
  .map((m) => m[1])
  .filter((m) => !m.startsWith('node:'));
if (foreign.length > 0) {
  console.error(`bundle-testkit: the public types import ${foreign.join(', ')}, which an install lacks`);
  process.exit(1);
}
writeFileSync(path.join(types, `${WORKSPACE_TYPES}.d.ts`), bundled);

for (const { rel, text } of files) {
  const target = path.join(types, rel);
  let relative = path
    .relative(path.dirname(target), path.join(types, WORKSPACE_TYPES))
    .split(path.sep)
    .join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(
    target,
    text
      .replace(WORKSPACE_SPECIFIER, `'${relative}'`)
      .replace(/^\/\/# sourceMappingURL=.*$/m, '')
      .trimEnd() + '\n',
  );
}
console.log(
  `bundle: packages/testkit/dist/racedata-sim.cjs (${Math.round(main.outputFiles[0].contents.length / 1024)} KB), ` +
    `testcontainers.cjs, types/ (${files.length} declarations)`,
);
