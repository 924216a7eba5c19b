/**
 * Lets other work run. Reading, parsing and rendering a long export is synchronous work (an in-memory
 * store answers reads without waiting for anything): done in slices with a pause between them, other
 * requests are served meanwhile instead of waiting seconds. setTimeout is in every runtime the core targets.
 */
export const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
