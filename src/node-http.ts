/** docs-platform/node-http: the node:http adapter and server. */
export { createNodeListener, serve, type RunningServer, type ServeOptions } from './adapters/node-http/index.js';
export { answerClientErrors } from './adapters/node-http/client-errors.js';
export { swaggerUiAssets } from './adapters/node-http/docs-assets.js';
export type { DocsAssets } from './adapters/openapi/docs-page.js';
export type { PipelineOptions } from './adapters/pipeline.js';
