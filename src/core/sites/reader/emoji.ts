/** A page's emoji as readers see it: the characters, also when it is stored as code points in hex (`1f4d8`, `1f468-200d-1f469`). */
export function emojiCharacters(emoji: string): string {
  if (!/^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i.test(emoji)) return emoji;
  const points = emoji.split('-').map((hex) => parseInt(hex, 16));
  return points.every((point) => point <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}
