/**
 * Lets other work run. Reading, parsing and rendering a long export or index is synchronous work (an
 * in-memory store answers reads without waiting for anything): done in slices with a pause between them,
 * other requests are served meanwhile instead of waiting seconds. Used where work stays on the main thread
 * (reading from the store) and by jobs, which the in-process runner runs there too. setTimeout is in every
 * runtime the core targets.
 */
export const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A pause that comes only once `budgetMs` of work has run since the last one: for a loop whose steps vary
 * from microseconds to milliseconds, where pausing every step would add a timer's millisecond each time
 * (2,000 pages, 2 s) and pausing every n steps would let n long ones hold the loop. Elapsed time is read
 * from `performance.now()`, not the clock port: it paces the work, it is no time the domain records.
 */
export function pacer(budgetMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < budgetMs) return undefined;
    return pause().then(() => {
      since = performance.now();
    });
  };
}
