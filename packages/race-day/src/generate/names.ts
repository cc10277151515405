import type { Rng } from '../random';
import type { Sport } from '../model/types';

/**
 * Name pools. Every horse and person is an invented combination: word parts that make
 * Swedish-sounding names, never a list of real drivers, jockeys, trainers or horses (a test
 * holds the pools against well-known real names). No part is one the anonymiser's pseudonyms use
 * (packages/recorder/src/anonymise/name-pools.ts), so a pseudonym never equals a generated name.
 */
const words = (text: string) => text.split(' ');

const HORSE_A = words(
  'Stjärn Silver Guld Vind Storm Björk Mån Sol Frost Eld Skogs Kvälls Dimm Havs Fjäll Is Rim Lyck ' +
    'Gryn Glans Flod Krön Brus Skär Vass Ekorr Fält Stig Mos Glöd Åske',
);
const HORSE_B = words(
  'pilen prinsen drotten flickan vågen lyckan gnistan ekot dansen bruset glimten jägaren stjärnan ' +
    'vandraren ryttaren åskan visan älvan fursten månskenet vindil flamman spanaren',
);
const HORSE_C = [
  '',
  '',
  '',
  '',
  ...words('Nova Express Bravo Comet Lady Boy Zenith Kalas Tuff Nord Flash Nemo'),
];
const COLD_A = words(
  'Tangen Lille Mjølner Troll Brok Stor Bjørke Hval Grå Rask Lyn Skog Bjørn Mo Fjell Svart',
);
const COLD_B = words(
  'Faks Tora Odin Prinsen Rask Kongen Blesa Svarten Rappen Brunen Torden Jerven Bruse Gnist Hilda Tyr',
);
const FOREIGN = words('US FR IT DE NL DK NO FI');

const FIRST = words(
  'Anna Erik Maja Johan Sara Linus Elin Oskar Karin Viktor Ida Nils Frida Axel Hanna Jonas Tove Emil ' +
    'Agnes Hugo Alva Ludvig Stina Malte Greta Sixten Ebba Tage Sigrid Valter Märta Folke Edith Arvid',
);
const SURNAME_A = words(
  'Ek Björk Sjö Lind Berg Ström Hag Ås Dal Fjäll Gran Mos Tjärn Hed Kärr Lövs Sälg Vret',
);
const SURNAME_B = words('vall mark lund näs ryd holm sten hed torp myr bo kvist hult hage');
const STABLE = words('Stall Stall Stall Travkompaniet Team');
const FARM = words('gården hagen ängen torpet');

export const RACE_NAMES: Readonly<Record<Sport, readonly string[]>> = {
  trot: words(
    'Vårsprinten Lärlingsloppet Björkpokalen Stoeliten Bronsdivisionen Silverdivisionen Amatörserien ' +
      'Guldkannan Treåringspokalen Sommarsprinten Ungdomsloppet',
  ),
  gallop: words(
    'Maidenlöpning Vårhandikappen Sprinterlöpningen Stoklassen Milerlöpningen Stayerlöpningen ' +
      'Treåringslöpningen Lärlingslöpningen Höstlöpningen',
  ),
};

export function horseName(r: Rng, coldblood: boolean): string {
  if (coldblood) return `${r.pick(COLD_A)} ${r.pick(COLD_B)}`;
  const suffix = r.pick(HORSE_C);
  return `${r.pick(HORSE_A)}${r.pick(HORSE_B)}${suffix ? ` ${suffix}` : ''}`;
}

export const foreignCountry = (r: Rng): string => r.pick(FOREIGN);

export const surname = (r: Rng): string => `${r.pick(SURNAME_A)}${r.pick(SURNAME_B)}`;

export const personName = (r: Rng): string => `${r.pick(FIRST)} ${surname(r)}`;

export const ownerName = (r: Rng): string =>
  r.chance(0.5) ? personName(r) : `${r.pick(STABLE)} ${surname(r)}`;

export const breederName = (r: Rng): string =>
  r.chance(0.4) ? personName(r) : `${surname(r)}${r.pick(FARM)}s Stuteri`;

/** `count` names never handed out before today, so no horse or person runs at two meetings. */
export function uniqueNames(taken: Set<string>, count: number, make: () => string): string[] {
  const names: string[] = [];
  for (let tries = 0; names.length < count; tries++) {
    const name = make();
    // A day draws a few hundred of thousands of combinations; this never loops long.
    if (taken.has(name) && tries < 10_000) continue;
    taken.add(name);
    names.push(name);
  }
  return names;
}
