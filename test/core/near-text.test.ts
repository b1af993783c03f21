// Where a text not found nearly is: but for whitespace, case, or (text with U+FFFD) bytes that are
// not UTF-8, which is how a line in another encoding reads when it is shown as UTF-8.
import { describe, expect, it } from 'vitest';
import { NearFinder } from '../../src/core/near-text.js';

function near(text: string, lines: Buffer[]) {
  const f = new NearFinder(text);
  lines.forEach((l, i) => f.line(i + 1, l));
  return f.result().map((m) => [m.kind, m.from, m.to]);
}

describe('NearFinder', () => {
  const latin1 = [Buffer.from('one\n'), Buffer.from('caf\xe9 au lait\r\n', 'latin1'), Buffer.from('three\n')];

  it('text holding U+FFFD where a line has a byte that is not UTF-8: an encoding matter, not whitespace', () => {
    expect(near('caf\uFFFD au lait', latin1)).toEqual([['encoding', 2, 2]]);
    expect(near('one\ncaf\uFFFD au lait\n', latin1)).toEqual([['encoding', 1, 2]]);
    // other differences besides: the fold that finds it says which
    expect(near('caf\uFFFD  au lait', latin1)).toEqual([['whitespace', 2, 2]]);
    expect(near('CAF\uFFFD au lait', latin1)).toEqual([['case', 2, 2]]);
  });

  it('never calls a difference of encoding without U+FFFD in the text', () => {
    expect(near('café au lait', latin1)).toEqual([]);
    expect(near('one  ', latin1)).toEqual([['whitespace', 1, 1]]);
  });
});
