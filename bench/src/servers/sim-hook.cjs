'use strict';
// Preloaded (node --expose-gc --require) by the bench, soak and abuse run into every server they
// start, simulator or bare baseline alike, and into nothing users run: it answers the harness over
// the IPC channel of the spawn (bench/src/harness/processes.ts), for what only the inside of a
// process can do. `gc`: two full collections, so RSS and the heap are read with the garbage gone.
// `profile-start` / `profile-stop`: V8's CPU profiler (what `node --cpu-prof` runs), on for exactly
// the measured load rather than for the whole process, so start-up does not swamp the profile.
const { writeFileSync } = require('node:fs');

let session;
const commands = {
  gc: () => {
    global.gc();
    global.gc();
    return true;
  },
  'profile-start': async () => {
    const { Session } = require('node:inspector/promises');
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    return true;
  },
  'profile-stop': async ({ file }) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = undefined;
    writeFileSync(file, JSON.stringify(profile));
    return file;
  },
};

process.on('message', (m) => {
  if (!m || typeof m.hook !== 'number') return;
  Promise.resolve()
    .then(() => commands[m.cmd](m.args || {}))
    .then(
      (result) => process.send({ hook: m.hook, ok: true, result }),
      (err) => process.send({ hook: m.hook, ok: false, error: String((err && err.stack) || err) }),
    );
});
// The harness went away: never outlive it. Otherwise the channel keeps nothing alive.
process.on('disconnect', () => process.exit(0));
process.channel.unref();
