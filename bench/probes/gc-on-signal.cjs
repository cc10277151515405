// Preloaded into a probed simulator (node --expose-gc --require this): SIGUSR2 runs a full
// garbage collection, so a probe's heap figures show what is still reachable, not what V8 has
// not got round to collecting yet.
process.on('SIGUSR2', () => globalThis.gc?.());
