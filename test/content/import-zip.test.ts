import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { layoutPages, resolvePath, type Slot } from '../../src/core/content/import/layout.js';
import { openZip } from '../../src/core/content/import/zip.js';
import { ApiError } from '../../src/core/errors.js';

/** The zip reader and the page layout of imports, on archives made here. */

/** The message of the ApiError a call throws. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error('it did not throw');
}

/** Rewrites a field of every central directory entry of an archive. */
function patchDirectory(archive: Uint8Array, offset: number, size: 2 | 4, value: number): Uint8Array {
  const bytes = archive.slice();
  const view = new DataView(bytes.buffer);
  for (let at = 0; at + 4 <= bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    if (size === 2) view.setUint16(at + offset, value, true);
    else view.setUint32(at + offset, value, true);
  }
  return bytes;
}

describe('openZip', () => {
  it('reads stored and deflated entries, skips folders, and normalizes paths', () => {
    const text = 'hello '.repeat(1000);
    const archive = zipSync({ 'a/': {}, 'a/stored.md': [strToU8(text), { level: 0 }], './b.md': strToU8(text) } as never);
    const zip = openZip(archive, 'x');
    expect(zip.entries.map((entry) => [entry.path, entry.method, entry.size])).toEqual([
      ['a/stored.md', 0, text.length],
      ['b.md', 8, text.length],
    ]);
    for (const entry of zip.entries) expect(new TextDecoder().decode(zip.read(entry))).toBe(text);
  });

  it('reads names that are not flagged UTF-8 as Latin-1, and backslashes as separators', () => {
    const bytes = zipSync({ 'dir\\caf?.md': strToU8('x') });
    // Old tools write names in a code page without the UTF-8 flag: put é (0xE9 in Latin-1) where ? is.
    const at = bytes.lastIndexOf(0x3f);
    bytes[at] = 0xe9;
    expect(openZip(bytes, 'x').entries.map((entry) => entry.path)).toEqual(['dir/caf\u00e9.md']);
  });

  it('refuses what it cannot read, with the reason', () => {
    const archive = zipSync({ 'a.md': strToU8('some text, some text, some text') });
    const broken = (bytes: Uint8Array) => refusal(() => {
      const zip = openZip(bytes, 'x');
      zip.read(zip.entries[0]);
    });
    expect(broken(strToU8('plain text, not an archive'))).toBe('x is not a zip archive');
    expect(broken(archive.subarray(0, 40))).toBe('x is not a readable zip archive: it has no central directory');
    expect(broken(patchDirectory(archive, 8, 2, 1))).toBe('x is not a readable zip archive: a.md is encrypted');
    expect(broken(patchDirectory(archive, 10, 2, 12))).toBe('x is not a readable zip archive: a.md uses compression method 12 (only stored and deflate are read)');
    expect(broken(patchDirectory(archive, 42, 4, 7))).toBe('x is not a readable zip archive: a.md has no local header');
    expect(broken(patchDirectory(archive, 20, 4, 100_000))).toBe('x is not a readable zip archive: a.md is cut short');
    const stored = zipSync({ 'a.md': [strToU8('stored'), { level: 0 }] } as never);
    expect(broken(patchDirectory(stored, 24, 4, 3))).toBe('x is not a readable zip archive: a.md is not the size it declares');
    const zip64 = archive.slice();
    new DataView(zip64.buffer).setUint16(zip64.length - 22 + 10, 0xffff, true);
    expect(broken(zip64)).toBe('x is not a readable zip archive: ZIP64 archives are not supported');
  });
});

describe('resolvePath', () => {
  it('applies . and .., starts from the root on /, decodes, and refuses paths that leave the archive', () => {
    expect(resolvePath('guides/advanced', '../setup.md')).toBe('guides/setup.md');
    expect(resolvePath('guides', './a%20b.md')).toBe('guides/a b.md');
    expect(resolvePath('guides', '/assets/x.png')).toBe('assets/x.png');
    expect(resolvePath('guides', './')).toBe('guides');
    expect(resolvePath('', '../outside.md')).toBeUndefined();
    expect(resolvePath('', '%E0%A4%A.md')).toBeUndefined();
  });
});

describe('layoutPages', () => {
  const none = () => '';
  const outline = (slots: readonly Slot[]): unknown[] =>
    slots.map((slot) => [slot.source ?? slot.folder ?? slot.titles[0], ...(slot.children.length > 0 ? [outline(slot.children)] : [])]);

  it('makes folders parent pages with their README (else index) as body, sorted by name, README and index first at the root', () => {
    const paths = ['z.md', 'index.md', 'README.md', 'b/index.md', 'b/c.md', 'a/README.md', 'a/index.md', 'a/img.png', 'img/only.png', 'n/10.md', 'n/9.md'];
    expect(outline(layoutPages(paths, none))).toEqual([['README.md'], ['index.md'], ['a/README.md', [['a/index.md']]], ['b/index.md', [['b/c.md']]], ['n', [['n/9.md'], ['n/10.md']]], ['z.md']]);
  });

  it('follows SUMMARY.md when there is one, each file taken once', () => {
    const summary = '* [One](one.md)\n  * [Again](one.md)\n* [Site](https://example.com)\n* Plain item\n## Group\n* [Two](dir/two.md)\n';
    const slots = layoutPages(['SUMMARY.md', 'one.md', 'dir/two.md', 'unlisted.md'], () => summary);
    expect(slots.map((slot) => [slot.type, slot.source, slot.titles[0], slot.children.map((child) => [child.type, child.source, child.titles[0]])])).toEqual([
      ['document', 'one.md', 'One', [['document', undefined, 'Again']]],
      ['link', undefined, 'Site', []],
      ['document', undefined, 'Plain item', []],
      ['group', undefined, 'Group', [['document', 'dir/two.md', 'Two']]],
    ]);
  });
});
