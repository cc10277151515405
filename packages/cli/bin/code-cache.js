'use strict';
// Runs the single-file bundle through V8's code cache. Compiling the bundle's ~900 KB is about
// a third of a start; with the cache beside it, V8 deserialises the bytecode instead, and the
// simulators answer their first request sooner (bench/src/measures/start-up.ts measures it).
//
// The cache is written when the process exits: by then every function the run needed has been
// compiled, so the next start finds them all. What a run compiles depends on what it did: a
// `--version`, a `json --help` or a `replay` never starts a simulator, and a cache written by one
// would be taken by every later start, which would then compile nearly all it runs. So the header
// names the simulators whose start the cache covers, and a run that started one it does not cover
// writes it again at exit: V8 keeps what the old cache held, and adds what this run compiled. The
// CLI says which simulator started, once it listens, with the process event STARTED.
// It is keyed to the build id on the bundle's first line (scripts/bundle.mjs: a hash of its
// content; size and modification time for a bundle without one) and to the Node version, and
// V8 refuses a cache from another V8 or other flags on its own; a refused or stale cache is just
// not used, and rewritten at exit. Writing is best effort (a read-only install keeps working).
// The container images ship a cache written at build time (scripts/prime-code-cache.mjs).
const { isAscii } = require('node:buffer');
const { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** The process event the CLI emits with a simulator's kind once that simulator listens. */
const STARTED = 'racedata-sim:started';

/**
 * scripts/bundle.mjs writes the bundle's code inside a function expression, between these two,
 * so that it is both a CommonJS module (run directly, it calls the function with the module's
 * own exports, require, module and paths) and a script whose value is that function. The loader
 * below compiles the file as it is, instead of Node's module wrapper around it: the wrapper
 * joins three strings, which V8 copies into one before compiling (a megabyte and a half at every
 * start; about a millisecond sooner to the first answer without it).
 */
const BUNDLE_OPENING =
  '(function(f){return this===globalThis?f:f.call(this,exports,require,module,__filename,__dirname)}).call(this,(function(exports,require,module,__filename,__dirname){';
const BUNDLE_CLOSING = '\n}));\n';

function keyOf(bundle, source) {
  const build = /^\/\/ racedata-sim build ([0-9a-f]+)\n/.exec(source.slice(0, 80));
  const stat = statSync(bundle);
  const id = build ? build[1] : `${stat.size} ${stat.mtimeMs}`;
  return `racedata-sim code cache 4 ${id} ${process.version} ${process.arch}`;
}

/** The header line: the key, then the simulators whose start the cache covers (`-` for none). */
function headerOf(key, covers) {
  const names = [...new Set(covers)].sort();
  return `${key} covers ${names.length > 0 ? names.join(',') : '-'}\n`;
}

/** V8's data and what it covers, when the cache exists and was made for this key. */
function readCache(file, key) {
  let data;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = data.indexOf(0x0a);
  const header = /^(.*) covers ([a-z,-]+)$/.exec(data.subarray(0, Math.max(end, 0)).toString('latin1'));
  if (end < 0 || !header || header[1] !== key) return undefined;
  return { data: data.subarray(end + 1), covers: header[2] === '-' ? [] : header[2].split(',') };
}

function writeCache(file, header, script) {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, Buffer.concat([Buffer.from(header), script.createCachedData()]));
    // Renamed into place: starts running side by side never read half a cache.
    renameSync(partial, file);
  } catch {
    try {
      unlinkSync(partial);
    } catch {
      // nothing was written
    }
  }
}

/**
 * The bundle's text. esbuild writes it in ASCII (non-ASCII characters escaped), and ASCII is read
 * as Latin-1 in a fraction of a millisecond, where Node's UTF-8 read of the same megabyte takes
 * several: a sizeable part of a start. Anything else is read as UTF-8.
 */
function readSource(file) {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.latin1Slice() : bytes.toString('utf8');
}

/**
 * The bundle compiled (with `cachedData` when given) as a script whose value is its module
 * function: the file itself when written as one (BUNDLE_OPENING), else in Node's module wrapper.
 */
function compiled(bundle, source, cachedData) {
  const own = source.startsWith(BUNDLE_OPENING, source.indexOf('\n') + 1);
  return new vm.Script(own ? source : Module.wrap(source), {
    filename: bundle,
    ...(cachedData && { cachedData }),
  });
}

/** Loads `bundle` as the CommonJS module it is, compiled with (or for) its code cache. */
function runBundle(bundle) {
  const cacheFile = `${bundle}.v8cache`;
  const source = readSource(bundle);
  const key = keyOf(bundle, source);
  const cached = readCache(cacheFile, key);
  const script = compiled(bundle, source, cached?.data);
  const started = new Set();
  process.on(STARTED, (kind) => started.add(kind));
  process.once('exit', () => {
    if (cached === undefined || script.cachedDataRejected)
      writeCache(cacheFile, headerOf(key, [...started]), script);
    else if ([...started].some((kind) => !cached.covers.includes(kind)))
      writeCache(cacheFile, headerOf(key, [...cached.covers, ...started]), script);
  });
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  const requireFn = Module.createRequire(bundle);
  script.runInThisContext().call(mod.exports, mod.exports, requireFn, mod, bundle, path.dirname(bundle));
  mod.loaded = true;
}

module.exports = { runBundle, compiled, STARTED, BUNDLE_OPENING, BUNDLE_CLOSING };
