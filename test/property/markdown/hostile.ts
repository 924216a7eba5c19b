import fc from 'fast-check';

/**
 * Generated hostile Markdown: lines opening with any mix of container markers and indentation, inlines of
 * every delimiter the parsers pair (emphasis, strikethrough, brackets, code spans, escapes, emoji beside
 * them), fences, HTML blocks, tables and headings, and floods of one construct (`>`, `- `, `[`, `*a`, `|`, backticks,
 * link definitions) long enough to find what grows faster than the text. `flood` sets the longest flood.
 */

const PREFIXES = ['>', '> ', '- ', '* ', '+ ', '1. ', '10) ', '2. ', '[^a]: ', ' ', '  ', '    ', '\t', '-', '>\t'];
const INLINES = ['*', '**', '***', '_', '__', '~', '~~', '[', ']', '![', '](u)', '](#a "t")', '(', ')', '`', '``', '\\', '\\*', 'a', 'b c', ' ', '😀', 'x_y', '<b>', '</b>', '&amp;', '|', '#', 'https://x.test', '[r]', '[^a]', ':'];
const LINES = [
  '',
  '```',
  '~~~',
  '````js',
  '| a | b |',
  '|---|---|',
  '| - | :-: |',
  '# h',
  '## [h',
  '---',
  '***',
  '<div>',
  '</div>',
  '<!--',
  '-->',
  '<pre>',
  '</pre>',
  '<span>',
  '<?x',
  '?>',
  '<!X',
  '<![CDATA[',
  ']]>',
  '[r]: /u "t',
  '[r]: /u',
  '    code',
  '===',
];

/** Floods: a piece repeated many times, on one line or as lines. */
const FLOODS = ['>', '> ', '- ', '1. ', '[', '![', '*a', '_a', '~a', '*', '_', '`', '|', '| a ', '[x][r]', '&amp;', '<', '~'];
const LINE_FLOODS = ['[r]: /u', '| a | b |', '# a', '> x', '- x', '  - x', '```'];

/** One line: markers, then inline pieces. */
const line = fc
  .tuple(fc.array(fc.constantFrom(...PREFIXES), { maxLength: 6 }), fc.array(fc.constantFrom(...INLINES), { maxLength: 12 }))
  .map(([prefix, inline]) => prefix.join('') + inline.join(''));

/** A flood on one line, or a flood of lines. */
const flood = (longest: number) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...FLOODS), fc.integer({ min: 1, max: longest }), fc.constantFrom('', ' x', 'a', '\n')).map(([piece, times, end]) => piece.repeat(times) + end),
    fc.tuple(fc.constantFrom(...LINE_FLOODS), fc.integer({ min: 1, max: Math.ceil(longest / 8) })).map(([piece, times]) => Array(times).fill(piece).join('\n')),
    fc.integer({ min: 1, max: Math.ceil(longest / 4) }).map((width) => `|${' a |'.repeat(width)}\n|${'-|'.repeat(width)}\n|${' b |'.repeat(width)}`),
  );

/** A body of hostile Markdown (see the module comment). */
export const hostileMarkdown = (longest = 300) =>
  fc.array(fc.oneof({ weight: 6, arbitrary: line }, { weight: 2, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: flood(longest) }), { maxLength: 14 }).map((lines) => lines.join('\n'));
