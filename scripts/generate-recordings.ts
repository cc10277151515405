/**
 * Writes the bundled recordings (recordings/README.md): one invented trotting meeting and one
 * invented gallop meeting on the same day, each rendered for the legacy simulator (XML) and the
 * JSON simulator. Every name and id is made up. Seeded, so each run writes the same bytes.
 *
 *   npm run recordings            (writes recordings/legacy and recordings/json)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SEED = 20240511;
const DATE = '2024-05-11';
// Swedish summer time; `at` is written in UTC, times inside the data in local time as in a real feed.
const ZONE = '+02:00';
const ZONE_MS = 2 * 3_600_000;
const START_COUNTDOWN_S = 180;
const PARADE_COUNTDOWN_S = 120;
const PARADE_BEFORE_START_MS = 10 * 60_000;

type Sport = 'trot' | 'gallop';
type Data = Record<string, unknown>;

interface MeetingPlan {
  sport: Sport;
  trackId: number;
  track: string;
  races: number;
  firstStart: [number, number];
  gapsMin: number[];
  programmeAt: [number, number];
  scratchings: number;
}

const PLANS: MeetingPlan[] = [
  {
    sport: 'gallop',
    trackId: 902,
    track: 'Ekbacka',
    races: 6,
    firstStart: [13, 0],
    gapsMin: [30],
    programmeAt: [7, 10],
    scratchings: 3,
  },
  {
    sport: 'trot',
    trackId: 901,
    track: 'Tallmyra',
    races: 8,
    firstStart: [14, 45],
    gapsMin: [25, 25, 30],
    programmeAt: [7, 0],
    scratchings: 4,
  },
];

// Space-separated word lists keep the tables compact; every combination is invented.
const words = (text: string) => text.split(' ');
const RACE_NAMES: Record<Sport, string[]> = {
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

// mulberry32: tiny, fast and good enough for invented data.
function rng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    float: (min: number, max: number) => min + next() * (max - min),
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof rng>;

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;
const localMs = (h: number, m: number) => Date.parse(`${DATE}T00:00:00Z`) + (h * 60 + m) * 60_000 - ZONE_MS;
const localIso = (ms: number) => new Date(ms + ZONE_MS).toISOString().slice(0, 19) + ZONE;
const suffix = (sport: Sport) => (sport === 'trot' ? 'Trot' : 'Gallop');

/** `count` names never handed out before, so no horse or person appears at both meetings. */
function uniqueNames(taken: Set<string>, count: number, make: () => string): string[] {
  const names: string[] = [];
  while (names.length < count) {
    const name = make();
    if (taken.has(name)) continue;
    taken.add(name);
    names.push(name);
  }
  return names;
}

interface Starter {
  startNr: number;
  horse: string;
  age: number;
  sex: 'mare' | 'gelding' | 'stallion';
  rider: string;
  trainer: string;
  weightKg?: number;
  odds: number;
  strength: number;
  scratched?: { at: number; reason: string };
  /** Metres from the start where a trotter broke into gallop and was disqualified. */
  breakAt?: number;
  finish: number;
  shape: number;
}

interface Race {
  nr: number;
  name: string;
  distance: number;
  startMethod?: 'auto' | 'volte';
  start: number;
  firstPrizeSek: number;
  starters: Starter[];
}

interface Meeting {
  plan: MeetingPlan;
  programmeAt: number;
  races: Race[];
}

/** One message of the day, before it is rendered for a simulator; `base` is the legacy channel. */
interface Ev {
  at: number;
  base: string;
  raceNr?: number;
  startNr?: number;
  data: Data;
}

const DURABLE = new Set(['RaceDay', 'StartList', 'Scratchings', 'Result']);
const delivery = (ev: Ev) => (DURABLE.has(ev.base) ? 'durable' : 'transient');

function buildMeeting(r: Rng, plan: MeetingPlan, taken: Set<string>): Meeting {
  const trot = plan.sport === 'trot';
  const horses = uniqueNames(
    taken,
    plan.races * 14,
    () => r.pick(HORSE_A) + r.pick(HORSE_B) + r.pick(HORSE_C),
  );
  const people = uniqueNames(taken, 26, () => `${r.pick(FIRST)} ${r.pick(SURNAME_A)}${r.pick(SURNAME_B)}`);
  const riders = people.slice(0, 16);
  const trainers = people.slice(16);
  let start = localMs(...plan.firstStart);
  const races: Race[] = [];
  for (let nr = 1; nr <= plan.races; nr++) {
    const distance = trot
      ? r.pick([1640, 2140, 2140, 2140, 2640])
      : r.pick([1200, 1400, 1600, 1800, 2000, 2400]);
    const count = r.int(8, 12);
    const pool = [...riders];
    const starters: Starter[] = Array.from({ length: count }, (_, i) => ({
      startNr: i + 1,
      horse: horses.shift()!,
      age: r.int(3, 9),
      sex: r.pick(['mare', 'gelding', 'stallion'] as const),
      rider: pool.splice(r.int(0, pool.length - 1), 1)[0]!,
      trainer: r.pick(trainers),
      ...(trot ? {} : { weightKg: round(r.float(54, 60) * 2, 0) / 2 }),
      odds: 0,
      strength: r.float(0, 1),
      finish: 0,
      shape: r.float(-1.5, 1.5),
    }));
    const weights = starters.map((s) => Math.exp(3 * s.strength));
    const total = weights.reduce((a, b) => a + b, 0);
    starters.forEach((s, i) => (s.odds = Math.max(1.1, round((0.8 * total) / weights[i]!, 2))));
    races.push({
      nr,
      name: nr === plan.races ? `${plan.track} Stora Pris` : RACE_NAMES[plan.sport][nr - 1]!,
      distance,
      ...(trot ? { startMethod: startMethod(r, distance) } : {}),
      start,
      firstPrizeSek: nr === plan.races ? 150_000 : r.pick([30_000, 40_000, 50_000, 75_000, 100_000]),
      starters,
    });
    start += r.pick(plan.gapsMin) * 60_000;
  }
  scratch(r, plan, races);
  for (const race of races) runRace(r, trot, race);
  return { plan, programmeAt: localMs(...plan.programmeAt), races };
}

// Volte starts are for the longer distances; 2640 m is always one.
const startMethod = (r: Rng, distance: number) =>
  distance === 2640 || (distance === 2140 && r.chance(0.3)) ? ('volte' as const) : ('auto' as const);

/** Morning scratchings, plus one late one shortly before its race; at most one per race. */
function scratch(r: Rng, plan: MeetingPlan, races: Race[]): void {
  const reasons = ['sick', 'lame', 'veterinary decision', "trainer's decision"];
  const order = [...races].sort((a, b) => a.starters.length - b.starters.length).reverse();
  order.slice(0, plan.scratchings).forEach((race, i) => {
    const starter = r.pick(race.starters);
    const late = i === plan.scratchings - 1;
    const at = late
      ? race.start - r.int(20, 45) * 60_000
      : localMs(8, 0) + r.int(0, 210) * 60_000 + r.int(0, 59) * 1000;
    starter.scratched = { at, reason: late ? 'veterinary decision' : r.pick(reasons) };
  });
}

function runRace(r: Rng, trot: boolean, race: Race): void {
  const runners = race.starters.filter((s) => !s.scratched);
  const order = runners
    .map((s) => ({ s, score: s.strength + r.float(0, 0.6) }))
    .sort((a, b) => b.score - a.score);
  let time = trot ? (r.float(71.5, 76) * race.distance) / 1000 : race.distance / r.float(16.2, 16.9);
  for (const { s } of order) {
    s.finish = time;
    time += trot ? r.float(0.1, 1.2) : r.float(0.03, 0.5);
  }
  if (!trot) return;
  let breaks = 0;
  for (const { s } of order) {
    if (breaks < 2 && r.chance(0.08)) {
      s.breakAt = Math.round((race.distance * r.float(0.15, 0.9)) / 10) * 10;
      breaks += 1;
    }
  }
}

/** Seconds after the start when a runner passes `d` metres: even pace bent by its race shape. */
const timeAt = (s: Starter, race: Race, d: number) =>
  s.finish * (d / race.distance) + s.shape * Math.sin((Math.PI * d) / race.distance);

function field(race: Race, d: number, names: boolean): { leaderTime: number; positions: Data[] } {
  const running = race.starters.filter((s) => !s.scratched && (s.breakAt === undefined || s.breakAt > d));
  const ranked = running.map((s) => ({ s, t: timeAt(s, race, d) })).sort((a, b) => a.t - b.t);
  const leaderTime = ranked[0]!.t;
  const positions = ranked.map(({ s, t }, i) => ({
    position: i + 1,
    startNr: s.startNr,
    ...(names ? { horse: s.horse } : {}),
    behindSeconds: round(t - leaderTime, 2),
  }));
  return { leaderTime, positions };
}

function kmTime(seconds: number, distance: number, startMethod: string | undefined): string {
  const perKm = round((seconds * 1000) / distance, 1);
  const whole = Math.floor(perKm);
  const tenth = Math.round((perKm - whole) * 10);
  return `${Math.floor(whole / 60)}.${String(whole % 60).padStart(2, '0')},${tenth}${startMethod === 'auto' ? 'a' : ''}`;
}

const raceTime = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(2).padStart(5, '0')}`;

function events(r: Rng, meeting: Meeting): Ev[] {
  const { plan, races } = meeting;
  const trot = plan.sport === 'trot';
  const riderField = trot ? 'driver' : 'jockey';
  const out: Ev[] = [];
  out.push({
    at: meeting.programmeAt,
    base: 'RaceDay',
    data: {
      track: plan.track,
      firstStart: localIso(races[0]!.start),
      races: races.map((race) => ({
        raceNr: race.nr,
        name: race.name,
        startTime: localIso(race.start),
        distance: race.distance,
        ...(race.startMethod ? { startMethod: race.startMethod } : {}),
        starters: race.starters.length,
        firstPrizeSek: race.firstPrizeSek,
      })),
    },
  });
  for (const race of races) {
    const emit = (base: string, at: number, data: Data, startNr?: number) =>
      out.push({ at, base, data, raceNr: race.nr, ...(startNr === undefined ? {} : { startNr }) });
    const startTime = localIso(race.start);
    const method = race.startMethod ? { startMethod: race.startMethod } : {};
    const starters = race.starters.map((s) => ({
      startNr: s.startNr,
      horse: s.horse,
      age: s.age,
      sex: s.sex,
      [riderField]: s.rider,
      trainer: s.trainer,
      ...(s.weightKg === undefined ? {} : { weightKg: s.weightKg }),
    }));
    const head = { track: plan.track, name: race.name, startTime, distance: race.distance, ...method };
    emit('StartList', meeting.programmeAt + 30_000 + race.nr * 5_000, { ...head, starters });
    for (const s of race.starters.filter((x) => x.scratched)) {
      emit('Scratchings', s.scratched!.at, { horse: s.horse, reason: s.scratched!.reason }, s.startNr);
    }
    for (let left = START_COUNTDOWN_S; left >= 0; left--) {
      emit('TimeToStart', race.start - left * 1000, { secondsToStart: left, startTime });
    }
    const parade = race.start - PARADE_BEFORE_START_MS;
    for (let left = PARADE_COUNTDOWN_S; trot && left >= 0; left--) {
      emit('TimeToDef', parade - left * 1000, { secondsToParade: left, paradeTime: localIso(parade) });
    }
    const step = trot ? 500 : 400;
    const leaderAt = (d: number) => field(race, d, false).leaderTime;
    for (let d = step; d < race.distance; d += step) {
      const { leaderTime, positions } = field(race, d, false);
      const timing = trot
        ? { kmTime: kmTime(leaderTime, d, race.startMethod) }
        : { sectionalSeconds: round(leaderTime - leaderAt(d - step), 2) };
      const data = { distance: d, elapsedSeconds: round(leaderTime, 1), ...timing, positions };
      emit('SplitTimes', race.start + Math.round(leaderTime * 1000), data);
    }
    for (const s of race.starters.filter((x) => x.breakAt !== undefined)) {
      const at = race.start + Math.round(timeAt(s, race, s.breakAt!) * 1000) + r.int(2, 8) * 1000;
      const data = { horse: s.horse, driver: s.rider, distance: s.breakAt, reason: 'galloping' };
      emit('PrelDisqualifiedHorses', at, data, s.startNr);
    }
    for (let toGo = 500; toGo >= 0; toGo -= 100) {
      const { leaderTime, positions } = field(race, race.distance - toGo, true);
      emit('Last500Meters', race.start + Math.round(leaderTime * 1000), { metersToGo: toGo, positions });
    }
    const official = race.start + Math.round(leaderAt(race.distance) * 1000) + r.int(150, 300) * 1000;
    emit('Result', official, result(race, trot, riderField));
  }
  return out.sort((a, b) => a.at - b.at);
}

function result(race: Race, trot: boolean, riderField: string): Data {
  const finishers = race.starters
    .filter((s) => !s.scratched && s.breakAt === undefined)
    .sort((a, b) => a.finish - b.finish);
  const shares = [0.5, 0.25, 0.12, 0.08, 0.05];
  const winner = finishers[0]!.finish;
  return {
    name: race.name,
    distance: race.distance,
    ...(race.startMethod ? { startMethod: race.startMethod } : {}),
    placings: finishers.map((s, i) => ({
      place: i + 1,
      startNr: s.startNr,
      horse: s.horse,
      [riderField]: s.rider,
      trainer: s.trainer,
      ...(trot
        ? { kmTime: kmTime(s.finish, race.distance, race.startMethod) }
        : {
            time: raceTime(s.finish),
            marginLengths: i === 0 ? 0 : round(((s.finish - finishers[i - 1]!.finish) / 0.17) * 4, 0) / 4,
          }),
      odds: s.odds,
      ...(i < shares.length ? { prizeSek: Math.round((race.firstPrizeSek / shares[0]!) * shares[i]!) } : {}),
    })),
    winnerSeconds: round(winner, 2),
    disqualified: race.starters
      .filter((s) => s.breakAt !== undefined)
      .map((s) => ({ startNr: s.startNr, horse: s.horse, reason: 'galloping' })),
    scratched: race.starters.filter((s) => s.scratched).map((s) => ({ startNr: s.startNr, horse: s.horse })),
  };
}

const SINGULAR: Record<string, string> = {
  races: 'Race',
  starters: 'Starter',
  positions: 'Position',
  placings: 'Placing',
  disqualified: 'Horse',
  scratched: 'Horse',
};

const escape = (v: unknown) =>
  String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Scalars become attributes, arrays of objects a wrapper element holding one element each. */
function element(name: string, data: Data): string {
  const attributes = Object.entries(data)
    .filter(([, v]) => typeof v !== 'object')
    .map(([k, v]) => ` ${k}="${escape(v)}"`);
  const children = Object.entries(data)
    .filter(([, v]) => Array.isArray(v))
    .map(
      ([k, v]) =>
        `<${capital(k)}>${(v as Data[]).map((item) => element(SINGULAR[k] ?? 'Item', item)).join('')}</${capital(k)}>`,
    );
  return children.length === 0
    ? `<${name}${attributes.join('')}/>`
    : `<${name}${attributes.join('')}>${children.join('')}</${name}>`;
}

function legacyLine(meeting: Meeting, ev: Ev): string {
  const { trackId, sport } = meeting.plan;
  const ids = {
    date: DATE,
    trackId,
    sport,
    ...(ev.raceNr ? { raceNr: ev.raceNr } : {}),
    ...(ev.startNr ? { startNr: ev.startNr } : {}),
  };
  const payloadKey = [ev.base, DATE, trackId, ev.raceNr, ev.startNr].filter((x) => x !== undefined).join('-');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>${element(ev.base, { ...ids, ...ev.data })}`;
  return JSON.stringify({
    at: new Date(ev.at).toISOString(),
    delivery: delivery(ev),
    channel: ev.base,
    payloadKey,
    xml,
  });
}

function jsonLine(meeting: Meeting, ev: Ev): string {
  const { trackId, sport } = meeting.plan;
  return JSON.stringify({
    at: new Date(ev.at).toISOString(),
    delivery: delivery(ev),
    channel: ev.base + suffix(sport),
    date: DATE,
    trackId,
    raceNr: ev.raceNr,
    startNr: ev.startNr,
    payload: ev.data,
  });
}

/** Every recording file, keyed by its path below recordings/. */
export function generateRecordings(): Map<string, string> {
  const r = rng(SEED);
  const files = new Map<string, string>();
  const taken = new Set<string>();
  for (const plan of PLANS) {
    const meeting = buildMeeting(r, plan, taken);
    const evs = events(r, meeting);
    const name = `${DATE}-${plan.track.toLowerCase()}-${plan.sport}.jsonl`;
    files.set(`legacy/${name}`, evs.map((ev) => legacyLine(meeting, ev) + '\n').join(''));
    files.set(`json/${name}`, evs.map((ev) => jsonLine(meeting, ev) + '\n').join(''));
  }
  return files;
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..', 'recordings');
  for (const [rel, text] of generateRecordings()) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(
      `${path.relative(process.cwd(), file)}: ${text.split('\n').length - 1} messages, ${text.length} chars`,
    );
  }
}
