// Bundles the CLI into one file for the container images: one file to compile instead of
// hundreds to resolve, so the simulators start faster and the image needs no node_modules.
// Two dependencies are slimmed because they dominate the bundle and the simulators use only a
// sliver of them (see the plugins); everything else is bundled as is.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const outfile = path.join(root, 'packages/cli/dist/racedata-sim.cjs');

// express, body-parser and type-is look up a handful of types; the full database is 200 KB of
// JSON per copy, and four copies are installed.
const MIME_TYPES = [
  'application/json',
  'application/xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/javascript',
  'text/xml',
  'text/plain',
  'text/html',
  'text/css',
  'text/csv',
];
const mimeSubset = {
  name: 'mime-db-subset',
  setup(b) {
    b.onResolve({ filter: /^mime-db$/ }, () => ({ path: 'mime-db', namespace: 'mime-subset' }));
    b.onLoad({ filter: /.*/, namespace: 'mime-subset' }, () => {
      const db = require('mime-db');
      const subset = Object.fromEntries(MIME_TYPES.map((type) => [type, db[type]]));
      return { contents: `module.exports = ${JSON.stringify(subset)};`, loader: 'js' };
    });
  },
};

// body-parser decodes request bodies through iconv-lite, whose tables are 480 KB; Node's own
// TextDecoder knows the same WHATWG encodings. The error text matches iconv-lite's, which
// raw-body turns into 415 "unsupported charset".
const ICONV_SHIM = `
function decoder(encoding) {
  try { return new TextDecoder(String(encoding).toLowerCase()); }
  catch { throw new Error("Encoding not recognized: '" + encoding + "'"); }
}
module.exports = {
  encodingExists(encoding) { try { decoder(encoding); return true; } catch { return false; } },
  getDecoder(encoding) {
    const d = decoder(encoding);
    return { write: (chunk) => d.decode(chunk, { stream: true }), end: () => d.decode() || undefined };
  },
  decode(buffer, encoding) { return decoder(encoding).decode(buffer); },
};`;
const iconvShim = {
  name: 'iconv-lite-shim',
  setup(b) {
    b.onResolve({ filter: /^iconv-lite$/ }, () => ({ path: 'iconv-lite', namespace: 'iconv-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'iconv-shim' }, () => ({ contents: ICONV_SHIM, loader: 'js' }));
  },
};

// ws loads the optional native bufferutil and utf-8-validate when installed. Loading bufferutil
// costs a start several milliseconds, and the simulators gain nothing from it: a server only
// unmasks its clients' short frames, and Node 20 validates UTF-8 itself. Resolved to a module
// that fails, as in the image (which installs neither), ws takes its JavaScript path.
const withoutNativeAddons = {
  name: 'without-native-addons',
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({
      path: args.path,
      namespace: 'no-addon',
    }));
    b.onLoad({ filter: /.*/, namespace: 'no-addon' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is left out of the bundle`)});`,
      loader: 'js',
    }));
  },
};

/** The slimming above, shared with the test kit's bundle (scripts/bundle-testkit.mjs). */
export const slimPlugins = [mimeSubset, iconvShim, withoutNativeAddons];

/** Writes `code` to `file` aside and renames it into place. */
export function writeAtomically(file, code) {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, code);
  renameSync(partial, file);
}

// Imported by scripts/bundle-testkit.mjs for its plugins, run for the CLI's bundle.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleCli();

// Written aside and renamed into place, so a simulator starting during a build (the test suite
// runs `npm start` while other tests run the bundle) never reads half a file.
async function bundleCli() {
  const partial = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(root, 'packages/cli/dist/entry.js')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    keepNames: true,
    legalComments: 'none',
    plugins: slimPlugins,
    // packages/cli/src/version.ts: the bundle runs where no package.json is beside it (the images).
    define: {
      __RACEDATA_VERSION__: JSON.stringify(
        JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version,
      ),
    },
    logLevel: 'warning',
  });
  // The first line names the build by its content: the code cache (packages/cli/bin/code-cache.js)
  // is keyed to it, so a cache is never used with another bundle, however files are copied.
  const code = readFileSync(partial);
  const id = createHash('sha256').update(code).digest('hex').slice(0, 32);
  writeFileSync(partial, Buffer.concat([Buffer.from(`// racedata-sim build ${id}\n`), code]));
  renameSync(partial, outfile);
  console.log(`bundle: ${path.relative(root, outfile)} (${Math.round(statSync(outfile).size / 1024)} KB)`);
}
