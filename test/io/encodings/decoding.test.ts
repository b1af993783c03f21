// Choosing the decoding from a file's first bytes and --encoding: which byte order mark wins, and
// which names are known (none found on Object.prototype).
import { beforeAll, describe, expect, it } from 'vitest';
import type { LinewiseError } from '../../../src/core/errors.js';
import { codecFor } from '../../../src/io/encodings/decoding.js';
import { chooseDecoding } from '../../../src/io/encodings/sniff.js';
import { loadEncodings } from '../../../src/io/encodings/iconv.js';
import { prepareEncoding } from '../../../src/io/encodings/names.js';
import { errorOf } from '../../helpers.js';

beforeAll(() => loadEncodings());

/** The codec's name and the mark's length chosen for `head` under `name`, or the error's code. */
function chosen(head: number[], name?: string): string {
  try {
    const d = chooseDecoding(Buffer.from(head), name);
    return `${d.codec?.name ?? 'bytes'} ${d.bomLength}`;
  } catch (e) {
    return (e as LinewiseError).code;
  }
}

/** Names Object.prototype has (lowercase, as canonical names are, and as typed). */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'tostring', '__proto__', 'proto', 'hasOwnProperty', 'hasownproperty', 'valueOf', 'valueof', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupSetter__'];

describe('chooseDecoding: the byte order mark', () => {
  it('without --encoding: UTF-32 marks win over the UTF-16LE mark they begin with', () => {
    expect(chosen([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0])).toBe('utf-32le 4');
    expect(chosen([0xff, 0xfe, 0, 0])).toBe('utf-32le 4'); // the mark alone: an empty UTF-32LE file
    expect(chosen([0, 0, 0xfe, 0xff, 0, 0, 0, 0x61])).toBe('utf-32be 4');
    expect(chosen([0xff, 0xfe, 0x61, 0])).toBe('utf-16le 2');
    expect(chosen([0xff, 0xfe, 0])).toBe('utf-16le 2'); // 3 bytes: too short for a UTF-32 mark
    expect(chosen([0xfe, 0xff, 0, 0x61])).toBe('utf-16be 2');
    expect(chosen([0xef, 0xbb, 0xbf, 0x61])).toBe('bytes 3');
    expect(chosen([0, 0, 0, 0x61])).toBe('bytes 0');
  });

  it('--encoding naming an encoding whose own mark begins the file reads it so (UTF-16LE text starting with U+0000)', () => {
    const head = [0xff, 0xfe, 0, 0];
    for (const name of ['utf-16le', 'UTF16LE', 'ucs-2', 'utf-16']) expect(chosen(head, name), name).toBe('utf-16le 2');
    for (const name of ['utf-32le', 'utf-32', 'ucs-4', 'UCS4LE']) expect(chosen(head, name), name).toBe('utf-32le 4');
    expect(chosen([0, 0, 0xfe, 0xff], 'utf-32')).toBe('utf-32be 4');
  });

  it('a UTF-32 mark that contradicts --encoding is refused (never read, or written, as something else)', () => {
    for (const name of ['latin1', 'utf-8', 'utf-16be', 'shift_jis']) {
      expect(chosen([0xff, 0xfe, 0, 0], name), name).toBe('encoding-mismatch');
      expect(chosen([0, 0, 0xfe, 0xff], name), name).toBe('encoding-mismatch');
    }
    expect(errorOf(() => chooseDecoding(Buffer.from([0xff, 0xfe, 0, 0]), 'latin1'))).toBe(
      'encoding-mismatch: the file starts with a UTF-32LE byte order mark, not latin1: drop --encoding, or use --encoding utf-32le',
    );
    expect(chosen([0xff, 0xfe, 0x61, 0], 'utf-32le')).toBe('encoding-mismatch');
    expect(chosen([0x61, 0, 0, 0], 'utf-32')).toBe('encoding');
  });
});

describe('names that are properties of Object.prototype', () => {
  it('are unknown encodings everywhere a name is looked up', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(chosen([0x61, 0x0a], name), name).toBe('unknown-encoding');
      expect(chosen([0xff, 0xfe, 0x61, 0], name), name).toBe('unknown-encoding');
      expect(errorOf(() => codecFor(name)), name).toBe(`unknown-encoding: unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts`);
      await expect(prepareEncoding(name), name).rejects.toMatchObject({ code: 'unknown-encoding', exitCode: 2 });
    }
  });
});
