/** RFC 6901 JSON pointers into a served document, for refs and for naming a schema's place. */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...segments: string[]): string {
  return `#/${segments.map(escapePointer).join('/')}`;
}

/** The value a local ref (`#/a/b`) points at in `doc`, or undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let here: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof here !== 'object' || here === null || !(key in here)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** Follows `$ref` (a Reference Object) until a value without one. */
export function deref<T>(doc: unknown, value: T | { $ref: string }): T {
  let here: unknown = value;
  for (let hops = 0; typeof here === 'object' && here !== null && '$ref' in here; hops++) {
    const ref = (here as { $ref: string }).$ref;
    const next = resolvePointer(doc, ref);
    if (next === undefined || hops > 20) throw new Error(`unresolvable $ref ${ref}`);
    here = next;
  }
  return here as T;
}

/** Every `$ref` string anywhere in `value`, with where it was found. */
export function collectRefs(value: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (typeof value !== 'object' || value === null) return [];
  const found: Array<{ ref: string; at: string }> = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') found.push({ ref: child, at });
    else found.push(...collectRefs(child, `${at}/${escapePointer(key)}`));
  }
  return found;
}
