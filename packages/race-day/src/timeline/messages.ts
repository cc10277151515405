import type { Sport } from '../model/types';

/** The channels of a day by their legacy names; the JSON channel adds the sport (RaceDayTrot). */
export const DAY_CHANNELS = [
  'RaceDay',
  'StartList',
  'Scratchings',
  'Result',
  'TimeToStart',
  'TimeToDef',
  'SplitTimes',
  'PrelDisqualifiedHorses',
  'Last500Meters',
] as const;

export type DayChannel = (typeof DAY_CHANNELS)[number];

export const DURABLE_CHANNELS: ReadonlySet<DayChannel> = new Set([
  'RaceDay',
  'StartList',
  'Scratchings',
  'Result',
]);

/** One message of a day, before it is rendered as a JSON event or a legacy XML document. */
export interface DayMessage {
  /** Day time, UTC ms. */
  readonly at: number;
  readonly channel: DayChannel;
  readonly sport: Sport;
  /** The race date the message is about (a postponed meeting's new programme has its new date). */
  readonly date: string;
  readonly trackId: number;
  readonly raceNr?: number;
  readonly startNr?: number;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type Delivery = 'durable' | 'transient';

export const deliveryOf = (m: Pick<DayMessage, 'channel'>): Delivery =>
  DURABLE_CHANNELS.has(m.channel) ? 'durable' : 'transient';

export const sportSuffix = (sport: Sport): string => (sport === 'trot' ? 'Trot' : 'Gallop');

/** The JSON simulator's channel: the legacy name and the sport. */
export const jsonChannelOf = (m: Pick<DayMessage, 'channel' | 'sport'>): string =>
  m.channel + sportSuffix(m.sport);

/** Every JSON channel a day may use, as the built-in catalog names them. */
export const JSON_DAY_CHANNELS: readonly string[] = DAY_CHANNELS.flatMap((c) =>
  (['trot', 'gallop'] as const)
    .filter((sport) => sport === 'trot' || !['TimeToDef', 'PrelDisqualifiedHorses'].includes(c))
    .map((sport) => c + sportSuffix(sport)),
);

/** What the messages of one meeting or race share. */
export interface MessageBase {
  readonly sport: Sport;
  readonly date: string;
  readonly trackId: number;
  readonly raceNr?: number | undefined;
}

/**
 * A message with every field in one order: one object shape for the thousands of countdown
 * ticks of a day (an object spread per tick cost more than everything else the timeline does).
 */
export function dayMessage(
  base: MessageBase,
  at: number,
  channel: DayChannel,
  payload: Readonly<Record<string, unknown>>,
  startNr?: number,
): DayMessage {
  return {
    at,
    channel,
    sport: base.sport,
    date: base.date,
    trackId: base.trackId,
    raceNr: base.raceNr,
    startNr,
    payload,
  };
}
