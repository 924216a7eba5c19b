/**
 * Fractional ordering keys: strings that sort in code-unit order, where a new key can always be made
 * between any two others, so that moving an item among its siblings rewrites that item only.
 *
 * A key is an integer part followed by an optional fraction. The integer part is a head character
 * that says how many base-62 digits follow it (`a` one, `b` two, ... `z` 26; `Z` one, `Y` two, ...
 * `A` 26 for the negative side, which sorts before `a`), so keys made by appending one after another
 * grow by one character per 62^n items instead of one per few items: a thousand appends stay 3
 * characters long. The fraction never ends in `0`, so every position has exactly one spelling and
 * there is always room between two keys. This is the scheme of David Greenspan's "Implementing
 * Fractional Indexing" (also used by the `fractional-indexing` package), written out here because it
 * is short and the core takes no dependency for it.
 */
import { randomByte } from '../random-bytes.js';

/** The digits, in code-unit order. */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = DIGITS.length;
const FIRST_KEY = 'a0';
/** The smallest integer part; a key equal to it could have nothing before it. */
const SMALLEST_INTEGER = `A${'0'.repeat(26)}`;

const digitValue = (char: string): number => {
  const value = DIGITS.indexOf(char);
  if (value < 0 || char.length !== 1) throw new Error(`Invalid ordering key digit ${JSON.stringify(char)}`);
  return value;
};

/** The length of the integer part that starts with `head` (the head included). */
function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 'a'.charCodeAt(0) + 2;
  if (head >= 'A' && head <= 'Z') return 'Z'.charCodeAt(0) - head.charCodeAt(0) + 2;
  throw new Error(`Invalid ordering key head ${JSON.stringify(head)}`);
}

function integerPart(key: string): string {
  const length = integerLength(key.charAt(0));
  if (length > key.length) throw new Error(`Invalid ordering key ${JSON.stringify(key)}`);
  return key.slice(0, length);
}

/** Whether a string is a well-formed ordering key. */
export function isOrderKey(key: string): boolean {
  try {
    assertOrderKey(key);
    return true;
  } catch {
    return false;
  }
}

function assertOrderKey(key: string): void {
  if (key === SMALLEST_INTEGER) throw new Error(`Invalid ordering key ${JSON.stringify(key)}`);
  const integer = integerPart(key);
  for (const char of key.slice(1)) digitValue(char);
  if (key.length > integer.length && key.endsWith('0')) throw new Error(`Invalid ordering key ${JSON.stringify(key)}`);
}

/** The next integer part, or null after the largest one. */
function incrementInteger(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = integer.slice(1).split('');
  for (let i = digits.length - 1; i >= 0; i--) {
    const value = digitValue(digits[i]) + 1;
    if (value < BASE) {
      digits[i] = DIGITS[value];
      return head + digits.join('');
    }
    digits[i] = '0';
  }
  // Every digit carried: the integer needs one more digit (or, on the negative side, one fewer).
  if (head === 'Z') return 'a0';
  if (head === 'z') return null;
  const nextHead = String.fromCharCode(head.charCodeAt(0) + 1);
  if (nextHead > 'a') digits.push('0');
  else digits.pop();
  return nextHead + digits.join('');
}

/** The previous integer part, or null before the smallest one. */
function decrementInteger(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = integer.slice(1).split('');
  for (let i = digits.length - 1; i >= 0; i--) {
    const value = digitValue(digits[i]) - 1;
    if (value >= 0) {
      digits[i] = DIGITS[value];
      return head + digits.join('');
    }
    digits[i] = DIGITS[BASE - 1];
  }
  if (head === 'a') return `Z${DIGITS[BASE - 1]}`;
  if (head === 'A') return null;
  const previousHead = String.fromCharCode(head.charCodeAt(0) - 1);
  if (previousHead < 'Z') digits.push(DIGITS[BASE - 1]);
  else digits.pop();
  return previousHead + digits.join('');
}

/**
 * A fraction strictly between fractions `a` and `b` (null: 1), neither ending in `0`, a < b.
 * Takes the common prefix, then the middle digit when there is room, else one more digit.
 */
function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a.charAt(n) || '0') === b.charAt(n)) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const low = a ? digitValue(a.charAt(0)) : 0;
  const high = b !== null ? digitValue(b.charAt(0)) : BASE;
  if (high - low > 1) return DIGITS[Math.round((low + high) / 2)];
  // Adjacent digits: b's first digit alone is between them when b goes on; else extend a.
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS[low] + midpoint(a.slice(1), null);
}

/**
 * A key that sorts strictly after `before` and strictly before `after` (null: no bound on that side).
 * Throws when the bounds are not valid keys in increasing order: callers pass neighbouring siblings.
 */
export function keyBetween(before: string | null, after: string | null): string {
  if (before !== null) assertOrderKey(before);
  if (after !== null) assertOrderKey(after);
  if (before !== null && after !== null && before >= after) {
    throw new Error(`Ordering keys out of order: ${JSON.stringify(before)} >= ${JSON.stringify(after)}`);
  }
  if (before === null && after === null) return FIRST_KEY;
  if (before === null) {
    const integer = integerPart(after!);
    const fraction = after!.slice(integer.length);
    if (integer === SMALLEST_INTEGER) return integer + midpoint('', fraction);
    if (integer < after!) return integer;
    const previous = decrementInteger(integer);
    if (previous === null) throw new Error('Cannot make an ordering key before the smallest one');
    return previous;
  }
  const integer = integerPart(before);
  const fraction = before.slice(integer.length);
  if (after === null) {
    const next = incrementInteger(integer);
    return next === null ? integer + midpoint(fraction, null) : next;
  }
  const afterInteger = integerPart(after);
  if (integer === afterInteger) return integer + midpoint(fraction, after.slice(afterInteger.length));
  const next = incrementInteger(integer);
  if (next === null) throw new Error('Cannot make an ordering key after the largest one');
  return next < after ? next : integer + midpoint(fraction, null);
}

/** Random digits a salted key ends with: 61 × 62 × 62 spellings, so two appends at once tie about once in 234,000. */
const SALT_DIGITS = 3;

/**
 * A key after `before` (null: the first key), made with keyBetween and followed by random digits (the last
 * never `0`): still after `before` and before any key keyBetween would make after it, and different from
 * the key another writer makes after the same `before` at the same time. Keys stay short: the next append
 * after a salted key drops its fraction and moves the integer part on.
 */
export function saltedAfter(before: string | null): string {
  let salt = '';
  for (let i = 0; i < SALT_DIGITS; i++) salt += i === SALT_DIGITS - 1 ? DIGITS[1 + (randomByte() % (BASE - 1))] : DIGITS[randomByte() % BASE];
  return keyBetween(before, null) + salt;
}
