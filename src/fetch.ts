/** docs-platform/fetch: the Fetch API adapter. */
export { createFetchHandler } from './adapters/fetch/index.js';
export type { PipelineOptions } from './adapters/pipeline.js';
export type { DocsAssets } from './adapters/openapi/docs-page.js';
