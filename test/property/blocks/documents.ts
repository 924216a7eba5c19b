import fc from 'fast-check';

/**
 * Generated bodies of GitBook's blocks, nested a few deep, around Markdown that could be mistaken for them:
 * fences holding tags, text that starts with `{%` escaped, quotes, lists and headings. `wellFormed` makes only
 * blocks that close; `anyBlocks` adds stray, unclosed and malformed tags.
 */

const word = fc.constantFrom('alpha', 'Beta', 'gamma_delta', 'épée', '42', 'x*y', 'a "quote"', 'naïve');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
const url = fc.constantFrom('https://example.com/video', '/pages/p1', '/files/f1', 'https://example.com/a?b=1&c=<2>', 'javascript:alert(1)');
const attribute = fc.constantFrom('a "title"', '<b>bold</b>', 'Tab & co', 'ok');

const markdown: fc.Arbitrary<string> = fc.oneof(
  words,
  words.map((text) => `## ${text}`),
  words.map((text) => `- ${text}\n- **${text}**`),
  words.map((text) => `> ${text}`),
  words.map((text) => `\`\`\`js\n{% hint %}\n${text}\n{% endhint %}\n\`\`\``),
  words.map((text) => `\\{% hint %} ${text}`),
  fc.tuple(words, url).map(([text, href]) => `[${text}](${href})`),
  words.map((text) => `| a | b |\n| --- | --- |\n| ${text} | 1 |`),
);

/** Blocks that close, nested up to `depth`. */
function blocks(depth: number): fc.Arbitrary<string> {
  const inner: fc.Arbitrary<string> = depth === 0 ? markdown : fc.array(fc.oneof({ weight: 2, arbitrary: markdown }, { weight: 1, arbitrary: blocks(depth - 1) }), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('\n\n'));
  return fc.oneof(
    markdown,
    fc.tuple(fc.constantFrom('info', 'success', 'warning', 'danger'), inner).map(([style, body]) => `{% hint style="${style}" %}\n${body}\n{% endhint %}`),
    fc.array(fc.tuple(attribute, inner), { minLength: 1, maxLength: 3 }).map((tabs) => `{% tabs %}\n${tabs.map(([title, body]) => `{% tab title="${title.replaceAll('"', '&quot;')}" %}\n${body}\n{% endtab %}`).join('\n\n')}\n{% endtabs %}`),
    fc.tuple(attribute, fc.boolean(), fc.boolean(), words).map(([title, lines, wrap, code]) => `{% code title="${title.replaceAll('"', '&quot;')}"${wrap ? ' overflow="wrap"' : ''}${lines ? ' lineNumbers="true"' : ''} %}\n\`\`\`toml\n${code}\n\`\`\`\n{% endcode %}`),
    fc.tuple(words, inner).map(([summary, body]) => `<details>\n\n<summary>${summary}</summary>\n\n${body}\n\n</details>`),
    fc.tuple(fc.constantFrom('NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'), inner).map(([type, body]) => `> [!${type}]\n${body.split('\n').map((line) => `> ${line}`).join('\n')}`),
    url.map((href) => `{% embed url="${href}" %}`),
    fc.tuple(url, words).map(([href, title]) => `{% content-ref url="${href}" %}\n[${title}](${href})\n{% endcontent-ref %}`),
    fc.tuple(url, fc.option(words, { nil: undefined })).map(([href, caption]) => (caption === undefined ? `{% file src="${href}" %}` : `{% file src="${href}" %}\n${caption}\n{% endfile %}`)),
  );
}

/** Bodies of blocks that all close. */
export const wellFormed = fc.array(blocks(2), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('\n\n'));

/** Bodies with stray, unclosed and malformed tags among the blocks. */
export const anyBlocks = fc
  .array(fc.oneof({ weight: 3, arbitrary: blocks(2) }, { weight: 1, arbitrary: fc.constantFrom('{% endhint %}', '{% hint style="info" %}', '{% tab title="x" %}', '{% endtabs %}', '<details>', '</details>', '{% hint style="nope" %}', '{% code %}', '> [!NOTE]', '{% embed url="" %}') }), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join('\n'));
