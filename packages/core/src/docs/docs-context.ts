import type { ChannelCatalog } from '../channel-catalog';
import type { SimulatorDescription } from '../description';
import type { SimulatorKind } from '../description';
import type { SimulatorSettings } from '../settings';
import type { UserTable } from '../users';

/**
 * What a simulator's documents are built from: its own catalog, users and settings, so that
 * the channel lists, user keys and limits a document states are the ones this instance runs
 * with (a CHANNELS_FILE or USERS_FILE changes them).
 */
export interface DocsContext {
  readonly kind: SimulatorKind;
  /** Its transports: the enums of fault rules, journal filters and entries come from them. */
  readonly description: Pick<SimulatorDescription, 'transports'>;
  readonly catalog: ChannelCatalog;
  readonly users: UserTable;
  readonly settings: SimulatorSettings;
}

/** The two documents a simulator serves at GET /_sim/openapi.json and /_sim/asyncapi.json. */
export interface SimulatorDocs {
  readonly openapi: object;
  readonly asyncapi: object;
}

/**
 * Documents built on their first read (GET /_sim/openapi.json or /asyncapi.json), not at start:
 * building them walks every route's schemas, and a start only needs them once someone asks. The
 * context they are built from (catalog, users, settings) does not change while a simulator runs,
 * so the documents are the same whenever they are built.
 */
export function docsOnDemand(build: () => SimulatorDocs): SimulatorDocs {
  let built: SimulatorDocs | undefined;
  const docs = () => (built ??= build());
  return {
    get openapi() {
      return docs().openapi;
    },
    get asyncapi() {
      return docs().asyncapi;
    },
  };
}

/** Version of the documented interface: the project's version (a test compares the two). */
export const DOCS_VERSION = '0.2.0';
