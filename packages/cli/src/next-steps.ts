import type { AddressInfo } from 'node:net';
import {
  inProcessReplaySchedule,
  type SimulatorKind,
  type SimulatorSettings,
  type UserTable,
} from '@racedata/core';
import { displayBase } from './banner';

export interface Started {
  readonly kind: SimulatorKind;
  readonly address: AddressInfo;
  readonly settings: SimulatorSettings;
  readonly users: UserTable;
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

/**
 * What to paste to see data, printed once every simulator listens: a new user's first question
 * after "is it running?" is "what does it send?".
 */
export function nextSteps(started: readonly Started[]): string {
  const lines = [replayLine(started), 'see data:'];
  for (const s of started) {
    const base = displayBase(s.address);
    const token = s.users.users[0]?.token ?? '';
    if (s.kind === 'json') {
      lines.push(
        `  curl -s '${base}/customerapi/events?lastEventId=0' -H 'Authorization: Bearer ${token}'`,
        `  node -e "const ws=new (require('ws'))('${base.replace(/^http/, 'ws')}/customerapi/event-stream');ws.on('open',()=>ws.send('${token}'));ws.on('message',(m)=>console.log(String(m)))"`,
      );
    } else {
      lines.push(`  curl -s ${base}/customerapi/channels/listen -H 'Authorization: Bearer ${token}'`);
    }
  }
  return `${lines.join('\n')}\n`;
}
