import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// podman-compose 1.0 (the compose tool where no Docker engine runs) leaves `${NAME:-}` as the
// literal text, so a service given an empty default sees "${NAME:-}" and refuses to start.
describe('docker/compose.yaml', () => {
  const text = readFileSync(join(__dirname, '..', 'docker', 'compose.yaml'), 'utf8');

  it('gives every interpolated variable a non-empty default', () => {
    const uses = [...text.matchAll(/\$\{([A-Z_]+)(:?-)?([^}]*)\}/g)].map(([all, name, dash, value]) => ({
      all,
      name,
      dash,
      value,
    }));
    expect(uses.length).toBeGreaterThan(5);
    expect(uses.filter((u) => u.dash === undefined || u.value === '').map((u) => u.all)).toEqual([]);
  });
});
