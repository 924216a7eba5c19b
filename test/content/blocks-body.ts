/** A body with every one of GitBook's blocks, in the canonical spelling, for the tests of each reader of them. */

export const BLOCKS_BODY = [
  '{% hint style="warning" %}\nCareful **now**.\n{% endhint %}',
  '{% tabs %}\n{% tab title="macOS" %}\n{% hint style="info" %}\nIn a tab.\n{% endhint %}\n{% endtab %}\n\n{% tab title="Linux" %}\n- a\n- b\n{% endtab %}\n{% endtabs %}',
  '{% code title="config.toml" overflow="wrap" lineNumbers="true" %}\n```toml\n[server]\nport = 8080\n```\n{% endcode %}',
  '<details>\n\n<summary>More</summary>\n\nHidden\n\n</details>',
  '> [!WARNING]\n> Mind it.',
  '{% embed url="https://example.com/video" %}',
  '{% file src="https://example.com/a.pdf" %}\nThe caption\n{% endfile %}',
].join('\n\n');
