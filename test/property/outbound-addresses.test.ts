import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIp, parseIp, refusedRange } from '../../src/outbound/addresses.js';
import { parseAllowList } from '../../src/outbound/allow-list.js';
import { runs } from './runs.js';

/**
 * The address rules of the outbound fetch against a model written from the RFCs' tables by octets: every
 * IPv4 address is refused exactly when the model says so, in its IPv4 and every IPv6 form that reaches it,
 * and an allow-list entry allows exactly what it covers.
 */

type Octets = [number, number, number, number];
const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)) as fc.Arbitrary<Octets>;
const dotted = (o: Octets) => o.join('.');
const hex = (o: Octets) => `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;

/** Whether the model refuses an IPv4 address. */
function modelRefuses([a, b, c]: Octets): boolean {
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

/** Addresses drawn mostly from the refused blocks, so that both verdicts come often. */
const interesting = fc.oneof(
  octets,
  fc.tuple(fc.constantFrom(0, 10, 100, 127, 169, 172, 192, 198, 224, 239, 240, 255), fc.nat(255), fc.nat(255), fc.nat(255)) as fc.Arbitrary<Octets>,
  fc.tuple(fc.constantFrom(169, 172, 192), fc.constantFrom(0, 15, 16, 31, 32, 168, 254), fc.nat(255), fc.nat(255)) as fc.Arbitrary<Octets>,
);

describe('the refused ranges, against a model', () => {
  it('refuse an IPv4 address exactly when the model does', () => {
    fc.assert(
      fc.property(interesting, (o) => {
        expect(refusedRange(parseIp(dotted(o))!) !== undefined, dotted(o)).toBe(modelRefuses(o));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('judge every IPv6 form that reaches an IPv4 address (mapped, NAT64, 6to4) as that address', () => {
    fc.assert(
      fc.property(interesting, (o) => {
        const forms = [`::ffff:${dotted(o)}`, `::ffff:${hex(o)}`, `0:0:0:0:0:ffff:${hex(o)}`, `64:ff9b::${dotted(o)}`, `2002:${hex(o)}::1`];
        for (const form of forms) expect(refusedRange(parseIp(form)!) !== undefined, form).toBe(modelRefuses(o));
      }),
      { numRuns: runs(1000) },
    );
  });

  it('refuse every address of the IPv6 local blocks (loopback, link-local, unique-local, multicast)', () => {
    const groups = fc.array(fc.nat(0xffff), { minLength: 7, maxLength: 7 });
    fc.assert(
      fc.property(fc.constantFrom(0xfe80, 0xfebf, 0xfc00, 0xfdff, 0xff00, 0xff02), groups, (first, rest) => {
        const address = [first, ...rest].map((group) => group.toString(16)).join(':');
        expect(refusedRange(parseIp(address)!), address).toBeDefined();
      }),
    );
  });

  it('read back every address they write, and the compressed form URL parsing gives', () => {
    const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((group) => group.toString(16)).join(':'));
    fc.assert(
      fc.property(v6, (address) => {
        const parsed = parseIp(address)!;
        expect(formatIp(parsed)).toBe(address);
        const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
        expect(parseIp(compressed), compressed).toEqual(parsed);
      }),
    );
    fc.assert(
      fc.property(octets, (o) => {
        expect(formatIp(parseIp(dotted(o))!)).toBe(dotted(o));
      }),
    );
  });
});

describe('allow-list entries, against a model', () => {
  it('allow exactly the IPv4 addresses of their range, and no other refused one', () => {
    fc.assert(
      fc.property(octets, fc.nat(32), interesting, (base, prefix, o) => {
        const allow = parseAllowList(`${dotted(base)}/${prefix}`);
        const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
        const toNumber = (x: Octets) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
        const covered = ((toNumber(o) & mask) >>> 0) === ((toNumber(base) & mask) >>> 0);
        for (const form of [dotted(o), `::ffff:${dotted(o)}`]) {
          expect(allow.allowsAddress(parseIp(form)!), `${form} in ${dotted(base)}/${prefix}`).toBe(covered || !modelRefuses(o));
        }
      }),
      { numRuns: runs(1000) },
    );
  });
});
