import type { Response } from 'express';
import type { EventPage } from '@racedata/core';

/** Writes an event page (interface 2.6), or 204 when it is empty. */
export function sendPage(res: Response, page: EventPage): void {
  if (page.events.length === 0) {
    res.status(204).end();
    return;
  }
  res.json({
    status: 'success',
    data: { numberOfEvents: page.events.length, hasMore: page.hasMore, events: page.events },
  });
}
