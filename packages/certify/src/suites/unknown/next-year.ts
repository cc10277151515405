/**
 * Messages as production might send them next year, for tolerates-unknown: the shapes clients
 * know (a race-day programme, a result), with fields, elements, attributes, names and sizes they
 * have never seen. Every name is invented (race-day-facts: never a real person's).
 */

/** Names in letters beyond ASCII: Nordic, Baltic, Central European, Greek, Cyrillic, Japanese, and a decomposed accent. */
export const NON_ASCII_NAMES = {
  horses: ['Åskväder Öst', 'Ærlig Ørn', 'Żółta Łąka', 'Ζέφυρος', 'Ёлочка Звёздная', '青空ダッシュ'],
  drivers: [
    'Åsa Ögren-Ståhl',
    'Ørjan Æsøy',
    'Gülşen Çağlar',
    'Łucja Wądołowska',
    'Ánde Sárá',
    'Rene\u0301e Löf',
  ],
  trainers: ['Tõnu Šõlmus', 'Ðorđe Kovač', 'Αλέξης Δρόμος'],
} as const;

/** The simulator's largest accepted message (MAX_BODY_BYTES' default, 1 MiB) ... */
export const SIZE_LIMIT_BYTES = 1024 * 1024;
/** ... and how close to it the large message comes: 90 %, leaving room for the message around the payload. */
export const NEAR_LIMIT_BYTES = Math.floor(SIZE_LIMIT_BYTES * 0.9);

/** A result payload as it is known, for a race and its finishers. */
function result(raceNr: number): Record<string, unknown> {
  return {
    raceNr,
    status: 'preliminary',
    finishers: [
      { place: 1, startNr: 4, horse: 'Tindra Express', driver: 'Kim Holm', kmTime: '1.12,5a' },
      { place: 2, startNr: 7, horse: 'Brisk Boy', driver: 'Lo Berg', kmTime: '1.12,8a' },
    ],
  };
}

/** The result with fields no client knows, at the top and deep inside. */
export function resultWithUnknownFields(raceNr: number, marker: string): Record<string, unknown> {
  const known = result(raceNr);
  return {
    ...known,
    certifyCase: marker,
    photoFinish: { images: 2, decidedAt: '2026-05-11T15:42:07.120Z' },
    finishers: (known.finishers as Array<Record<string, unknown>>).map((finisher, i) => ({
      ...finisher,
      sectionals: [{ metres: 500, time: '1.10,9' }],
      shoes: { front: i === 0, hind: false },
    })),
    schemaVersion: '2.1',
  };
}

/** Fields added to an event (a page's event, a stream's Data message) besides its payload. */
export const UNKNOWN_EVENT_FIELDS: Readonly<Record<string, unknown>> = {
  updatedAt: '2026-05-11T15:42:09.001Z',
  sequence: 7_340_032,
  source: { system: 'race-data', region: 'SE', version: '2.1' },
};

/** A start list whose names are written in letters beyond ASCII. */
export function startListWithNames(raceNr: number): Record<string, unknown> {
  return {
    raceNr,
    starters: NON_ASCII_NAMES.horses.map((horse, i) => ({
      startNr: i + 1,
      horse,
      driver: NON_ASCII_NAMES.drivers[i % NON_ASCII_NAMES.drivers.length],
      trainer: NON_ASCII_NAMES.trainers[i % NON_ASCII_NAMES.trainers.length],
    })),
  };
}

/** A programme padded with starter histories until its JSON is `bytes` long (within a few bytes). */
export function largePayload(bytes: number): Record<string, unknown> {
  const base = { raceNr: 1, note: 'a full programme with every starter history', history: [] as string[] };
  const entry = 'Tindra Express 2026-04-30 Solvalla 2140 m volte 1.13,4 3rd '.repeat(4);
  const overhead = JSON.stringify(base).length;
  const count = Math.max(0, Math.floor((bytes - overhead) / (entry.length + 3)));
  base.history = Array.from({ length: count }, () => entry);
  return base;
}

/** Odds on a channel no client knows. */
export function winOdds(raceNr: number): Record<string, unknown> {
  return {
    raceNr,
    pool: 'vinnare',
    odds: [
      { startNr: 4, odds: 3.45 },
      { startNr: 7, odds: 8.1 },
    ],
    closesIn: 120,
  };
}

// ---- legacy XML ---------------------------------------------------------------------------

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A RaceDay document as clients know it, with elements, attributes and a namespace they do not. */
export function raceDayWithUnknownParts(marker: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<RaceDay date="2026-05-11" trackId="901" sport="trot" track="Tallmyra" xmlns:rd2="urn:race-data:2" rd2:revision="7" certifyCase="${marker}">` +
    '<Races><Race raceNr="1" name="Vårsprinten" startTime="2026-05-11T14:45:00+02:00" distance="1640" ' +
    'startMethod="auto" starters="10" firstPrizeSek="75000" trackCondition="heavy" rd2:streamId="a81f">' +
    '<Broadcast channel="web" delayMs="800"><Camera id="finish"/></Broadcast>' +
    '<rd2:Weather temperature="14.5" wind="SW 4"/></Race></Races>' +
    '<Sponsors><Sponsor name="Travkassan" tier="gold"/></Sponsors></RaceDay>'
  );
}

/** A document type no client knows, as on a channel it does not know. */
export function unknownDocument(marker: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<WinOdds raceNr="3" pool="vinnare" certifyCase="${marker}"><Odds startNr="4" odds="3.45"/>` +
    '<Odds startNr="7" odds="8.10"/></WinOdds>'
  );
}

/** A start list whose names are UTF-8, and one written as character references. */
export function startListXmlWithNames(marker: string): string {
  const starters = NON_ASCII_NAMES.horses
    .map(
      (horse, i) =>
        `<Starter startNr="${i + 1}" horse="${escapeXml(horse)}" ` +
        `driver="${escapeXml(NON_ASCII_NAMES.drivers[i % NON_ASCII_NAMES.drivers.length] as string)}"/>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<StartList raceNr="2" certifyCase="${marker}">${starters}` +
    '<Starter startNr="7" horse="&#xC5;ngstr&#xF6;m Lill" driver="&#216;ystein &#198;rlig"/></StartList>'
  );
}

/** A RaceDay document padded with starter histories until it is `bytes` long (within a few bytes). */
export function largeXml(bytes: number, marker: string): string {
  const head = `<?xml version="1.0" encoding="UTF-8"?><RaceDay date="2026-05-11" trackId="901" certifyCase="${marker}"><History>`;
  const tail = '</History></RaceDay>';
  const entry =
    '<Start horse="Tindra Express" date="2026-04-30" track="Solvalla" distance="2140" place="3"/>';
  const count = Math.max(0, Math.floor((bytes - head.length - tail.length) / entry.length));
  return head + entry.repeat(count) + tail;
}
