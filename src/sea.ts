// Entry of the standalone binary (Node single-executable application): run the CLI, set the status.
import { tuneHeap } from './cli/heap.js';
import { main } from './cli/main.js';

// A SEA's process.argv is [binary, binary, ...args], like `node script ...args`.
tuneHeap(process.argv.slice(2));
void main(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
});
