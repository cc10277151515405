import type { JsonSchema } from './json-schema';

/**
 * The part of OpenAPI 3.1 the served documents use. Typed so that a document module that
 * misnames a field (`response` for `responses`, `require` for `required`) does not compile.
 */
export interface Reference {
  readonly $ref: string;
  readonly description?: string;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface Header {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface MediaType {
  readonly schema: JsonSchema;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header | Reference>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path' | 'cookie';
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface RequestBody {
  readonly description?: string;
  readonly required?: boolean;
  readonly content: Readonly<Record<string, MediaType>>;
}

/** `[{}]` alone: no authentication; `[{}, {name: []}]`: optional. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: RequestBody | Reference;
  /** Keyed by status code; every status the simulator answers for this operation. */
  readonly responses: Readonly<Record<string, Response | Reference>>;
  readonly security?: readonly SecurityRequirement[];
}

export type PathItem = Readonly<Partial<Record<HttpMethod, Operation>>> & {
  readonly summary?: string;
  readonly description?: string;
};

export type Paths = Readonly<Record<string, PathItem>>;

export interface SecurityScheme {
  readonly type: 'http' | 'apiKey';
  readonly scheme?: 'bearer' | 'basic';
  readonly bearerFormat?: string;
  readonly description?: string;
}

export interface Components {
  readonly schemas?: Readonly<Record<string, JsonSchema>>;
  readonly responses?: Readonly<Record<string, Response>>;
  readonly parameters?: Readonly<Record<string, Parameter>>;
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>;
}

export interface Tag {
  readonly name: string;
  readonly description: string;
}

export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables?: Readonly<Record<string, { readonly default: string; readonly description?: string }>>;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
    readonly license?: { readonly name: string; readonly identifier: string };
  };
  readonly servers: readonly Server[];
  readonly tags: readonly Tag[];
  readonly paths: Paths;
  readonly components: Components;
}

/** What one part of a document (shared or a simulator's own) contributes. */
export interface OpenApiPart {
  readonly paths: Paths;
  readonly components?: Components;
}
