'use strict';
// Runs the single-file bundle through V8's code cache. Compiling the bundle's ~900 KB is about
// a third of a start; with the cache beside it, V8 deserialises the bytecode instead, and the
// simulators answer their first request sooner (bench/src/scenarios/start-up measures it).
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
const {
  closeSync,
  fstatSync,
  openSync,
  read,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} = require('node:fs');
// The CommonJS loader's class, as require('node:module') returns it: loading that builtin costs a
// start a millisecond (it brings the ES module loader), and nothing else a start runs needs it.
const Module = module.constructor;
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

/**
 * Where a start reads the bundle and its cache: one buffer larger than 32 MiB, of which only the
 * pages read into are ever touched. glibc serves an allocation that large with a mapping of its
 * own, and freeing it leaves the allocator's settings as they were. A buffer of the files' own
 * sizes (a megabyte or two) is mapped too, but its free raises glibc's mapping threshold to its
 * size for the rest of the process, and the threshold at which free memory goes back to the
 * system to twice that: every later allocation below two megabytes then comes from heaps that
 * keep what they once held, which after a bulk seed is ten megabytes and more of RSS
 * (bench/src/scenarios/memory/1-seeded.ts measures it).
 */
const READ_BUFFER_BYTES = 33 << 20;

/** The read buffer (READ_BUFFER_BYTES), or undefined on a system that refuses to reserve it. */
function readBuffer() {
  try {
    return Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
  } catch {
    // strict overcommit: the files are read plainly
    return undefined;
  }
}

/**
 * The bundle's text, read into `buffer` whole. esbuild writes it in ASCII (non-ASCII characters
 * escaped), and ASCII is read as Latin-1, a plain copy, where Node's UTF-8 decoding of the same
 * megabytes takes several milliseconds; anything else is read as UTF-8. Undefined when the
 * buffer cannot take it.
 */
function readSource(file, buffer) {
  const bytes = readInto(file, buffer);
  return bytes && decoded(bytes);
}

const decoded = (bytes) => (isAscii(bytes) ? bytes.latin1Slice() : bytes.toString('utf8'));

/**
 * `file` opened for reading whole into `buffer`: its descriptor and size. Undefined, with nothing
 * left open, when the file is missing, unreadable or larger than the buffer.
 */
function openFitting(file, buffer) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size <= buffer.length) return { fd, size };
  } catch {
    // missing or unreadable
  }
  if (fd !== undefined) closeSync(fd);
  return undefined;
}

/** Reads the file on into `buffer` from byte `from` until `size` are in or it ends: how many are in. */
function readOn(fd, buffer, from, size) {
  let read = from;
  // A read may return less than asked.
  for (let n = 1; read < size && n > 0; read += n) n = readSync(fd, buffer, read, size - read, read);
  return read;
}

/**
 * A file's bytes, read into `buffer` from its start. Undefined when there is no buffer, or the
 * file is missing, unreadable or larger than the buffer.
 */
function readInto(file, buffer) {
  const open = buffer && openFitting(file, buffer);
  if (open === undefined) return undefined;
  try {
    return buffer.subarray(0, readOn(open.fd, buffer, 0, open.size));
  } catch {
    return undefined;
  } finally {
    closeSync(open.fd);
  }
}

/** The bundle's text read whole, as readSource would decode it; throws why it cannot be read. */
function plainSource(file) {
  return decoded(readFileSync(file));
}

function readOrUndefined(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The header line: the key, then what the cache covers (`-` for nothing): the simulators whose
 * start it holds, or for the on-demand part the indices of its modules, shorter names first so
 * that numbers read in order. Padded with spaces to a multiple of 8 bytes: the cache is read to
 * the start of the read buffer (readInto), so V8's data after the header is aligned and read where
 * it lies.
 */
function headerOf(key, covers) {
  const names = [...new Set(covers)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const line = `${key} covers ${names.length > 0 ? names.join(',') : '-'}`;
  return `${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`;
}

/** V8's data and what it covers, when the cache was read and was made for this key. */
function readCache(data, key) {
  if (data === undefined) return undefined;
  const end = data.indexOf(0x0a);
  const header = /^(.*) covers ([0-9a-z,-]+) *$/.exec(data.subarray(0, Math.max(end, 0)).toString('latin1'));
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

/**
 * The bundle compiled, with its cache when there is one for it: from `bytes` when the bundle was
 * read already (readInBackground), else read here. Only what the cache covers is kept from it: the
 * read buffer (readBuffer) is free to go once the script is compiled.
 */
function compiledWithCache(bundle, cacheFile, buffer, bytes) {
  // A bundle the buffer did not take is read plainly, which says why if it cannot be.
  const source = (bytes && decoded(bytes)) ?? readSource(bundle, buffer) ?? plainSource(bundle);
  const key = keyOf(bundle, source);
  // Once the bundle is a string, its bytes are done with: the cache is read over them, into pages
  // already touched. Every page a start touches first costs the kernel a fault, which on a
  // virtual machine that backs its memory lazily is tens of microseconds.
  const cached = readCache(readInto(cacheFile, buffer) ?? readOrUndefined(cacheFile), key);
  return { key, script: compiled(bundle, source, cached?.data), covers: cached?.covers };
}

/**
 * What compiles the bundle's on-demand part (scripts/bundle-on-demand.mjs) through a cache of its
 * own beside it: without one, the first `/metrics` scrape, API document, console script or command
 * that needs the part compiles all it runs (about 50 ms to that first `/metrics` answer, against
 * under 40 with the cache). The bundle finds it on its module (`module.racedataOnDemand`, set by
 * runBundle) and tells it, with `used`, each of the part's modules it requires. The cache's header
 * names them by their index in the part, and a run that required one the cache does not cover
 * writes it again at exit, as the bundle's own cache does with simulators. It is keyed to the
 * build id on the part's first line and to the Node version.
 */
function onDemandCache() {
  const used = new Set();
  return {
    used(index) {
      used.add(String(index));
    },
    compile(file, text) {
      const cacheFile = `${file}.v8cache`;
      const id = /^\/\/ racedata-sim on-demand ([0-9a-f]+)\n/.exec(text.slice(0, 80))?.[1] ?? 'unnamed';
      const key = `racedata-sim on-demand cache 1 ${id} ${process.version} ${process.arch}`;
      const { script, covers } = compiledOnDemand(file, text, cacheFile, key);
      process.once('exit', () => {
        // A refused cache holds nothing V8 kept: what is written now covers this run alone.
        if (covers === undefined || script.cachedDataRejected)
          writeCache(cacheFile, headerOf(key, [...used]), script);
        else if ([...used].some((index) => !covers.includes(index)))
          writeCache(cacheFile, headerOf(key, [...covers, ...used]), script);
      });
      return script;
    },
  };
}

/**
 * The on-demand part compiled, with its cache when there is one for it, and what that covers.
 * Its cache is read as the bundle's is, into the read buffer (readBuffer): a buffer of the file's
 * size would move glibc's thresholds for the rest of the process. Nothing keeps the buffer once
 * the part is compiled, so the next collection returns it.
 */
function compiledOnDemand(file, text, cacheFile, key) {
  const cached = readCache(readInto(cacheFile, readBuffer()) ?? readOrUndefined(cacheFile), key);
  const script = new vm.Script(text, { filename: file, ...(cached && { cachedData: cached.data }) });
  return { script, covers: cached?.covers };
}

/**
 * The builtins a simulator's start loads beyond what Node's own start has: node:http (with net and
 * the streams), and the two that net loads when a server first listens, node:dns and node:cluster.
 * runBundle loads them while the bundle is being read.
 */
const START_BUILTINS = ['node:http', 'node:dns', 'node:cluster'];

/**
 * Reads `file` into the start of `buffer` on libuv's thread pool, then calls `done` with its bytes
 * (undefined when the read failed). False, with `done` never called, when the file cannot be
 * opened or is larger than the buffer. The file is opened here rather than through the pool, so
 * the read is under way at once: the callback of an asynchronous open would wait for the main
 * thread to be free, and runBundle keeps it busy meanwhile.
 */
function readInBackground(file, buffer, done) {
  const open = openFitting(file, buffer);
  if (open === undefined) return false;
  const { fd, size } = open;
  read(fd, buffer, 0, size, 0, (err, first) => {
    let got;
    try {
      if (!err) got = readOn(fd, buffer, first, size);
    } catch {
      // what was read is not the whole file: the plain read says why
    } finally {
      closeSync(fd);
    }
    done(got === undefined ? undefined : buffer.subarray(0, got));
  });
  return true;
}

/**
 * Loads `bundle` as the CommonJS module it is, compiled with (or for) its code cache.
 *
 * The bundle is read on libuv's thread pool while this thread loads the builtins the start will
 * require (START_BUILTINS): on a machine of two cores or more, the read and its page faults (a
 * megabyte of fresh memory) overlap that work instead of coming before it, about 2 ms sooner to
 * the first answer where the start spends some 40 beyond bare Node's
 * (bench/src/scenarios/start-up). The bundle then runs from the read's callback, the first thing
 * the event loop does.
 */
function runBundle(bundle) {
  const buffer = readBuffer();
  const run = (bytes) => runCompiled(bundle, buffer, bytes);
  if (buffer === undefined || !readInBackground(bundle, buffer, run)) return run(undefined);
  for (const name of START_BUILTINS) require(name);
}

function runCompiled(bundle, buffer, bytes) {
  const cacheFile = `${bundle}.v8cache`;
  const { key, script, covers } = compiledWithCache(bundle, cacheFile, buffer, bytes);
  const started = new Set();
  process.on(STARTED, (kind) => started.add(kind));
  process.once('exit', () => {
    if (covers === undefined || script.cachedDataRejected)
      writeCache(cacheFile, headerOf(key, [...started]), script);
    else if ([...started].some((kind) => !covers.includes(kind)))
      writeCache(cacheFile, headerOf(key, [...covers, ...started]), script);
  });
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  mod.racedataOnDemand = onDemandCache();
  const requireFn = Module.createRequire(bundle);
  script.runInThisContext().call(mod.exports, mod.exports, requireFn, mod, bundle, path.dirname(bundle));
  mod.loaded = true;
}

module.exports = { runBundle, compiled, STARTED, BUNDLE_OPENING, BUNDLE_CLOSING };
