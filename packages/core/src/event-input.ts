/**
 * A message as a publisher supplies it (interface 2.5 without the server fields): what
 * POST /api/message accepts and what a JSON recording replays.
 */
export interface EventInput {
  readonly channel: string;
  readonly date: string;
  readonly trackId?: number;
  readonly raceNr?: number;
  readonly startNr?: number;
  readonly payload: Readonly<Record<string, unknown>>;
}
