'use strict';
// Runs the single-file bundle through V8's code cache. Compiling the bundle's ~900 KB is about
// a third of a start; with the cache beside it, V8 deserialises the bytecode instead, and the
// simulators answer their first request sooner (bench/src/measures/start-up.ts measures it).
//
// The cache is written when the process exits, after a start that found no usable cache: by
// then every function the run needed has been compiled, so the next start finds them all.
// It is keyed to the build id on the bundle's first line (scripts/bundle.mjs: a hash of its
// content; size and modification time for a bundle without one) and to the Node version, and
// V8 refuses a cache from another V8 or other flags on its own; a refused or stale cache is just
// not used, and rewritten at exit. Writing is best effort (a read-only install keeps working).
// The container images ship a cache written at build time (scripts/prime-code-cache.mjs).
const { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

function keyOf(bundle, source) {
  const build = /^\/\/ racedata-sim build ([0-9a-f]+)\n/.exec(source.slice(0, 80));
  const stat = statSync(bundle);
  const id = build ? build[1] : `${stat.size} ${stat.mtimeMs}`;
  return `racedata-sim code cache 2 ${id} ${process.version} ${process.arch}\n`;
}

function readCache(file, key) {
  let data;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = Buffer.from(key);
  return data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : undefined;
}

function writeCache(file, key, script) {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, Buffer.concat([Buffer.from(key), script.createCachedData()]));
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

/** Loads `bundle` as the CommonJS module it is, compiled with (or for) its code cache. */
function runBundle(bundle) {
  const cacheFile = `${bundle}.v8cache`;
  const source = readFileSync(bundle, 'utf8');
  const key = keyOf(bundle, source);
  const cachedData = readCache(cacheFile, key);
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    ...(cachedData && { cachedData }),
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => writeCache(cacheFile, key, script));
  }
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  const requireFn = Module.createRequire(bundle);
  script.runInThisContext().call(mod.exports, mod.exports, requireFn, mod, bundle, path.dirname(bundle));
  mod.loaded = true;
}

module.exports = { runBundle };
