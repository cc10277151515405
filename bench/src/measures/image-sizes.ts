import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../context';
import type { Comparison, MeasureBody } from '../types';

interface ImageEntry {
  name: string;
  bytes: number;
}

/** Accepts `{"images": [{"name", "bytes"}]}`, `[{"name", "bytes"}]` or `{"name": bytes}`. */
function entries(value: unknown): ImageEntry[] {
  const list = Array.isArray(value) ? value : (value as { images?: unknown }).images;
  if (Array.isArray(list)) {
    return list
      .map((e) => e as { name?: unknown; image?: unknown; bytes?: unknown; size?: unknown })
      .map((e) => ({ name: String(e.name ?? e.image), bytes: Number(e.bytes ?? e.size) }))
      .filter((e) => Number.isFinite(e.bytes));
  }
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number')
    .map(([name, bytes]) => ({ name, bytes: bytes as number }));
}

export async function imageSizes(ctx: BenchContext): Promise<MeasureBody> {
  const file = path.join(ctx.root, 'bench', 'results', 'raw', 'image-sizes.json');
  const comparisons: Comparison[] = [];
  const notes: string[] = [];
  if (existsSync(file)) {
    for (const e of entries(JSON.parse(readFileSync(file, 'utf8')) as unknown)) {
      comparisons.push({
        scenario: `image ${e.name}`,
        unit: 'MB',
        ours: Math.round(e.bytes / 1e4) / 100,
        baselines: [],
        ratio: null,
        ratioLabel: 'ours / bare',
        target: '—',
        verdict: 'INFO',
      });
    }
    notes.push(
      'read from bench/results/raw/image-sizes.json (written by the last `npm run test:images` on this machine)',
    );
  } else {
    notes.push(
      'not measured: bench/results/raw/image-sizes.json is absent (no image was built on this machine)',
    );
  }
  return {
    method: ['Sizes of the container images as recorded by the image build, when present.'],
    comparisons,
    notes,
    profiles: [],
  };
}
