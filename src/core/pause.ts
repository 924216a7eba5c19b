/**
 * Lets other work run. Reading, parsing and rendering a long export or index is synchronous work (an
 * in-memory store answers reads without waiting for anything): done in slices with a pause between them,
 * other requests are served meanwhile instead of waiting seconds. Used where work stays on the main thread
 * (reading from the store) and by jobs, which the in-process runner runs there too. setTimeout is in every
 * runtime the core targets.
 */
export const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
