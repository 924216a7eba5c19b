import { describe, expect, it } from 'vitest';
import { FetchFailure, readLimited } from '../../src/core/fetch-bytes.js';

/** A response whose body comes in `chunks` chunks of `size` bytes, declaring no length; counts what was pulled. */
function streamed(chunks: number, size: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { response: new Response(body), pulled: () => pulled };
}

describe('readLimited', () => {
  it('reads a body up to the limit, whole', async () => {
    const { response } = streamed(4, 1_000);
    expect((await readLimited(response, 4_000)).byteLength).toBe(4_000);
  });

  it('refuses a body that grows past the limit without declaring its length, and stops reading it', async () => {
    const { response, pulled } = streamed(1_000, 1_000);
    const refused = await readLimited(response, 4_500).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FetchFailure);
    expect((refused as FetchFailure).reason).toBe('too-large');
    expect(pulled()).toBeLessThan(10);
  });

  it('refuses a declared length over the limit before reading any of it', async () => {
    const { response, pulled } = streamed(1_000, 1_000);
    const declared = new Response(response.body, { headers: { 'content-length': '1000000' } });
    await expect(readLimited(declared, 4_500)).rejects.toMatchObject({ reason: 'too-large' });
    expect(pulled()).toBeLessThanOrEqual(1);
  });
});
