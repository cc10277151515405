import { defineConfig } from 'vitest/config';

// The example's own config: its file is named *.vitest.ts so that jest, which runs the rest of
// examples/, leaves it to vitest.
export default defineConfig({
  test: { include: ['examples/vitest/*.vitest.ts'] },
});
