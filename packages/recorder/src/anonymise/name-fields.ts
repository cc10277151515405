/** Which pool a name's pseudonym comes from: a horse's, or a person's (driver, jockey, trainer, owner, breeder). */
export type NameCategory = 'horse' | 'person';

// The roles the race-day model (packages/race-day) and the issue name; plural and `...Name` forms
// (horses, driverName, trainer_names) normalise to these. A start list keeps the driver named
// before a change (originalDriver); a mass scratching names the stable after its trainer.
const ROLES: Readonly<Record<string, NameCategory>> = {
  horse: 'horse',
  driver: 'person',
  jockey: 'person',
  trainer: 'person',
  owner: 'person',
  breeder: 'person',
  originaldriver: 'person',
  originaljockey: 'person',
  stable: 'person',
};

// Inside a value that is itself a name field (`driver: {id: 4, name: "..."}`, `<Driver name="..."/>`),
// these hold the name; ids and numbers beside them are kept.
const INNER_NAME_KEYS = new Set([
  'name',
  'fullname',
  'firstname',
  'lastname',
  'surname',
  'givenname',
  'familyname',
  'shortname',
  'displayname',
]);

/** `horseName`, `horse_names`, `Horses` -> `horse`; a namespace prefix (`x:Driver`) is dropped. */
export function normaliseFieldName(field: string): string {
  const local = field.slice(field.lastIndexOf(':') + 1);
  const flat = local.toLowerCase().replace(/[_-]/g, '');
  const bare = flat.replace(/names?$/, '');
  return bare.endsWith('s') ? bare.slice(0, -1) : bare;
}

export interface NameFieldRules {
  /** The category of a field, attribute or element whose name says it holds a name. */
  categoryOf(field: string): NameCategory | undefined;
  /** Whether a field inside a name field's object (or element) holds that name. */
  isInnerName(field: string): boolean;
}

/**
 * The rules for one anonymiser. An extra field counts as a horse's when its name mentions a horse
 * and as a person's otherwise; it matches with the same normalisation as the built-in roles.
 */
export function nameFieldRules(extraNameFields: readonly string[] = []): NameFieldRules {
  const extra = new Map<string, NameCategory>();
  for (const field of extraNameFields) {
    const key = normaliseFieldName(field);
    if (key !== '') extra.set(key, key.includes('horse') ? 'horse' : 'person');
  }
  const cache = new Map<string, NameCategory | null>();
  return {
    categoryOf(field) {
      let found = cache.get(field);
      if (found === undefined) {
        const key = normaliseFieldName(field);
        found = ROLES[key] ?? extra.get(key) ?? null;
        // Field names come from a small vocabulary; the cap keeps a hostile feed from growing it.
        if (cache.size < 10_000) cache.set(field, found);
      }
      return found ?? undefined;
    },
    isInnerName(field) {
      const local = field.slice(field.lastIndexOf(':') + 1);
      return INNER_NAME_KEYS.has(local.toLowerCase().replace(/[_-]/g, ''));
    },
  };
}
