'use strict';
// Preloaded (node --expose-gc --require) by the bench, soak and abuse run into every server they
// start, simulator or bare baseline alike, and into nothing users run: whenever the harness asks
// over the IPC channel of the spawn (bench/src/harness/processes.ts), two full collections, so
// RSS and the heap are read with the garbage gone; the reply says they are done.
process.on('message', (m) => {
  global.gc();
  global.gc();
  process.send({ id: m.id, ok: true });
});
// The harness went away: never outlive it. Otherwise the channel keeps nothing alive.
process.on('disconnect', () => process.exit(0));
process.channel.unref();
