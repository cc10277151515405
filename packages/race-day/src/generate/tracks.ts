import type { Sport } from '../model/types';

/**
 * The tracks a day is laid on: real public names, with this simulator's own ids. The interface
 * shows no track ids and public schemes disagree (race-day-facts.md), so the ids are ours, from
 * a range no public scheme uses for these tracks: 901-933 trot, 951-953 gallop. `weight` is how
 * often a track gets a meeting relative to the others; `big` tracks hold the Saturday afternoon
 * meeting.
 */
export interface Track {
  readonly id: number;
  readonly name: string;
  readonly sport: Sport;
  readonly weight: number;
  readonly big?: boolean;
}

const trot = (id: number, name: string, weight: number, big?: boolean): Track => ({
  id,
  name,
  sport: 'trot',
  weight,
  ...(big && { big }),
});

export const TROT_TRACKS: readonly Track[] = [
  trot(901, 'Solvalla', 9, true),
  trot(902, 'Åby', 6, true),
  trot(903, 'Jägersro', 6, true),
  trot(904, 'Bergsåker', 5, true),
  trot(905, 'Romme', 5, true),
  trot(906, 'Axevalla', 5, true),
  trot(907, 'Färjestad', 5, true),
  trot(908, 'Halmstad', 4),
  trot(909, 'Eskilstuna', 5, true),
  trot(910, 'Mantorp', 4),
  trot(911, 'Örebro', 5, true),
  trot(912, 'Umåker', 4),
  trot(913, 'Gävle', 5, true),
  trot(914, 'Bollnäs', 3),
  trot(915, 'Dannero', 3),
  trot(916, 'Kalmar', 3),
  trot(917, 'Visby', 1),
  trot(918, 'Boden', 3),
  trot(919, 'Hagmyren', 3),
  trot(920, 'Lindesberg', 2),
  trot(921, 'Rättvik', 2),
  trot(922, 'Årjäng', 2),
  trot(923, 'Östersund', 3),
  trot(924, 'Solänget', 3),
  trot(925, 'Skellefteå', 3),
  trot(926, 'Oviken', 1),
  trot(927, 'Tingsryd', 1),
  trot(928, 'Arvika', 1),
  trot(929, 'Vaggeryd', 1),
  trot(930, 'Åmål', 1),
  trot(931, 'Hoting', 1),
  trot(932, 'Lycksele', 1),
  trot(933, 'Karlshamn', 1),
];

export const GALLOP_TRACKS: readonly Track[] = [
  { id: 951, name: 'Bro Park', sport: 'gallop', weight: 5 },
  { id: 952, name: 'Jägersro Galopp', sport: 'gallop', weight: 3 },
  { id: 953, name: 'Göteborg Galopp', sport: 'gallop', weight: 2 },
];

export const TRACKS: readonly Track[] = [...TROT_TRACKS, ...GALLOP_TRACKS];

/** A file-name form of a track name: `bro-park`, `aby`, `orebro`. */
export function trackSlug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
