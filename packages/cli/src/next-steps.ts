import type { AddressInfo } from 'node:net';
import {
  inProcessReplaySchedule,
  type ChannelCatalog,
  type RecordedMessage,
  type SimulatorKind,
  type SimulatorSettings,
  type User,
  type UserTable,
} from '@racedata/core';
import { actualStart, countdownFrom, localClock, type PlayingDay } from '@racedata/race-day/player';
import { displayBase } from './banner';
import { firstStreamData } from './stream-hint';

export interface Started {
  readonly kind: SimulatorKind;
  readonly address: AddressInfo;
  readonly settings: SimulatorSettings;
  readonly users: UserTable;
  readonly catalog: ChannelCatalog;
  /** What the replay sends, in its order; empty when replay is off. */
  readonly replayed: readonly RecordedMessage[];
}

function replayLine(started: readonly Started[]): string {
  const replaying = started.filter((s) => inProcessReplaySchedule(s.settings) !== undefined);
  if (replaying.length === 0) {
    return 'replay: off (add --auto-replay-interval 1000 --rebase-dates to replay a recorded race day)';
  }
  const schedule = inProcessReplaySchedule(replaying[0]!.settings)!;
  const pace =
    schedule.mode === 'interval'
      ? `one recorded message every ${schedule.intervalMs} ms`
      : `recorded timing${schedule.maxDelayMs === undefined ? '' : `, gaps capped at ${schedule.maxDelayMs} ms`}`;
  const dates = replaying[0]!.settings.replayRebaseDates ? ', dates rebased to today' : '';
  const who = replaying.map((s) => s.kind).join(' and ');
  return `replay: on in ${who}: a race day is flowing (${pace}${dates}); turn it off with --no-replay (npm start -- --no-replay)`;
}

/** What the race day plays, and from where: the race `next-race` set it before, if it did. */
function raceDayLine(day: PlayingDay): string {
  const { plan, speed, request } = day;
  const meetings = plan.meetings.map((m) => `${m.track} (${m.trackId}, ${m.sport})`).join(', ');
  const race = plan.meetings
    .flatMap((m) => m.races.map((r) => ({ m, r })))
    .find(({ r }) => countdownFrom(r) > day.anchorDay && countdownFrom(r) - day.anchorDay <= 60_000);
  const from =
    request.at.kind === 'next-race' && race
      ? `from ${localClock(day.anchorDay)}, just before race ${race.r.raceNr} at ${race.m.track} (start ${localClock(actualStart(race.r))})`
      : `from ${localClock(day.anchorDay)}`;
  const pace = speed === 1 ? 'in real time' : `at ${speed}x`;
  return (
    `race day: ${plan.date} (seed ${plan.seed}), ${meetings}, played ${pace} ${from}; ` +
    'GET /_sim/race-day shows the plan; turn it off with --no-race-day (npm start -- --no-race-day)'
  );
}

function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function wsOneLiner(base: string, token: string): string {
  return `  node -e "const ws=new (require('ws'))('${base.replace(/^http/, 'ws')}/customerapi/event-stream');ws.on('open',()=>ws.send('${token}'));ws.on('message',(m)=>console.log(String(m)))"`;
}

function postJson(base: string, body: object): string {
  return `  curl -s -X POST ${base}/api/message -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`;
}

function heldNote(s: Started): string {
  return `  (held up to ${s.settings.longPollTimeoutMs / 1000} s until data arrives; with none it answers 204)`;
}

function jsonSteps(s: Started, now: Date, day: PlayingDay | undefined): string[] {
  const base = displayBase(s.address);
  const reader = s.users.users[0];
  if (!reader) return [];
  const read = `  curl -s '${base}/customerapi/events?lastEventId=0' -H 'Authorization: Bearer ${reader.token}'`;
  if (day) {
    return [
      `  # the day so far, stored as ${reader.key} reads it:`,
      read,
      `  # live messages (countdowns, splits, last 500 m) over the WebSocket, as ${reader.key}:`,
      wsOneLiner(base, reader.token),
    ];
  }
  if (s.replayed.length > 0) {
    // The stream carries transient messages only: shown as the user the replay reaches first.
    const first = firstStreamData(s);
    const streamUser: User = first?.user ?? reader;
    const when =
      first?.afterMs === undefined ? '' : `, from about ${Math.ceil(first.afterMs / 1000)} s after start`;
    return [
      `  # stored events of ${reader.key}:`,
      read,
      `  # live (transient) messages over the WebSocket, as ${streamUser.key}${when}:`,
      wsOneLiner(base, streamUser.token),
    ];
  }
  const date = localDate(now);
  const durable = [...reader.channels].find((c) => s.catalog.kindOf(c) === 'durable');
  const transient = [...reader.channels].find((c) => s.catalog.kindOf(c) === 'transient');
  const lines = [`  # nothing is stored yet: post a message, then read it as ${reader.key}`];
  if (durable) lines.push(postJson(base, { channel: durable, date, trackId: 5, raceNr: 1, payload: {} }));
  lines.push(read, heldNote(s));
  if (transient) {
    lines.push(
      `  # live messages: open the WebSocket, then post a transient message from another terminal`,
      wsOneLiner(base, reader.token),
      postJson(base, { channel: transient, date, trackId: 5, raceNr: 1, payload: {} }),
    );
  }
  return lines;
}

// The listen answer looks broken at first sight: the vendor sends the XML as a JSON string.
const XML_AS_JSON_NOTE =
  '  (it answers the XML as a JSON string, quotes escaped as \\": JSON.parse gives the document)';

function legacySteps(s: Started, now: Date, day: PlayingDay | undefined): string[] {
  const base = displayBase(s.address);
  const token = s.users.users[0]?.token ?? '';
  const listen = `  curl -s ${base}/customerapi/channels/listen -H 'Authorization: Bearer ${token}'`;
  if (day)
    return ['  # the day so far is queued for every legacy user, oldest first:', listen, XML_AS_JSON_NOTE];
  if (s.replayed.length > 0) return [listen, XML_AS_JSON_NOTE];
  return [
    '  # nothing is queued yet: queue a message for every user, then listen',
    `  curl -s -X POST '${base}/customerapi/channel/id/Durable?payloadKey=hello-1' -H 'Content-Type: application/xml' -d '<RaceDay date="${localDate(now)}" trackId="5"/>'`,
    listen,
    heldNote(s),
    XML_AS_JSON_NOTE,
  ];
}

/**
 * What to paste to see data, printed once every simulator listens: a new user's first question
 * after "is it running?" is "what does it send?". Every command shows data within seconds:
 * with replay off the hints post first, since a read of an empty simulator waits a minute.
 */
export function nextSteps(started: readonly Started[], now: Date, day?: PlayingDay): string {
  const lines = [day ? raceDayLine(day) : replayLine(started), 'see data:'];
  for (const s of started)
    lines.push(...(s.kind === 'json' ? jsonSteps(s, now, day) : legacySteps(s, now, day)));
  return `${lines.join('\n')}\n`;
}
