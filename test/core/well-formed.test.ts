import { describe, expect, it } from 'vitest';
import { linksOf } from '../../src/core/content/pdf/links.js';
import { EXCERPT_LENGTH, excerptOf } from '../../src/core/search/sections.js';
import { freePath, slugOf } from '../../src/core/sites/paths.js';
import { copyTitle } from '../../src/core/spaces/duplicate.js';
import { cutText, uriComponent } from '../../src/core/well-formed.js';

/** A character outside the Basic Multilingual Plane (Deseret capital long I, a letter): two UTF-16 units. */
const ASTRAL = '\u{10400}';

describe('uriComponent', () => {
  it('encodes as encodeURIComponent does, and a lone surrogate as U+FFFD instead of throwing', () => {
    expect(uriComponent('a b/ü😀')).toBe(encodeURIComponent('a b/ü😀'));
    expect(() => encodeURIComponent('a\ud800')).toThrow(URIError);
    expect(uriComponent('a\ud800')).toBe('a%EF%BF%BD');
    expect(uriComponent('\udc00\ud83d\ude00\ud83d')).toBe('%EF%BF%BD%F0%9F%98%80%EF%BF%BD');
  });
});

describe('cutText', () => {
  it('cuts to at most max units, never inside a surrogate pair', () => {
    expect(cutText('abcdef', 3)).toBe('abc');
    expect(cutText('ab', 3)).toBe('ab');
    expect(cutText(`ab${ASTRAL}`, 3)).toBe('ab');
    expect(cutText(`ab${ASTRAL}`, 4)).toBe(`ab${ASTRAL}`);
    expect(cutText(`a${ASTRAL}b`, 3)).toBe(`a${ASTRAL}`);
    expect(cutText('abc', 0)).toBe('');
  });
});

/** The places that cut text the platform makes leave it well-formed, whatever the caller's characters. */
describe('text the platform cuts stays well-formed', () => {
  it('site paths made from titles, and their numbered variants', () => {
    const slug = slugOf(`${'a'.repeat(99)}${ASTRAL}`, 'x');
    expect(slug.isWellFormed()).toBe(true);
    expect(slug).toBe('a'.repeat(99));
    const base = ASTRAL.repeat(50);
    expect(freePath(base, new Set([base])).isWellFormed()).toBe(true);
    expect(freePath(base, new Set([base])).length).toBeLessThanOrEqual(100);
  });

  it('titles of copies and search excerpts', () => {
    expect(copyTitle(`${'a'.repeat(41)}${ASTRAL}`)).toBe(`Copy of ${'a'.repeat(41)}`);
    const excerpt = excerptOf(`${'a'.repeat(EXCERPT_LENGTH - 2)}${ASTRAL.repeat(5)}`);
    expect(excerpt.isWellFormed()).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
  });
});

describe('the links of a PDF export', () => {
  it('link a stored anchor that is not well-formed without throwing', () => {
    const links = linksOf({ pageUrls: new Map([['p1', 'https://docs.test/app/p1']]) }, new Set());
    expect(links.target('/pages/p1#intro\ud800', 'p0')).toEqual({ url: 'https://docs.test/app/p1#intro%EF%BF%BD' });
  });
});
