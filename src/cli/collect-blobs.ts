import type { BlobCollectionReport } from '../core/blob-collection/collect.js';
import { createPlatform } from '../core/platform.js';
import { openData } from './open-data.js';

/** Thrown when another process is collecting the same installation's blobs (its lease is held). */
export class CollectionBusyError extends Error {
  constructor() {
    super('Another process is collecting file bytes on this installation right now; try again later');
    this.name = 'CollectionBusyError';
  }
}

/** Runs the blob collection once over a `--data` value (CLI `gc`); a dry run only reports. */
export async function collectData(data: string, dryRun: boolean): Promise<BlobCollectionReport> {
  const platform = createPlatform(await openData(data));
  try {
    const report = await platform.collectBlobs({ dryRun });
    if (!report) throw new CollectionBusyError();
    return report;
  } finally {
    await platform.close();
  }
}

/** The lines `gc` prints: one per blob removed (or that would be), then a summary. */
export function describeCollection(report: BlobCollectionReport): string[] {
  const verb = report.dryRun ? 'would remove' : 'removed';
  const lines = report.removed.map((blob) => `${verb} ${blob.key} ${blob.size} bytes (${blob.reason === 'expired' ? 'expired PDF' : 'unreferenced'}, last stored ${blob.storedAt})`);
  const holds = report.endedHolds > 0 ? `; ${report.dryRun ? 'would end' : 'ended'} ${report.endedHolds} expired PDF holds` : '';
  lines.push(
    `${report.dryRun ? 'Would remove' : 'Removed'} ${report.removed.length} of ${report.blobs} blobs, ${report.removedBytes} bytes${holds} ` +
      `(only bytes last stored before ${report.storedBefore} can go)`,
  );
  return lines;
}
