export type Data = Record<string, unknown>;

/** One message of the day, before it is rendered for a simulator; `base` is the legacy channel. */
export interface Ev {
  at: number;
  base: string;
  raceNr?: number;
  startNr?: number;
  data: Data;
}

const DURABLE = new Set(['RaceDay', 'StartList', 'Scratchings', 'Result']);
export const delivery = (ev: Ev) => (DURABLE.has(ev.base) ? 'durable' : 'transient');
