/** Child process: copies a seeded JSON data file into an empty PostgreSQL schema (`postgres-copy-child.ts <file> <url>`), as `migrate` does. */
import { copyInstallation } from '../src/cli/copy-data.js';
import { runAsChild } from './child.js';

/** What the copy reports. */
export interface CopiedData {
  copyMs: number;
  records: number;
}

runAsChild<CopiedData>(async () => {
  const started = performance.now();
  const report = await copyInstallation(process.argv[2], process.argv[3]);
  if (!report.complete) throw new Error(`the copy is incomplete: ${JSON.stringify(report.tables)}`);
  return { info: { copyMs: Math.round(performance.now() - started), records: report.tables.reduce((sum, row) => sum + row.target, 0) } };
});
