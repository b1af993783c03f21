// Types of scripts/build-wasm.mjs for the test that checks the committed kernel matches its source.
export function compileWat(): Promise<string>;
export function render(base64: string): string;
