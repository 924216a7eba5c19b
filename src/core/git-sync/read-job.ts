import { buffersOf, defineJob } from '../job.js';
import { localIds, type LocalPlan } from '../content/import/local-ids.js';
import { readRepository } from './read-repository.js';
import type { GitTreeFile } from './transport.js';

/** What reading a fetched repository takes: its files, where its docs' configuration is, and a name for errors. */
export interface ReadRepositoryInput {
  readonly files: readonly GitTreeFile[];
  readonly projectDirectory: string;
  readonly where: string;
}

/** What it gives: the plan with local ids, the redirects of its configuration, and where its pages and files are. */
export interface ReadRepositoryOutput {
  readonly plan: LocalPlan;
  readonly redirects: Readonly<Record<string, string>>;
  /** The path (relative to the docs' root) of each page read from a Markdown file and of each file, by local id. */
  readonly sources: Readonly<Record<string, string>>;
}

/**
 * The job that reads a fetched repository as an import plan (read-repository.ts): parsing every Markdown file
 * of a large repository takes seconds, so it runs in a worker thread where the platform has them.
 */
export const readRepositoryJob = defineJob({
  name: 'readGitRepository',
  what: 'reading the Git repository to import',
  run({ files, projectDirectory, where }: ReadRepositoryInput): ReadRepositoryOutput {
    const ids = localIds();
    const { plan, config, sources } = readRepository(ids.next, files, projectDirectory, where);
    return { plan: { ...plan, prefix: ids.prefix, ids: ids.count() }, redirects: config.redirects, sources: Object.fromEntries(sources) };
  },
  transferInput: (input) => buffersOf(input.files.map((file) => file.bytes)),
  transferOutput: (output) => buffersOf(output.plan.files.map((file) => file.bytes)),
});
