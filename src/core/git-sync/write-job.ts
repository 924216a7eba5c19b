import { buffersOf, defineJob } from '../job.js';
import type { GitbookConfig } from './gitbook-yaml.js';
import { writeRepository, type SyncedContent } from './write-repository.js';

/** What writing a space as a repository takes: its content, and the docs' root and redirects to keep. */
export interface WriteRepositoryInput {
  readonly content: SyncedContent;
  readonly config: Pick<GitbookConfig, 'root' | 'redirects'>;
}

/**
 * The job that writes a space in the repository format (write-repository.ts) for an export: every page's
 * Markdown is parsed and written again (links made relative), seconds for a large space, so it runs in a
 * worker thread where the platform has them. It gives the files by path from the project directory.
 */
export const writeRepositoryJob = defineJob({
  name: 'writeGitRepository',
  what: 'writing the space as a Git repository',
  run({ content, config }: WriteRepositoryInput): [string, Uint8Array][] {
    return [...writeRepository(content, config)];
  },
  transferInput: (input) => buffersOf(input.content.files.map((file) => file.bytes)),
  transferOutput: (output) => buffersOf(output.map(([, bytes]) => bytes)),
});
