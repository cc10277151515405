import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../context';
import type { MeasureBody } from '../types';

/** `{"images": [{"name", "bytes", ...}]}`, as scripts/test-images.sh writes it. */
interface ImageSizes {
  readonly images: ReadonlyArray<{ readonly name: string; readonly bytes: number }>;
}

export async function imageSizes(ctx: BenchContext): Promise<MeasureBody> {
  const file = path.join(ctx.root, 'bench', 'results', 'raw', 'image-sizes.json');
  const sizes = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ImageSizes) : undefined;
  return {
    method: ['Sizes of the container images as recorded by the image build, when present.'],
    comparisons: (sizes?.images ?? []).map((e) => ({
      scenario: `image ${e.name}`,
      unit: 'MB',
      ours: Math.round(e.bytes / 1e4) / 100,
      baselines: [],
      ratio: null,
      ratioLabel: 'ours / bare',
      target: '—',
      verdict: 'INFO' as const,
    })),
    notes: [
      sizes
        ? 'read from bench/results/raw/image-sizes.json (written by the last `npm run test:images` on this machine)'
        : 'not measured: bench/results/raw/image-sizes.json is absent (no image was built on this machine)',
    ],
    profiles: [],
  };
}
