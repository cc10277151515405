import type { JsonSchema } from './json-schema';

/**
 * The part of AsyncAPI 3.0 the served documents use. Operations are from the simulator's side:
 * `send` is what the simulator writes to the socket, `receive` what it reads.
 */
export interface AsyncRef {
  readonly $ref: string;
}

/** How and why the simulator closes a socket: the `x-close-codes` extension of a channel. */
export interface CloseCode {
  readonly code: number;
  readonly when: string;
}

export interface AsyncServer {
  readonly host: string;
  readonly protocol: 'ws';
  readonly pathname?: string;
  readonly title?: string;
  readonly description?: string;
  readonly variables?: Readonly<Record<string, { readonly default: string; readonly description: string }>>;
  readonly security?: readonly AsyncRef[];
}

export interface AsyncMessage {
  readonly name: string;
  readonly title: string;
  readonly summary?: string;
  readonly description?: string;
  readonly contentType?: string;
  readonly headers?: JsonSchema;
  readonly payload?: JsonSchema;
  readonly examples?: readonly {
    readonly name: string;
    readonly payload?: unknown;
    readonly headers?: object;
  }[];
}

export interface AsyncChannel {
  /** null: the channel is the connection itself rather than a named destination. */
  readonly address: string | null;
  readonly title: string;
  readonly description: string;
  readonly servers?: readonly AsyncRef[];
  readonly messages: Readonly<Record<string, AsyncRef>>;
  readonly bindings?: { readonly ws?: { readonly method: 'GET'; readonly bindingVersion: '0.1.0' } };
  readonly 'x-close-codes'?: readonly CloseCode[];
}

export interface AsyncOperation {
  readonly action: 'send' | 'receive';
  readonly channel: AsyncRef;
  readonly title: string;
  readonly description?: string;
  readonly messages: readonly AsyncRef[];
  readonly reply?: { readonly channel: AsyncRef; readonly messages: readonly AsyncRef[] };
}

export interface AsyncApiDocument {
  readonly asyncapi: '3.0.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly defaultContentType: string;
  readonly servers: Readonly<Record<string, AsyncServer>>;
  readonly channels: Readonly<Record<string, AsyncChannel>>;
  readonly operations: Readonly<Record<string, AsyncOperation>>;
  readonly components: {
    readonly messages: Readonly<Record<string, AsyncMessage>>;
    readonly schemas?: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes?: Readonly<
      Record<string, { readonly type: 'http'; readonly scheme: 'bearer'; readonly description: string }>
    >;
  };
}
