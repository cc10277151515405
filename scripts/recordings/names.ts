import type { Sport } from './day-plan';
import type { Rng } from './prng';

// Space-separated word lists keep the tables compact; every combination is invented.
const words = (text: string) => text.split(' ');

export const RACE_NAMES: Record<Sport, string[]> = {
  trot: words(
    'Vårsprinten Lärlingsloppet Björkpokalen Stoeliten Bronsdivisionen Silverdivisionen Amatörserien',
  ),
  gallop: words('Maidenlöpning Vårhandikappen Sprinterlöpningen Stoklassen Milerlöpningen Stayerlöpningen'),
};
const HORSE_A = words(
  'Stjärn Silver Guld Vind Storm Björk Mån Sol Frost Eld Skogs Kvälls Dimm Havs Fjäll Is Rim Lyck',
);
const HORSE_B = words(
  'pilen prinsen drotten flickan vågen lyckan gnistan ekot dansen bruset glimten jägaren stjärnan',
);
const HORSE_C = [
  '',
  '',
  '',
  ...words('Nova Express Bravo Comet Lady Boy Zenith Kalas Tuff').map((w) => ` ${w}`),
];
const FIRST = words(
  'Anna Erik Maja Johan Sara Linus Elin Oskar Karin Viktor Ida Nils Frida Axel Hanna Jonas Tove Emil',
);
const SURNAME_A = words('Ek Björk Sjö Lind Berg Ström Hag Ås Dal Fjäll Gran Mos');
const SURNAME_B = words('vall mark lund näs ryd holm sten hed torp myr');

export const horseName = (r: Rng) => r.pick(HORSE_A) + r.pick(HORSE_B) + r.pick(HORSE_C);
export const personName = (r: Rng) => `${r.pick(FIRST)} ${r.pick(SURNAME_A)}${r.pick(SURNAME_B)}`;

/** `count` names never handed out before, so no horse or person appears at both meetings. */
export function uniqueNames(taken: Set<string>, count: number, make: () => string): string[] {
  const names: string[] = [];
  while (names.length < count) {
    const name = make();
    if (taken.has(name)) continue;
    taken.add(name);
    names.push(name);
  }
  return names;
}
