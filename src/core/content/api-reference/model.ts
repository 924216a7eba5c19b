/**
 * The page model of a computed OpenAPI page: what an API reference shows, as plain JSON-ready data that
 * the core builds once per specification version (build-reference.ts, in a job) and that each renderer
 * turns into its form without deciding anything: the reader into HTML (src/reader/api-reference.ts), the
 * core into Markdown (reference-markdown.ts, for search, the PDF, the API and `.md` pages). Descriptions
 * are CommonMark, as OpenAPI writes them; values (examples, defaults, enum members) are JSON texts.
 */

/** An API reference: the document's servers and security schemes, then its operations in document order. */
export interface ApiReference {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** Where the API answers (`servers`, or Swagger 2.0's scheme, host and base path). */
  readonly servers: readonly ApiServer[];
  /** The security schemes the document declares, by name. */
  readonly securitySchemes: readonly ApiSecurityScheme[];
  /** The security every operation needs unless it says otherwise: alternatives, any one of which is enough. */
  readonly security: readonly ApiSecurityRequirement[];
  readonly operations: readonly ApiOperation[];
  /** How many operations were left out past the bound on one page (MAX_OPERATIONS). */
  readonly omittedOperations: number;
}

/** A server URL, its variables filled with their defaults. */
export interface ApiServer {
  readonly url: string;
  readonly description?: string;
}

/** A security scheme of the document. */
export interface ApiSecurityScheme {
  readonly name: string;
  /** `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS` (Swagger 2.0's `basic` reads as `http`). */
  readonly type: string;
  readonly description?: string;
  /** What a client sends, in words: `Authorization: Bearer <token>` (JWT), `header X-Api-Key`, ... */
  readonly summary: string;
  /** An OAuth 2 scheme's flows: their kind, URLs and scopes. */
  readonly flows: readonly { readonly kind: string; readonly urls: readonly string[]; readonly scopes: readonly { readonly name: string; readonly description: string }[] }[];
}

/** One way to meet an operation's security: every named scheme, with the scopes it needs. Empty: no auth. */
export interface ApiSecurityRequirement {
  readonly schemes: readonly { readonly name: string; readonly scopes: readonly string[] }[];
}

/** An operation: a method on a path. */
export interface ApiOperation {
  /** The anchor of its heading on the page, unique on the page (as GitHub numbers repeated headings). */
  readonly anchor: string;
  /** The method, in capitals. */
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly tags: readonly string[];
  /** Its own servers, when it (or its path) names some; else the document's. */
  readonly servers: readonly ApiServer[];
  /** The security it needs (its own, or the document's): alternatives; empty when it needs none. */
  readonly security: readonly ApiSecurityRequirement[];
  readonly parameters: readonly ApiParameter[];
  readonly requestBody?: ApiBody;
  readonly responses: readonly ApiResponse[];
  /** Its request as a curl command (request-sample.ts), when the document says where the API answers. */
  readonly sample?: string;
}

/** A parameter (path, query, header, cookie), or a response header. */
export interface ApiParameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly deprecated: boolean;
  readonly description?: string;
  readonly schema: SchemaNode;
  /** Its example, from the document, as JSON text. */
  readonly example?: string;
}

/** A request body. */
export interface ApiBody {
  readonly required: boolean;
  readonly description?: string;
  readonly contents: readonly ApiMedia[];
}

/** The content of a body in one media type: its schema and its examples. */
export interface ApiMedia {
  readonly mediaType: string;
  readonly schema?: SchemaNode;
  /** The document's examples, or else one generated from the schema (`generated`). */
  readonly examples: readonly ApiExample[];
}

/** An example value, as pretty-printed JSON text (or, for a non-JSON value, its text). */
export interface ApiExample {
  /** Its name in the document's `examples`, or its summary. */
  readonly title?: string;
  readonly value: string;
  /** Made from the schema, not written in the document. */
  readonly generated: boolean;
}

/** A response, by status code (or `default`, or a range like `4XX`). */
export interface ApiResponse {
  readonly status: string;
  readonly description?: string;
  readonly headers: readonly ApiParameter[];
  readonly contents: readonly ApiMedia[];
}

/** A composition of schemas: all of them at once, exactly one, or at least one. */
export type CompositionKind = 'allOf' | 'oneOf' | 'anyOf';

/**
 * A schema, expanded: its type and what constrains it, and what it holds (properties, items, additional
 * properties, composed variants). `$ref`s are followed; where following one again would loop (a cycle),
 * go past the depth bound or past the page's budget of nodes, the node stops there and says why (`cut`).
 */
export interface SchemaNode {
  /** The property's name, for a node that is a property. */
  readonly name?: string;
  /** Its type in words: `string`, `integer`, `object`, `array of Pet`, `string or null`, the name of a referenced schema. */
  readonly type: string;
  /** The name of the component schema it refers to (`#/components/schemas/<name>`). */
  readonly ref?: string;
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly nullable: boolean;
  /** Its allowed values, as JSON texts (at most MAX_ENUM), and how many more there are. */
  readonly enum?: readonly string[];
  readonly moreEnum?: number;
  readonly default?: string;
  /** Its limits in words: `format: email`, `≥ 1`, `≤ 100`, `1 to 64 characters`, `pattern: ^[a-z]+$`, `unique items`. */
  readonly constraints: readonly string[];
  /** An object's properties (at most MAX_PROPERTIES), and how many more there are. */
  readonly properties: readonly SchemaNode[];
  readonly moreProperties?: number;
  /** An array's items. */
  readonly items?: SchemaNode;
  /** An object's other properties (`additionalProperties`), as a schema. */
  readonly additional?: SchemaNode;
  readonly composition?: { readonly kind: CompositionKind; readonly variants: readonly SchemaNode[] };
  /** Why it is not expanded further: it refers to a schema it is inside of, it is too deep, or the page holds enough. */
  readonly cut?: 'cycle' | 'depth' | 'budget';
}
