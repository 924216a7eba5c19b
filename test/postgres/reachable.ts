import pg from 'pg';

/** Why the PostgreSQL at `url` cannot be used, or undefined when it answers (the tests' and the bench's check). */
export async function postgresUnavailable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `${url} does not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
