// Word lists for pseudonyms. None of their parts is a part the race-day generator uses
// (packages/race-day/src/generate/names.ts), so a pseudonym never equals a generated name.
const words = (text: string) => text.split(' ');

const HORSE_FIRST = words(
  'Alm Ask Bergs Blå Bränn Dagg Dun Fager Fjäder Grå Gry Hägg Hjort Höst Kopp Kvarn Lilje Ljung Lönn Mal ' +
    'Myr Natt Norr Pärl Råg Röd Sand Sälg Sav Skymn Snö Sommar Sten Strand Sunn Svart Syd Tall Tjäder Tran ' +
    'Upp Vår Väst Vit Kanel Koppar Lavendel Mynt',
);
const HORSE_SECOND = words(
  'baronen blixten bonden drömmen falken flöjten fröken gesällen greven hertigen humlan kometen kungen ' +
    'lärkan lotsen lyran minnet näktergalen ormen pärlan pojken rallen ringen rosen seglet sången skalden ' +
    'smeden sparven svalan tärnan toppen trollet tuppen vännen viljan virveln väktaren örnen grodan',
);
const HORSE_THIRD = [
  '',
  ...words('Ess Mix Kick Fling Rapid Dollar Boko Gamma Sting Brisk Hero Tango Viking Bris').map(
    (w) => ` ${w}`,
  ),
];

const GIVEN = words(
  'Agnes Albin Alice Alva Arvid Astrid Ebba Edvin Ella Elsa Ester Folke Greta Gunnar Hampus Harald Hedda ' +
    'Hilda Hugo Inez Ingrid Isak Jakob Joel Julia Kajsa Klara Lars Leo Liv Lova Lucas Ludvig Majken Malte ' +
    'Matilda Melker Meja Moa Nora Olle Olivia Otto Per Petra Rasmus Ronja Rut Saga Sigge Signe Sixten Siv ' +
    'Stina Svea Ture Tyra Ulf Valter Vera Vidar Vilgot Vilma Wilhelm Yngve Ylva Åke Ebbe Lennart Mona ' +
    'Gustav Sofia Tilda Alfred Doris Selma Gösta Mirja Ragnar Bodil',
);
const FAMILY_FIRST = words(
  'Al Apel Asp Bark Bredd Brink Ceder Eng Forss Frö Gull Hall Hassel Hell Hög Kvist Lönn Malm Nord Rosen ' +
    'Sköld Sund Thor Wester Åker Bäck Kron Lejon Stjern Wall',
);
const FAMILY_SECOND = words(
  'blad bom borg by dahl fors gren hammar lid löf man qvist skog stam strand sund vik ängen bäck gård',
);

export interface NamePool {
  readonly size: number;
  /** The name at `index` (0 <= index < size); every index gives a different name. */
  at(index: number): string;
}

function product(parts: readonly (readonly string[])[], join: (chosen: string[]) => string): NamePool {
  const size = parts.reduce((n, list) => n * list.length, 1);
  return {
    size,
    at(index) {
      const chosen: string[] = [];
      let rest = index;
      for (const list of parts) {
        chosen.push(list[rest % list.length]!);
        rest = Math.floor(rest / list.length);
      }
      return join(chosen);
    },
  };
}

export const HORSE_POOL = product([HORSE_FIRST, HORSE_SECOND, HORSE_THIRD], ([a, b, c]) => a! + b! + c!);
export const PERSON_POOL = product(
  [GIVEN, FAMILY_FIRST, FAMILY_SECOND],
  ([given, a, b]) => `${given} ${a}${b}`,
);
