import { type ChannelCatalog, localDate, rebaseDates, type RecordedMessage } from '@racedata/core';
import type { CatalogChannel } from './wire';

/**
 * The catalog with a realistic sample per channel, taken from the recordings the simulator was
 * given (the CLI always hands over the bundled ones, replay or not). The first recorded
 * message of each channel is picked once; its dates are moved to the day asked for.
 */
export class ChannelSamples {
  private readonly firstOf = new Map<string, RecordedMessage>();
  private indexed = 0;

  /** `recordings` may still be filled after this is built (the CLI loads them when first needed). */
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly recordings: readonly RecordedMessage[],
  ) {}

  catalogFor(nowMs: number): CatalogChannel[] {
    for (; this.indexed < this.recordings.length; this.indexed++) {
      const message = this.recordings[this.indexed] as RecordedMessage;
      const channel = message.kind === 'json' ? message.message.channel : message.channel;
      if (!this.firstOf.has(channel)) this.firstOf.set(channel, message);
    }
    const today = localDate(nowMs);
    return this.catalog.list().map((def) => {
      const recorded = this.firstOf.get(def.name);
      if (!recorded) return { name: def.name, kind: def.kind, sample: null };
      const [moved] = rebaseDates([recorded], today);
      const sample =
        moved!.kind === 'json'
          ? { message: moved!.message }
          : { xml: moved!.xml, payloadKey: moved!.payloadKey };
      return { name: def.name, kind: def.kind, sample };
    });
  }
}
