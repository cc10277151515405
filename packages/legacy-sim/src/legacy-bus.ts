import {
  audience,
  coreError,
  quoteShort,
  type ChannelCatalog,
  type Clock,
  type Logger,
  type TransientHub,
  type UserTable,
} from '@racedata/core';
import { type Journal, type JournalSource } from '@racedata/control';
import { documentBytes, documentText, type LegacyDocument } from './legacy-document';
import type { LegacyQueues } from './queue/legacy-queues';
import { assertWellFormedXml, checkWellFormedXml, nextTurn, type YieldTurn } from './xml/well-formed';

/** The vendor's injection example posts to channel `id`: every user gets the message. */
export const EVERY_USER_CHANNEL = 'id';

export type LegacyDelivery = 'durable' | 'transient';

/** The JSON body of a STOMP MESSAGE; clients read `payload`, the injected XML as a string. */
export interface TransientXmlMessage {
  readonly channel: string;
  /** null when the injection named no payloadKey. */
  readonly payloadKey: string | null;
  readonly payload: string;
  readonly timestamp: string;
}

/**
 * `utf8`, the document's UTF-8 bytes, when the sender handed it in as such (an injected UTF-8
 * body): the check reads them, and a queued large document keeps them rather than a copy.
 */
export type LegacyPublishInput = {
  /** `id` or a catalog channel name. */
  readonly channel: string;
  readonly delivery: LegacyDelivery;
  readonly payloadKey?: string | undefined;
} & LegacyDocument;

export type LegacyPublishResult =
  | { readonly delivery: 'durable'; readonly queued: number }
  | { readonly delivery: 'transient'; readonly recipients: number };

export interface LegacyBusOptions {
  users: UserTable;
  catalog: ChannelCatalog;
  queues: LegacyQueues;
  hub: TransientHub<TransientXmlMessage>;
  clock: Clock;
  logger: Logger;
  /** The control plane's delivery journal: every message received. */
  journal?: Journal;
  /** How publishYielding hands the event loop on between slices of a document (tests hold it). */
  yieldTurn?: YieldTurn;
}

/**
 * The single path every legacy message takes, whoever sent it (HTTP injection or replay): it
 * checks the document, resolves the audience through core's subscription rule, then queues it
 * for the long poll (durable) or hands it to the STOMP sessions (transient). The URL, not the
 * channel's catalog kind, decides the delivery, as in the vendor's simulator.
 */
export class LegacyBus {
  constructor(private readonly options: LegacyBusOptions) {}

  /**
   * `made` skips the well-formedness check for documents the simulator wrote itself (the race
   * day's renderer, whose output a property test parses whole); everything handed in is checked.
   */
  publish(
    input: LegacyPublishInput,
    source: JournalSource = 'inject',
    made = false,
    action?: string,
  ): LegacyPublishResult {
    const target = this.admit(input);
    if (!made) assertWellFormedXml(input.utf8 ?? (input.xml as string));
    return this.commit(input, target, source, action);
  }

  /**
   * publish() for a document of any size: the well-formedness check runs a slice at a time and
   * hands the event loop on between slices, so a megabyte injection does not hold up the
   * requests that arrive meanwhile. Refusals come in the same order as publish()'s.
   */
  async publishYielding(
    input: LegacyPublishInput,
    source: JournalSource = 'inject',
  ): Promise<LegacyPublishResult> {
    const target = this.admit(input);
    await checkWellFormedXml(input.utf8 ?? (input.xml as string), this.options.yieldTurn ?? nextTurn);
    return this.commit(input, target, source);
  }

  /** The channel's audience (see resolveChannel), once the message may be published at all. */
  private admit(input: LegacyPublishInput): string | null {
    const target = this.resolveChannel(input.channel);
    if (input.delivery === 'durable') this.assertFitsQueues(input);
    return target;
  }

  private commit(
    input: LegacyPublishInput,
    target: string | null,
    source: JournalSource,
    action?: string,
  ): LegacyPublishResult {
    const { queues, hub, users, clock, logger } = this.options;
    this.options.journal?.received(
      {
        source,
        channel: input.channel,
        durable: input.delivery === 'durable',
        ...(input.payloadKey !== undefined && { payloadKey: input.payloadKey }),
        ...(action !== undefined && { action }),
      },
      input.xml ?? input.utf8,
    );
    if (input.delivery === 'durable') {
      const queued = queues.enqueue(audience(users.users, target), {
        ...input,
        channel: target,
        payloadKey: input.payloadKey ?? '',
      });
      logger.debug({ channel: input.channel, payloadKey: input.payloadKey, queued }, 'legacy message queued');
      return { delivery: 'durable', queued };
    }
    const recipients = hub.publish(target, {
      channel: input.channel,
      payloadKey: input.payloadKey ?? null,
      payload: documentText(input),
      timestamp: new Date(clock.now()).toISOString(),
    });
    logger.debug({ channel: input.channel, payloadKey: input.payloadKey, recipients }, 'legacy message sent');
    return { delivery: 'transient', recipients };
  }

  /** null (every user) for `id`; the channel itself when the catalog knows it. */
  private resolveChannel(channel: string): string | null {
    if (channel === EVERY_USER_CHANNEL) return null;
    if (this.options.catalog.has(channel)) return channel;
    const known = [EVERY_USER_CHANNEL, ...this.options.catalog.names()].join(', ');
    throw coreError('UNKNOWN_CHANNEL', `unknown channel ${quoteShort(channel)}; known channels: ${known}`);
  }

  /** Dropping every queued message could still not make room for it: refuse it instead. */
  private assertFitsQueues(doc: LegacyDocument): void {
    const max = this.options.queues.maxBytes;
    if (doc.utf8 === undefined && (doc.xml as string).length <= max / 3) return;
    const bytes = documentBytes(doc);
    if (bytes > max) {
      throw coreError(
        'PAYLOAD_TOO_LARGE',
        `message is ${bytes} bytes; durable messages are queued up to LEGACY_QUEUE_MAX_BYTES (${max} bytes)`,
      );
    }
  }
}
