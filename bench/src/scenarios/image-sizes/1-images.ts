import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { absoluteRow } from '../../harness/rows';
import type { Scenario } from '../../types';

/** `{"images": [{"name", "bytes", ...}]}`, as scripts/test-images.sh writes it. */
interface ImageSizes {
  readonly images: ReadonlyArray<{ readonly name: string; readonly bytes: number }>;
}

export default {
  method: () => ['Sizes of the container images as recorded by the image build, when present.'],
  async run(ctx) {
    const file = path.join(ctx.root, 'bench', 'results', 'raw', 'image-sizes.json');
    const sizes = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ImageSizes) : undefined;
    return {
      rows: (sizes?.images ?? []).map((e) =>
        absoluteRow({ scenario: `image ${e.name}`, unit: 'MB', ours: e.bytes / 1e6 }),
      ),
      notes: [
        sizes
          ? 'read from bench/results/raw/image-sizes.json (written by the last `npm run test:images` on this machine)'
          : 'not measured: bench/results/raw/image-sizes.json is absent (no image was built on this machine)',
      ],
    };
  },
} satisfies Scenario;
