import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { badRequest } from '../errors.js';
import { requireSafePath } from './repo-paths.js';

/**
 * `.gitbook.yaml`, the hosted platform's content configuration: where the docs are (`root`), their first page
 * (`structure.readme`), their table of contents (`structure.summary`) and the space's redirects (old path,
 * without `.md`, to a file). Absent, every field has its default. Paths come back canonical and relative
 * to the folder that holds the file (the repository, or its project directory in a monorepo).
 */

/** The name of the configuration file. */
export const GITBOOK_YAML = '.gitbook.yaml';

/** A content configuration, every path canonical. */
export interface GitbookConfig {
  /** The folder the docs live in, relative to the configuration's folder ('' for that folder). */
  readonly root: string;
  /** The first page, relative to `root`. */
  readonly readme: string;
  /** The table of contents, relative to `root`. */
  readonly summary: string;
  /** Redirects: an old path (no leading `/`, no `.md`) to a file relative to `root`. */
  readonly redirects: Readonly<Record<string, string>>;
}

/** The configuration of docs that have no `.gitbook.yaml`. */
export const DEFAULT_CONFIG: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} };

/** The most redirects one configuration may list. */
export const MAX_REDIRECTS = 1000;

/** A string field of the configuration, or a 400. */
function text(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${GITBOOK_YAML}: ${field} must be a string`);
  return value;
}

/** A mapping field of the configuration (absent: empty), or a 400. */
function mapping(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${GITBOOK_YAML}: ${field} must be a mapping`);
  return value as Record<string, unknown>;
}

/** Reads a `.gitbook.yaml`: a 400 for YAML that does not parse, a field of the wrong type, or an unsafe path. */
export function readGitbookConfig(source: string): GitbookConfig {
  let data: unknown;
  try {
    data = parseYaml(source);
  } catch (error) {
    throw badRequest(`${GITBOOK_YAML} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const top = mapping(data, 'the document');
  const structure = mapping(top.structure, 'structure');
  const rawRedirects = Object.entries(mapping(top.redirects, 'redirects'));
  if (rawRedirects.length > MAX_REDIRECTS) throw badRequest(`${GITBOOK_YAML}: redirects lists ${rawRedirects.length} entries, more than ${MAX_REDIRECTS}`);
  const redirects: Record<string, string> = {};
  for (const [from, to] of rawRedirects) {
    // An old path is a URL path: it may start with `/`.
    const source = requireSafePath(from.replace(/^\/+/, ''), `${GITBOOK_YAML}: redirects`);
    if (source === '') throw badRequest(`${GITBOOK_YAML}: redirects: an empty path cannot be redirected`);
    redirects[source] = requireSafePath(text(to, `redirects.${from}`) ?? '', `${GITBOOK_YAML}: redirects.${from}`);
  }
  const path = (value: string | undefined, field: string, fallback: string) => (value === undefined ? fallback : requireSafePath(value, `${GITBOOK_YAML}: ${field}`));
  return {
    root: path(text(top.root, 'root'), 'root', DEFAULT_CONFIG.root),
    readme: path(text(structure.readme, 'structure.readme'), 'structure.readme', DEFAULT_CONFIG.readme),
    summary: path(text(structure.summary, 'structure.summary'), 'structure.summary', DEFAULT_CONFIG.summary),
    redirects,
  };
}

/** Writes a `.gitbook.yaml` that reads back as `config` (root as `./` for the configuration's own folder). */
export function writeGitbookConfig(config: GitbookConfig): string {
  const document: Record<string, unknown> = {
    root: config.root === '' ? './' : `./${config.root}/`,
    structure: { readme: config.readme, summary: config.summary },
  };
  if (Object.keys(config.redirects).length > 0) document.redirects = { ...config.redirects };
  return stringifyYaml(document);
}
