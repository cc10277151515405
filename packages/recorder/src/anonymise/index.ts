export { createAnonymiser, type AnonymiseOptions, type Anonymiser } from './anonymiser';
export type { AnonymiseSummary } from './summary';
export { HORSE_POOL, PERSON_POOL, type NamePool } from './name-pools';
export { nameFieldRules, normaliseFieldName, type NameCategory, type NameFieldRules } from './name-fields';
