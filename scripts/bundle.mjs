// Bundles the CLI into one file for the container images: one file to compile instead of
// hundreds to resolve, so the simulators start faster and the image needs no node_modules.
// Two dependencies are slimmed because they dominate the bundle and the simulators use only a
// sliver of them (see the plugins); everything else is bundled as is.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ON_DEMAND_FILE, splitOnDemand } from './bundle-on-demand.mjs';
import { plainModuleWrappers } from './bundle-wrappers.mjs';

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

// Node builtins that bundled code requires at load but calls only on paths a start never takes:
// https and tls (ws's client side, prom-client's Pushgateway), child_process (commander's
// executable subcommands), zlib (body-parser inflating a compressed body, the Pushgateway),
// worker_threads (pino's transports), assert and crypto (ws's client handshake; the server's
// on the first upgrade), fs/promises (the docs site's and the recorder's file reads; it loads
// readline's internals with it). Loading them cost a start about 25 ms of CPU, as much as the
// simulators' own code. Each is replaced by a stand-in that loads the module on the first look
// at one of its properties: callers read them at call time (`https.request(...)`, TypeScript's
// `(0, crypto_1.randomBytes)(...)`), so nothing else changes. A few modules take functions out
// at load (`const { randomBytes } = require('crypto')`): those functions, listed, are handed
// out as stand-ins that load the module when first called.
const LAZY_BUILTINS = {
  https: [],
  tls: [],
  child_process: [],
  zlib: [],
  // thread-stream takes Worker at load, for pino's transports, which the simulators never start.
  worker_threads: ['Worker'],
  assert: [],
  crypto: ['randomBytes', 'randomFillSync', 'createHash', 'randomUUID', 'timingSafeEqual'],
  'fs/promises': [],
};
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const names = Object.keys(LAZY_BUILTINS).join('|');
    b.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, (args) =>
      // The stand-in's own require is the real module.
      args.namespace === 'lazy-builtin'
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `
let real;
const load = () => (real ??= require(${JSON.stringify(`node:${args.path}`)}));
const deferred = new Map(${JSON.stringify(LAZY_BUILTINS[args.path])}.map((name) => [name, function (...a) {
  const real = load()[name];
  return new.target ? Reflect.construct(real, a) : real.apply(this, a);
}]));
module.exports = new Proxy({}, {
  get: (_, key) => (real === undefined && deferred.get(key)) || load()[key],
  set: (_, key, value) => ((load()[key] = value), true),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
});`,
      loader: 'js',
    }));
  },
};

// http-errors builds a class for every HTTP status when loaded, and express, body-parser and
// their kin load it at start to raise an error only when a request goes wrong: a stand-in loads
// it on its first call or property read, as lazyBuiltins does for builtins. So do qs (with
// side-channel and object-inspect: a urlencoded body, express's extended query parser), send
// and content-disposition (res.sendFile, res.download, res.attachment), which express loads at
// start for requests the simulators do not answer that way.
const LAZY_PACKAGES = ['http-errors', 'qs', 'send', 'content-disposition'];
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join('|')})$`) }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: 'real',
      });
      return { path: real.path, namespace: 'lazy-package', pluginData: { resolveDir: args.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
      contents: `
let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
// An arrow function: callable like the module, with no own property a proxy must report as it is.
module.exports = new Proxy(() => {}, {
  apply: (_, self, params) => Reflect.apply(load(), self, params),
  get: (_, key) => load()[key],
  set: (_, key, value) => ((load()[key] = value), true),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
});`,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// debug prints only what the DEBUG variable names; without it every instance is off, and loading
// it (supports-color probing the terminal, and each instance asking whether stderr is one) cost a
// start milliseconds. Without DEBUG, instances that do nothing stand in.
const DEBUG_SHIM = `
if (process.env.DEBUG) {
  module.exports = require('debug');
} else {
  const off = (namespace) =>
    Object.assign(() => {}, {
      namespace,
      enabled: false,
      useColors: false,
      log: () => {},
      destroy: () => false,
      extend: (sub, delimiter = ':') => off(namespace + delimiter + sub),
    });
  module.exports = Object.assign((namespace) => off(namespace), {
    enable: () => {},
    disable: () => '',
    enabled: () => false,
    names: [],
    skips: [],
    formatters: {},
  });
}`;
const debugOnDemand = {
  name: 'debug-on-demand',
  setup(b) {
    b.onResolve({ filter: /^debug$/ }, (args) =>
      args.pluginData === 'real' || args.namespace === 'debug-shim'
        ? undefined
        : { path: 'debug', namespace: 'debug-shim', pluginData: { resolveDir: args.resolveDir } },
    );
    b.onLoad({ filter: /.*/, namespace: 'debug-shim' }, (args) => ({
      contents: DEBUG_SHIM,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// depd (express's, router's and http-errors' deprecation notices) records the file of each module
// that asks for a deprecate function by capturing and resolving a call-site stack at load. V8
// collects source positions for that lazily, so the first capture re-parses the enclosing
// functions, the bundle's outermost one included: about 4 ms and half a megabyte of garbage a
// start. In a single-file bundle every caller's file is the bundle itself, the file depd's own
// code runs from, so that is what it records, and no stack is taken until a notice is printed.
const DEPD_CALL_SITE =
  '  var stack = getStack()\n  var site = callSiteLocation(stack[1])\n  var file = site[0]\n';
const depdInBundle = {
  name: 'depd-in-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]depd[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      // A depd that no longer has these lines is bundled unchanged, and this build says so.
      if (!source.includes(DEPD_CALL_SITE)) {
        return {
          contents: source,
          loader: 'js',
          warnings: [{ text: 'depd changed: its call-site capture is bundled as is' }],
        };
      }
      // A bundle re-bundled as an ES module has no __filename: depd's own lookup then.
      const file =
        "  var file = typeof __filename === 'string' ? __filename : callSiteLocation(getStack()[1])[0]\n";
      return { contents: source.replace(DEPD_CALL_SITE, file), loader: 'js' };
    });
  },
};

// Modules that read something at load only to use it later: pino whether it runs on the main
// thread (for an asynchronous destination, which the simulators do not use) and the host name
// (for its default log fields, which the simulators' logger replaces: packages/core/src/logger.ts),
// body-parser whether zlib has zstd (for a zstd-encoded body). Each read loads a builtin
// (worker_threads, os and zlib: about 4.5 ms of a start between them); asked where it is used
// instead, it loads then. pino also loads its transports at load (thread-stream, and node:module
// for createRequire: about a millisecond of a start), which only a logger given `transport` or a
// call of pino.transport() starts, neither of which the simulators make: they load with their
// first use instead.
const LOAD_TIME_READS = [
  {
    file: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]tools\.js$/,
    edits: [
      ["const { isMainThread } = require('worker_threads')\n", ''],
      ['if (!opts.sync && isMainThread) {', "if (!opts.sync && require('worker_threads').isMainThread) {"],
      ["const transport = require('./transport')\n", ''],
      ['stream = transport({', "stream = require('./transport')({"],
    ],
  },
  {
    file: /[\\/]node_modules[\\/]pino[\\/]pino\.js$/,
    edits: [
      ["const os = require('node:os')\n", ''],
      ['const hostname = os.hostname()\n', ''],
      [
        '  base: { pid, hostname },',
        "  base: { pid, get hostname () { return require('node:os').hostname() } },",
      ],
      [
        "module.exports.transport = require('./lib/transport')\n",
        "Object.defineProperty(module.exports, 'transport', { enumerable: true, configurable: true, get: () => require('./lib/transport') })\n",
      ],
    ],
  },
  {
    file: /[\\/]node_modules[\\/]body-parser[\\/]lib[\\/]read\.js$/,
    edits: [
      ["const hasZstandardSupport = 'createZstdDecompress' in zlib\n", ''],
      ['if (hasZstandardSupport) {', "if ('createZstdDecompress' in zlib) {"],
    ],
  },
];
const readsWhereUsed = {
  name: 'reads-where-used',
  setup(b) {
    for (const { file, edits } of LOAD_TIME_READS)
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        // A version without these lines is bundled unchanged, and this build says so.
        const missing = edits.filter(([from]) => !source.includes(from));
        if (missing.length > 0)
          return {
            contents: source,
            loader: 'js',
            warnings: [{ text: `${args.path} changed: bundled as is` }],
          };
        return { contents: edits.reduce((text, [from, to]) => text.replace(from, to), source), loader: 'js' };
      });
  },
};

// express, type-is and accepts each install their own copy of mime-types, all the same version,
// and each copy builds its lookup tables when a start loads it. Every import of a version gets
// the copy resolved first, so a start builds them once.
const ONE_COPY = /^mime-types$/;
const oneCopy = {
  name: 'one-copy-per-version',
  setup(b) {
    const first = new Map();
    b.onResolve({ filter: ONE_COPY }, async (args) => {
      if (args.pluginData?.oneCopy) return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: { oneCopy: true },
      });
      if (found.errors.length > 0) return undefined;
      const manifest = path.join(
        found.path.slice(0, found.path.lastIndexOf(`node_modules${path.sep}${args.path}`)),
        'node_modules',
        args.path,
        'package.json',
      );
      const key = `${args.path}@${JSON.parse(readFileSync(manifest, 'utf8')).version}`;
      if (!first.has(key)) first.set(key, found.path);
      return { path: first.get(key) };
    });
  },
};

/** The slimming above, shared with the test kit's bundle (scripts/bundle-testkit.mjs). */
export const slimPlugins = [
  oneCopy,
  mimeSubset,
  iconvShim,
  withoutNativeAddons,
  lazyBuiltins,
  lazyPackages,
  debugOnDemand,
  depdInBundle,
  readsWhereUsed,
];

/**
 * Whitespace and syntax minified, identifiers kept: functions and classes keep their own names
 * (errors' names, stack traces) without esbuild's keepNames, which renames every one and then
 * sets its name back with a call at load: thousands of calls and over half a megabyte of
 * garbage a start. The bundle is a third larger for it, about a millisecond more to read.
 * Shared with the test kit's bundle.
 */
export const minifyOptions = { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false };

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
    ...minifyOptions,
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
  // The code inside a function expression the loader compiles as it is (BUNDLE_OPENING).
  const { BUNDLE_OPENING, BUNDLE_CLOSING } = require('../packages/cli/bin/code-cache.js');
  // What a start never runs goes to a file of its own, written first: the bundle that names its
  // build is never in place before it (scripts/bundle-on-demand.mjs).
  const { main, onDemand, moved } = splitOnDemand(plainModuleWrappers(readFileSync(partial, 'utf8')));
  const onDemandFile = path.join(path.dirname(outfile), ON_DEMAND_FILE);
  if (onDemand === undefined) rmSync(onDemandFile, { force: true });
  else writeAtomically(onDemandFile, onDemand);
  const code = Buffer.from(`${BUNDLE_OPENING}${main}${BUNDLE_CLOSING}`);
  const id = createHash('sha256').update(code).digest('hex').slice(0, 32);
  writeFileSync(partial, Buffer.concat([Buffer.from(`// racedata-sim build ${id}\n`), code]));
  renameSync(partial, outfile);
  const kb = (file) => Math.round(statSync(file).size / 1024);
  console.log(
    `bundle: ${path.relative(root, outfile)} (${kb(outfile)} KB)` +
      (onDemand === undefined ? '' : `, ${ON_DEMAND_FILE} (${kb(onDemandFile)} KB, ${moved.length} modules)`),
  );
}
