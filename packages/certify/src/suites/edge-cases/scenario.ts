/**
 * survives-edge-cases on every suite: the messages of the race day's edge cases (a generated
 * day's, see race-day-cases.ts), each case followed by a normal message, graded as
 * tolerates-unknown grades its cases (../unknown/cases.ts). The day is generated when the
 * scenario plays, for the run's date, so the messages are dated as a day's would be.
 */
import type { DayMessage } from '@racedata/race-day';
import type { CheckInfo, Scenario, ScenarioContext, Suite } from '../../types';
import { note, verdict } from '../session/evidence';
import { followedScenario, type UnknownCase, type UnknownPlay, type UnknownRun } from '../unknown/cases';
import { edgeCaseMessages, type EdgeCaseMessages } from './race-day-cases';

const POLL_CASES =
  'a dead heat (the result, two horses sharing a place), a result correction (the preliminary result, then ' +
  'the corrected one), a cancelled race (the programme revision calling it off), a late scratching (the ' +
  'scratching after the parade and the start list revision) and a false start (the race’s result)';
const LIVE_CASES =
  'a dead heat (the last 500 m at the line, two horses level), a late scratching (the first split times, ' +
  'without the start) and a false start (the countdown to 0, then running again with recalls 1); a result ' +
  'correction and a cancelled race are durable and never reach this transport';

const SENT: Record<Suite, string> = {
  events: `the events of ${POLL_CASES}`,
  listen: `the documents of ${POLL_CASES}`,
  stream: `the Data messages of ${LIVE_CASES}`,
  stomp: `the MESSAGE frames of ${LIVE_CASES}`,
};

const PRINTS: Record<Suite, string> = {
  events: 'prints every one of those events and the normal one after each',
  listen:
    'takes each off its queue and prints the normal document after each (those documents carry no payloadKey)',
  stream: 'prints every one of those messages and the normal one after each',
  stomp: 'prints every one of those messages and the normal one after each',
};

/** From one case's start to the next, at least. */
const PACE_MS = 1_000;

export function survivesEdgeCases(suite: Suite): CheckInfo {
  const poll = suite === 'events' || suite === 'listen';
  return {
    id: 'survives-edge-cases',
    required: true,
    rule:
      `is sent, as a generated race day sends them, ${SENT[suite]}, each case followed by a normal message: ` +
      `keeps ${poll ? 'polling' : 'its connection'} and does not exit, and with --echo stdout ${PRINTS[suite]}`,
    source:
      'race-day-facts: "Edge cases a consumer must survive"; docs/race-days.md says what a consumer must do for ' +
      'each; interface 2.3: "the payload structure of each channel: not shown"',
  };
}

/** How a suite sends one of the day's messages: the key the client prints for it, if any, and what it did. */
export type SendDayMessage = (
  ctx: ScenarioContext,
  m: DayMessage,
) => Promise<{ readonly key?: string; readonly what: string }>;

export interface EdgeCasesPlay extends Omit<UnknownPlay, 'cases' | 'start'> {
  readonly delivery: 'durable' | 'transient';
  /** The run's normal messages and its way of sending the day's, once the client is ready; else why not. */
  open(ctx: ScenarioContext): Promise<{ readonly run: UnknownRun; readonly send: SendDayMessage } | string>;
}

function toCase(edge: EdgeCaseMessages, send: SendDayMessage): UnknownCase {
  const where = `race ${edge.placement.trackId}:${edge.placement.raceNr ?? '-'}`;
  return {
    name: edge.name,
    async send(ctx) {
      const at = ctx.now();
      const keys: string[] = [];
      const whats: string[] = [];
      for (const m of edge.messages) {
        const sent = await send(ctx, m);
        if (sent.key !== undefined) keys.push(sent.key);
        whats.push(sent.what);
      }
      return {
        keys,
        evidence: [
          note(at, `certify sent ${edge.name} (${edge.id}, ${where}): ${edge.what}`),
          note(
            at,
            whats.length > 3
              ? `${whats.slice(0, 3).join('; ')}; and ${whats.length - 3} more`
              : whats.join('; '),
          ),
        ],
      };
    },
  };
}

export function edgeCasesScenario(play: EdgeCasesPlay): Scenario {
  const info = survivesEdgeCases(play.suite);
  // A case a second at most: up to three messages, each answering a poll, stay well under
  // no-hot-loop's 20 requests a second (and a day spreads them over minutes).
  const words = { info, name: 'the race day’s edge cases', noun: 'race-day edge cases', paceMs: PACE_MS };
  return {
    name: words.name,
    checks: [info],
    gradesClientExit: true,
    async run(ctx) {
      let edges: EdgeCaseMessages[];
      try {
        edges = edgeCaseMessages(ctx.now(), play.delivery);
      } catch (err) {
        return [verdict(info, 'skip', `could not generate the race day: ${(err as Error).message}`)];
      }
      const opened = await play.open(ctx);
      if (typeof opened === 'string') return [verdict(info, 'skip', opened)];
      const cases = edges.map((edge) => toCase(edge, opened.send));
      return followedScenario({ ...play, cases, start: async () => opened.run }, words).run(ctx);
    },
  };
}
