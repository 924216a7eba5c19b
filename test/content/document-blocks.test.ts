import { describe, expect, it } from 'vitest';
import { nodePreviewJob } from '../../src/core/comments/node-preview.js';
import { markdownToDocument } from '../../src/core/content/document.js';

/** The keys of GitBook's blocks in the JSON document name nodes as any other key does, inside an expandable's fragments too. */

const BODY = '<details>\n\n<summary>More</summary>\n\nHidden **text**.\n\n</details>\n\n{% hint style="info" %}\nIn a hint.\n{% endhint %}\n';

describe("GitBook blocks' keys in the JSON document", () => {
  it('lets a comment name a node inside an expandable or a hint, with its preview', () => {
    const [expandable, hint] = markdownToDocument(BODY).nodes as any[];
    const [title, body] = expandable.fragments;
    const preview = (node: string) => nodePreviewJob.run({ markdown: BODY, node });
    expect(preview(expandable.key)).toBe('More Hidden text.');
    expect(preview(title.nodes[0].key)).toBe('More');
    expect(preview(body.nodes[0].key)).toBe('Hidden text.');
    expect(preview(hint.nodes[0].key)).toBe('In a hint.');
  });
});
