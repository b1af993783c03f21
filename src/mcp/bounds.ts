// The MCP server's bounds, in one place: the largest request it reads, the most one answer
// holds whatever its arguments, how many searches run beside the calls. The defaults a call gets
// when it names none are the surface's (SERVER_BOUNDS, applied by schema.ts's checkArgs).

import { messageLine } from '../format/printing.js';
import { RECEIPT_FOOTER_START, type ReceiptBudget } from '../format/receipt.js';
import { OPTION_INPUT_MAX } from '../io/option-input.js';
import { SERVER_BOUNDS } from '../surface/options.js';
import type { ToolOutput, ToolResult } from './result.js';

/**
 * The longest message (one line of JSON) the server reads: four times the CLI's cap on an option
 * input (64 MiB for --from, --rows, --expect), so a call carrying an edit the CLI would take, its
 * expect beside it and JSON's escapes, is served. A longer one is refused and skipped unread.
 */
export const MAX_MESSAGE_BYTES = 4 * OPTION_INPUT_MAX;

/**
 * The most bytes of rows one read or search answers (max_bytes 0, or more than this): an
 * answer's text and its JSON records both hold the rows, so the answer stays well inside
 * MAX_ANSWER_BYTES, and the server's memory per call stays a few times this.
 */
export const HARD_MAX_BYTES = 1 << 20;

/**
 * The most one answer may take, serialized: under the 10 MiB a stock SDK client reads at most
 * (its ReadBuffer), whatever the call (a dry run's diff, thousands of error lines).
 */
export const MAX_ANSWER_BYTES = 8 << 20;

/**
 * Searches that run at once, each on a thread of its own beside the calls of the main thread. A
 * search past them waits for one to finish (or be cut by its deadline).
 */
export const SEARCH_THREADS = 3;

/**
 * The JavaScript heap a search thread may grow to, MiB: past it the thread dies, its search
 * fails with `search-failed` and the server goes on (a search's memory is bounded by design; this
 * holds for a path the design missed). File contents kept by the cache are Buffers, outside it.
 */
export const searchHeapMiB = (cacheMib: number) => Math.max(512, 256 + 2 * cacheMib);

/** How long a cancelled search may take to stop by itself before its thread is ended. */
export const CANCEL_GRACE_MS = 2000;

/** The cap on the rows of a read or search: `max_bytes` as given, the default, or the hard cap. */
export function rowBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return SERVER_BOUNDS.maxBytes;
  return maxBytes === 0 || maxBytes > HARD_MAX_BYTES ? HARD_MAX_BYTES : maxBytes;
}

const size = (x: unknown) => Buffer.byteLength(JSON.stringify(x));

/** The tools whose rows max_bytes caps: an answer too large for MAX_ANSWER_BYTES is asked again with less. */
const CAPPED = new Set(['read_lines', 'page', 'grep', 'find_files']);

/** The least max_bytes an answer is asked again with. */
const MIN_ROW_BYTES = 4 << 10;

/**
 * Runs a call (`run`: `fresh` when asked again, with output of its own) and bounds its answer.
 * `args` are checked already, by the library's names (schema.ts's checkArgs): max_bytes is `maxBytes`.
 * Rows are capped by bytes, but each row also costs a JSON record (about 100 to 200 bytes, more
 * than a short line itself): when the answer passes MAX_ANSWER_BYTES, a read or search is asked
 * again with max_bytes scaled down to fit, so that its footer names the call that goes on from
 * where it stopped. Anything else still too large is cut (boundedAnswer).
 */
export async function withinAnswer(tool: string, args: Record<string, unknown>, run: (args: Record<string, unknown>, fresh: boolean) => Promise<ToolResult>): Promise<ToolResult> {
  let r = await run(args, false);
  let n = size(r);
  if (n > MAX_ANSWER_BYTES && CAPPED.has(tool) && r.isError !== true) {
    let cap = rowBytes(typeof args.maxBytes === 'number' ? args.maxBytes : undefined);
    for (let tries = 0; tries < 3 && n > MAX_ANSWER_BYTES && cap > MIN_ROW_BYTES; tries++) {
      cap = Math.max(MIN_ROW_BYTES, Math.floor((cap * MAX_ANSWER_BYTES * 0.8) / n));
      try {
        r = await run({ ...args, maxBytes: cap }, true);
      } catch {
        break; // the first answer, cut, rather than none
      }
      n = size(r);
    }
  }
  return boundedAnswer(r, n);
}

/**
 * The answer as sent, cut to MAX_ANSWER_BYTES when it is larger: JSON records kept while they
 * fit in half of it, the text blocks in the rest, and a message saying so. Reads and searches
 * never come near it (HARD_MAX_BYTES); it holds for every other answer too.
 */
export function boundedAnswer(r: ToolResult, total = size(r)): ToolResult {
  if (total <= MAX_ANSWER_BYTES) return r;
  const room = MAX_ANSWER_BYTES - (64 << 10);
  const records: unknown[] = [];
  let used = 0;
  for (const rec of r.structuredContent.records) {
    const n = size(rec) + 1;
    if (used + n > room / 2) break;
    records.push(rec);
    used += n;
  }
  const note = messageLine(
    `the answer was cut: it came to ${(total / 2 ** 20).toFixed(1)} MiB, more than the ${MAX_ANSWER_BYTES >> 20} MiB an answer holds (${records.length} of ${r.structuredContent.records.length} records kept); ask for less: a smaller max_bytes or max_rows, fewer paths, a glob`,
  );
  const content: ToolResult['content'] = [];
  for (const block of r.content) {
    const left = room - used;
    if (left <= 0) break;
    const text = cut(block.text, left);
    content.push({ type: 'text', text });
    used += size(text);
  }
  content.push({ type: 'text', text: note });
  return { ...r, content, structuredContent: { ...r.structuredContent, records } };
}

/** The longest start of `text` whose JSON takes at most `bytes`, never ending inside a surrogate pair. */
function cut(text: string, bytes: number): string {
  if (size(text) <= bytes) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(text.slice(0, mid)) <= bytes) lo = mid;
    else hi = mid - 1;
  }
  const code = text.charCodeAt(lo - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? lo - 1 : lo);
}

/**
 * A bound for the receipts of one writer's answer: as many bytes of rows as a read gets by
 * default. A patch of 500 files answered 1.6 MB of rows, which no client asked to read.
 */
export function receiptBudget(): ReceiptBudget {
  return { left: SERVER_BOUNDS.maxBytes, rowsLeftOut: 0, filesLeftOut: 0 };
}

/**
 * Ends a writer's answer whose receipts were cut with a line saying what was left out. The line
 * opens as a receipt's footer does, so replace_rows skips it when the answer is sent back as rows.
 */
export function endCutReceipts(out: ToolOutput, b: ReceiptBudget, files: number): void {
  if (b.rowsLeftOut === 0 && b.filesLeftOut === 0) return;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const none = b.filesLeftOut === 0 ? '' : ` (all those of ${plural(b.filesLeftOut, 'file', 'files')})`;
  out.text.out.text(
    `\n${RECEIPT_FOOTER_START}${plural(files, 'file', 'files')}; the receipts stop at ${SERVER_BOUNDS.maxBytes} bytes: ${plural(b.rowsLeftOut, 'more row is', 'more rows are')} not shown${none}. Call read_lines to see them.]\n`,
  );
}
