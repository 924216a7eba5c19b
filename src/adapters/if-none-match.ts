/**
 * Whether an If-None-Match header names an ETag (or is `*`), compared weakly as RFC 9110 (13.1.2) says: a
 * compressed answer's ETag is the identity answer's made weak (compression.ts), and either validates the other.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const given = candidate.trim().replace(/^W\//, '');
    return given === '*' || given === value;
  });
}
