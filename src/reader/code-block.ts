import type { CodeOptions } from './blocks.js';
import { highlightCode } from './highlight.js';
import { escapeHtml } from './html.js';

/**
 * A fenced code block as the reader shows it: a bar with the block's title (from `{% code title %}`) and its
 * language, a copy button the reader's script reveals (without script it stays hidden: nothing to press that
 * does nothing), and the highlighted code, focusable so that a keyboard can scroll it, with line numbers or
 * wrapped lines when `{% code %}` asks for them.
 */

const OPEN_SPAN = /<span[^>]*>/y;
const CLOSE_SPAN = '</span>';

/**
 * Highlighted HTML cut into one `<span class="line">` per line. highlight.js emits only spans and escaped
 * text, and a span may run over several lines (a comment, a string): each line closes the spans still open
 * at its end and opens them again at the start of the next, so every line stands alone.
 */
export function numberedLines(highlighted: string): string {
  const open: string[] = [];
  let out = '<span class="line">';
  let at = 0;
  while (at < highlighted.length) {
    const char = highlighted[at];
    if (char === '\n') {
      out += `${CLOSE_SPAN.repeat(open.length)}</span>\n<span class="line">${open.join('')}`;
      at++;
    } else if (highlighted.startsWith(CLOSE_SPAN, at)) {
      open.pop();
      out += CLOSE_SPAN;
      at += CLOSE_SPAN.length;
    } else if (char === '<') {
      OPEN_SPAN.lastIndex = at;
      const tag = OPEN_SPAN.exec(highlighted)?.[0] ?? '<';
      if (tag !== '<') open.push(tag);
      out += tag;
      at += tag.length;
    } else {
      const next = highlighted.slice(at).search(/[<\n]/);
      const end = next < 0 ? highlighted.length : at + next;
      out += highlighted.slice(at, end);
      at = end;
    }
  }
  return `${out}${CLOSE_SPAN.repeat(open.length)}</span>`;
}

/**
 * A code block's HTML: `info` is the fence's info string, `options` those of a `{% code %}` around it, `region`
 * the attributes that make its <pre> a focusable, labelled region for its language.
 */
export function renderCode(content: string, info: string, options: CodeOptions | undefined, region: (language: string) => string): string {
  const language = info.trim().split(/\s+/)[0] ?? '';
  const code = content.endsWith('\n') ? content.slice(0, -1) : content;
  const highlighted = highlightCode(code, language);
  const title = options?.title;
  const bar = `<div class="code-bar">${title ? `<span class="code-title">${escapeHtml(title)}</span>` : ''}${language ? `<span class="code-language">${escapeHtml(language)}</span>` : ''}<button type="button" class="copy" hidden>Copy</button></div>`;
  const flags = `${options?.lineNumbers ? ' data-line-numbers' : ''}${options?.wrap ? ' data-wrap' : ''}`;
  const body = options?.lineNumbers ? numberedLines(highlighted) : highlighted;
  return `<div class="code-block"${flags}>${bar}<pre class="code"${region(language)}><code class="hljs${language ? ` language-${escapeHtml(language)}` : ''}">${body}</code></pre></div>\n`;
}
