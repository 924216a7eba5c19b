import { expect, it } from 'vitest';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/**
 * Bodies the Markdown endpoints property found reading back as another tree once stored
 * (content/print-stability.ts): inserted as a page and posted as a comment, each is read as
 * format=markdown, written back as read, and read again the same; the footnote and link references stay
 * references instead of becoming definitions.
 */

/** A body as sent, and the Markdown it reads back as. */
const BODIES: [string, string][] = [
  // A footnote reference, then `:`, at a line's start: it read back as a footnote definition.
  ['[^a]:\n\n[r]: /u "t\n    [^a]:', '[^a]:\n\n\\[r]: /u "t\n[^a]\\:\n'],
  ['[^a]: [^a]\\:*', '[^a]: [^a]\\:\\*\n'],
  // A link reference, then `:`, at a paragraph's start: it read back as a link definition, its text gone.
  ['[a]\\: x\n\n[a]: /u', '[a]\\: x\n\n[a]: /u\n'],
  // A list after a list, holding a list holding an empty item: it read back as a thematic break.
  ['- x\n* - -', '- x\n\n* - *\n'],
];

httpSuite('Markdown that reads back as it was stored', (h) => {
  const a = authoring(h);

  it('a page body reads back, and writes back as read, the same', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    for (const [body, read] of BODIES) {
      const made = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_page', title: 'Page', document: md(body) }]);
      const page = made.changes[0].page.id as string;
      const markdown = async () => (await a.page(space.id, cr.id, page, '?format=markdown')).markdown as string;
      expect(await markdown(), JSON.stringify(body)).toBe(read);
      await a.batchWithChanges(space.id, cr.id, [{ operation: 'update_page', page, document: md(read) }]);
      expect(await markdown(), JSON.stringify(body)).toBe(read);
    }
  });

  it('a comment reads back, and puts back as read, the same', async () => {
    const space = await a.space();
    const comments = `/v1/spaces/${space.id}/comments`;
    for (const [body, read] of BODIES) {
      const posted = await h().owner.post(comments, { body: { markdown: body } });
      expect(posted.status, posted.text).toBe(200);
      const at = `${comments}/${posted.body.id}`;
      expect((await h().owner.get(at)).body.body.markdown, JSON.stringify(body)).toBe(read);
      const put = await h().owner.put(at, { body: { markdown: read } });
      expect(put.status, put.text).toBe(200);
      expect((await h().owner.get(at)).body.body.markdown, JSON.stringify(body)).toBe(read);
    }
  });
});
