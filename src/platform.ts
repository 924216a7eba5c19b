import { createPlatform as createCorePlatform, type Platform, type PlatformOptions as CorePlatformOptions } from './core/platform.js';
import { createOutboundFetch } from './outbound/fetch.js';
import { inlineWorkers } from './core/inline-workers.js';
import { createGitTransport } from './outbound/git-transport.js';
import { notoPdfFonts } from './pdf-fonts.js';

/** What a platform is made of on Node: the core's options, and what outbound fetches may reach. */
export interface PlatformOptions extends CorePlatformOptions {
  /**
   * What imports, files by URL and OpenAPI sources may fetch besides the public internet: IP addresses,
   * CIDR ranges and host names, as a list or a comma-separated string (the bundled server reads
   * `DOCS_PLATFORM_FETCH_ALLOW`), e.g. `['127.0.0.1']` for a local test setup. Loopback, private,
   * link-local, unique-local, multicast and unspecified addresses are refused unless listed here. Not with
   * `fetch`: an injected fetch decides alone.
   */
  fetchAllow?: string | readonly string[];
}

/**
 * Creates a platform over a store, on Node: the core's createPlatform with the outbound fetch that refuses
 * inside addresses (src/outbound/fetch.ts) as the default `fetch`, isomorphic-git over it as the default
 * `gitTransport` (src/outbound/git-transport.ts), and the Noto fonts of its npm
 * dependencies as the default `pdfFonts` (src/pdf-fonts.ts). Throws AllowListError for a `fetchAllow`
 * entry it cannot read, and a TypeError for `fetchAllow` beside `fetch`.
 */
export function createPlatform(options: PlatformOptions): Platform {
  const { fetchAllow, ...core } = options;
  if (core.fetch && fetchAllow !== undefined) throw new TypeError('createPlatform: fetchAllow applies to the default fetch; an injected fetch decides alone what it reaches');
  return createCorePlatform({
    ...core,
    fetch: core.fetch ?? createOutboundFetch({ allow: fetchAllow }),
    // Git's smart HTTP posts its requests: a fetch of its own, under the same allow list.
    // Its object work runs as jobs, on the platform's workers.
    gitTransport: core.gitTransport ?? createGitTransport({ fetch: core.fetch ?? createOutboundFetch({ allow: fetchAllow, sendBodies: true }), workers: core.workers ?? inlineWorkers }),
    pdfFonts: core.pdfFonts ?? notoPdfFonts(),
  });
}
