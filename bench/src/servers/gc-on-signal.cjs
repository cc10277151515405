'use strict';
// Preloaded (node --expose-gc --require) into the real CLI by the memory measure, and nothing
// else: on SIGUSR2 it runs two full collections and says so on stderr, so the harness reads RSS
// and heap with the garbage of seeding gone, from the outside (/proc and GET /metrics).
process.on('SIGUSR2', () => {
  global.gc();
  global.gc();
  process.stderr.write('bench-gc-done\n');
});
