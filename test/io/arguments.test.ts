// exactArguments: arguments Node decoded lossily are taken back from the kernel's command line,
// and refused when that cannot be done exactly.

import { describe, expect, it } from 'vitest';
import { pathToBytes } from '../../src/core/path-names.js';
import { LinewiseError } from '../../src/core/errors.js';
import { exactArguments } from '../../src/io/arguments.js';

const cmdline = (...args: Buffer[]) => () => Buffer.concat(args.flatMap((a) => [a, Buffer.of(0)]));
const raw = (s: string) => Buffer.from(s, 'latin1');

describe('exactArguments', () => {
  it('reads nothing when no argument holds U+FFFD', () => {
    expect(exactArguments(['readlines', 'a', '1'], () => { throw new Error('read'); })).toEqual(['readlines', 'a', '1']);
  });

  it('takes each lossy argument from the command line, by position from the end', () => {
    const given = ['replace', 'x\uFFFD', '1'];
    const got = exactArguments(given, cmdline(raw('node'), raw('--stack-size=99'), raw('/bin/linewise.js'), raw('replace'), raw('x\xff'), raw('1')));
    expect(got[0]).toBe('replace');
    expect(pathToBytes(got[1]!)).toEqual(raw('x\xff'));
    expect(got[2]).toBe('1');
  });

  it('keeps an argument that really is U+FFFD (valid UTF-8) as it is', () => {
    const given = ['readlines', 'x\uFFFD'];
    expect(exactArguments(given, cmdline(raw('node'), raw('s'), raw('readlines'), Buffer.from('x\uFFFD')))).toEqual(given);
  });

  it('refuses when the command line is missing or does not match the arguments position by position', () => {
    const given = ['replace', 'x\uFFFD', '1'];
    for (const line of [() => undefined, cmdline(raw('replace'), raw('y\xff'), raw('1')), cmdline(raw('x\xff'), raw('1'))]) {
      let error: unknown;
      try {
        exactArguments(given, line);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LinewiseError);
      expect((error as LinewiseError).exitCode).toBe(2);
      expect((error as LinewiseError).message).toMatch(/^argument 2 .* holds U\+FFFD/);
    }
  });
});
