// UTF-16 in both byte orders, decoded and encoded by Node itself: a file announced by its byte
// order mark opens synchronously, without a flag and without loading iconv-lite.

import type { Backend } from './codec.js';

/** UTF-16 with Node's own decoder: no iconv-lite needed. Byte-swapped copies for big-endian. */
export function utf16(bigEndian: boolean): Backend {
  return {
    decoder() {
      let odd: number | undefined; // an odd byte waiting for its partner from the next read
      return {
        write(b) {
          let data = b;
          if (odd !== undefined) {
            data = Buffer.concat([Buffer.of(odd), b]);
            odd = undefined;
          }
          if (data.length % 2 === 1) {
            odd = data[data.length - 1];
            data = data.subarray(0, data.length - 1);
          }
          if (bigEndian) data = Buffer.from(data).swap16(); // a copy: never swap the reader's buffer
          return data.toString('utf16le');
        },
        end() {
          // An odd last byte is no character: shown as U+FFFD (and reported by invalidAt).
          const had = odd !== undefined;
          odd = undefined;
          return had ? '\uFFFD' : '';
        },
      };
    },
    encoder() {
      return {
        write(s) {
          const b = Buffer.from(s, 'utf16le');
          return bigEndian ? b.swap16() : b;
        },
        end: () => undefined,
      };
    },
  };
}
