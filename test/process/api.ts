/** A small JSON client for a server under test, authenticated with a Bearer token. */

/** A response: its status and parsed JSON body (null when empty). */
export interface Reply {
  readonly status: number;
  readonly body: any;
}

/** Sends one request; rejects only when there is no HTTP response at all (a refused or broken connection). */
export type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** A client for the server at `url` acting with `token`. */
export function api(url: string, token: string): Call {
  return async (method, path, body) => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
}

/** Every page of a list endpoint (whose path may have a query already), concatenated. */
export async function listAll(call: Call, path: string): Promise<any[]> {
  const items = [];
  let page: string | undefined;
  do {
    const reply = await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    items.push(...reply.body.items);
    page = reply.body.next?.page;
  } while (page);
  return items;
}
