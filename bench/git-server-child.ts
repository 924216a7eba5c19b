/**
 * Child process: the Git case's repository host (`git-server-child.ts`), the test Git server (`git
 * http-backend` behind a node:http bridge) holding a repository `bench` with one commit of code. It stands in
 * for a host on another machine, so it runs in a process of its own at the lowest priority, with its `git`
 * children: neither its bridge nor its pack work shares the load generator's event loop or takes a core from
 * the server under test ahead of it.
 */
import { setPriority } from 'node:os';
import { startGitServer } from '../test/git/git-server.js';
import { runAsChild } from './child.js';

setPriority(19);

runAsChild(async () => {
  const git = await startGitServer();
  git.createRepository('bench');
  git.commit('bench', { 'README.md': '# Code\n' }, 'Code');
  return { info: { url: git.url }, stop: () => git.close() };
});
