import type { EventInput } from '@racedata/core';
import { type DayMessage, jsonChannelOf } from '../timeline/messages';

/** A day's message as the JSON simulator takes it (the body of POST /api/message). */
export function jsonEvent(m: DayMessage): EventInput {
  return {
    channel: jsonChannelOf(m),
    date: m.date,
    trackId: m.trackId,
    ...(m.raceNr !== undefined && { raceNr: m.raceNr }),
    ...(m.startNr !== undefined && { startNr: m.startNr }),
    payload: m.payload,
  };
}
