// iconv-lite, every encoding but UTF-8 and the native Unicode ones: loaded lazily, and adapted
// to the codec's Backend shape with workarounds for its bugs.

import type { Backend } from './codec.js';

export type Iconv = typeof import('iconv-lite');

let iconv: Iconv | undefined;

/**
 * Loads iconv-lite (once): a dynamic import that esbuild splits into its own chunk, so a plain
 * UTF-8 run never parses it. The CLI calls it, through `prepareEncoding`, before a command opens
 * a file; code that calls `codecFor` directly without it gets a synchronous fallback load.
 */
export async function loadEncodings(): Promise<Iconv> {
  if (!iconv) {
    const m = (await import('iconv-lite')) as Iconv & { default?: Iconv };
    iconv = m.default ?? m;
  }
  return iconv;
}

/**
 * iconv-lite, loaded now if nothing awaited `loadEncodings` (a direct caller, not the CLI).
 * node:module on demand: importing it at the top cost every start-up about 0.2 ms (measured).
 */
export function iconvSync(): Iconv {
  iconv ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('iconv-lite') as Iconv;
  return iconv;
}

/** iconv-lite's table of encodings: a codec by its own name, or an alias's target name. */
export function iconvTable(lib: Iconv): Record<string, unknown> {
  lib.encodingExists('utf8'); // fills lib.encodings
  return (lib as unknown as { encodings: Record<string, unknown> }).encodings;
}

/**
 * The text a decoder's `end()` gives. iconv-lite 0.7.3's CESU-8 decoder starts its `end()` from
 * the number 0 (`var res = 0`, pillarjs/iconv-lite#416): it returns 0 for a stream that ended
 * whole and "0\uFFFD" for one cut inside a character, so a "0" would be added after the last line.
 */
function endText(canonical: string, tail: unknown): string {
  if (typeof tail !== 'string') return '';
  return canonical === 'cesu8' && tail.startsWith('0') ? tail.slice(1) : tail;
}

/** The Backend of iconv-lite's codec `canonical` (its own name, aliases followed). */
export function iconvBackend(lib: Iconv, canonical: string): Backend {
  // The byte order mark is handled by openText; a U+FEFF after it is content, never stripped.
  const fresh = () => lib.getDecoder(canonical, { stripBOM: false }) as ReturnType<Iconv['getDecoder']> & { prevBytes?: number[] };
  return {
    decoder() {
      let d = fresh();
      let held: Buffer | undefined;
      return {
        write(b) {
          const input = held ? Buffer.concat([held, b]) : b;
          held = undefined;
          const text = d.write(input);
          // iconv-lite 0.7.3's double-byte decoder sizes its output by the bytes of one write, so
          // a character begun in an earlier write (a 4-byte GB18030 one, a Big5 plane-2 one)
          // overflows it and silently loses a code unit (pillarjs/iconv-lite#417). So the bytes it
          // holds of an unfinished character are taken back and given, with the next read, to a
          // fresh decoder: every write then starts at a character.
          if (d.prevBytes !== undefined && d.prevBytes.length > 0) {
            held = Buffer.from(d.prevBytes);
            d = fresh();
          }
          return text;
        },
        end() {
          const text = held ? d.write(held) : '';
          held = undefined;
          return text + endText(canonical, d.end());
        },
      };
    },
    encoder: () => lib.getEncoder(canonical, { addBOM: false }),
  };
}
