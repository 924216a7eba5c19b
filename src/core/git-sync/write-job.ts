import { buffersOf, defineJob } from '../job.js';
import type { GitbookConfig } from './gitbook-yaml.js';
import { writeRepository, type SyncedContent } from './write-repository.js';

/** What writing a space as a repository takes: its content, the docs' root and redirects to keep, and where the last sync found its pages and files. */
export interface WriteRepositoryInput {
  readonly content: SyncedContent;
  readonly config: Pick<GitbookConfig, 'root' | 'redirects'>;
  readonly recorded: Readonly<Record<string, string>>;
}

/** What it gives: the files by path from the project directory, and the path of each page and file in the docs, by id. */
export interface WriteRepositoryOutput {
  readonly files: [string, Uint8Array][];
  readonly paths: Record<string, string>;
}

/**
 * The job that writes a space in the repository format (write-repository.ts) for an export: every page's
 * Markdown is parsed and written again (links made relative), seconds for a large space, so it runs in a
 * worker thread where the platform has them.
 */
export const writeRepositoryJob = defineJob({
  name: 'writeGitRepository',
  what: 'writing the space as a Git repository',
  run({ content, config, recorded }: WriteRepositoryInput): WriteRepositoryOutput {
    const { files, paths } = writeRepository(content, config, recorded);
    return { files: [...files], paths: Object.fromEntries(paths) };
  },
  transferInput: (input) => buffersOf(input.content.files.map((file) => file.bytes)),
  transferOutput: (output) => buffersOf(output.files.map(([, bytes]) => bytes)),
});
