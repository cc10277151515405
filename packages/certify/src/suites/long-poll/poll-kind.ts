/**
 * What differs between the two long polls a suite certifies (the JSON events page and the legacy
 * XML listen): the route, how certify publishes a durable message, how it tells that message
 * reached the client, and what "resuming where it stopped" means. The scenarios in this folder
 * are written once against it.
 */
import type { Evidence, ScenarioContext } from '../../types';
import type { RequestEvent } from './requests';

/** A durable message certify published, and how the report names it. */
export interface Published {
  readonly at: number;
  /** `event 12` or `message certify-3`. */
  readonly label: string;
  readonly eventId?: number;
  readonly payloadKey?: string;
}

export interface LongPollKind {
  readonly suite: 'events' | 'listen';
  /** `GET /customerapi/events`: how the checks name the route in their summaries. */
  readonly routeName: string;
  /** The fault rule transport of the long-poll route (`events`, `listen`). */
  readonly faultTransport: string;
  isPoll(event: RequestEvent): boolean;
  /** Publishes one durable message for the certified user. */
  publish(ctx: ScenarioContext): Promise<Published>;
  /**
   * The poll that delivered `message` (a 200 that ended at or after it was published), or
   * undefined after `timeoutMs`.
   */
  awaitDelivery(
    ctx: ScenarioContext,
    message: Published,
    timeoutMs: number,
  ): Promise<RequestEvent | undefined>;
  /**
   * Why `poll` does not resume where the client stopped, given the polls that ended before it;
   * undefined when it does (the legacy queue keeps the place itself, so listen has no such rule).
   */
  resumeProblem(poll: RequestEvent, before: readonly RequestEvent[]): string | undefined;
  /** Evidence for what was published, for the report. */
  publishedEvidence(message: Published): Evidence;
}
