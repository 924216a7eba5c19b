/**
 * The form of an `X-Request-Id` taken from a client or a proxy: 1 to 128 characters that are safe in a log
 * line and a header (letters, digits and `-_.:=+/@`), such as a UUID or a load balancer's trace id.
 * Anything else is replaced, so that a client cannot write what it likes into the logs.
 */
const WELL_FORMED = /^[A-Za-z0-9\-_.:=+/@]{1,128}$/;

/** The request id of a request: its `X-Request-Id` when well-formed, or a new random UUID. */
export function requestIdOf(headers: Readonly<Record<string, string | string[] | undefined>>): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : crypto.randomUUID();
}
