// What the surface declaration is made of: commands, their arguments and options, and the MCP
// tools that offer them. One entry per option; the CLI, the MCP schemas, the library's checks,
// --help and docs/COMMANDS.md are derived from these (see ../surface/README in ARCHITECTURE.md).

/** How a value is typed: the JSON Schema type, the commander parser and the library's check follow. */
export type Kind = 'boolean' | 'integer' | 'string' | 'strings' | 'choice';

/** One option of a command. */
export interface OptionSpec {
  /** the library's name, and the key of the validated options the engine receives */
  readonly key: string;
  readonly kind: Kind;
  /**
   * The command line's flags in commander's syntax (`-m, --max-count <num>`, `--rows [file]`);
   * undefined: not on the command line. A `--no-x` flag sets this option to true.
   */
  readonly cli?: string;
  /** the MCP argument's name (snake_case); undefined: no tool takes it */
  readonly mcp?: string;
  /** integers: the least and the greatest value */
  readonly min?: number;
  readonly max?: number;
  /** choices: the values allowed */
  readonly choices?: readonly string[];
  /** the value when not given, as the engine sees it (and --help and the schemas show) */
  readonly default?: boolean | number | string;
  /**
   * One line of help. `{key}` names another option in the reader's words: `--expect` on the
   * command line, `expect` to an MCP client, `expect` in the library.
   */
  readonly help: string;
  /** help for the MCP argument when the command line's says something tools do not do */
  readonly mcpHelp?: string;
  /** the option takes the same value as another (`--colour` for `--color`): listed, not validated apart */
  readonly alias?: string;
  /** accepted for habits and ignored (`-n`, `-E`): on the command line only */
  readonly habit?: boolean;
}

/** A positional argument of a command (the CLI's; the library's first parameters; a tool's arguments). */
export interface ArgSpec {
  readonly key: string;
  /** as --help shows it: `<file>`, `[end]`, `[paths...]` */
  readonly cli: string;
  readonly kind: 'string' | 'integer' | 'strings';
  readonly mcp?: string;
  readonly min?: number;
  readonly max?: number;
  readonly help: string;
  readonly mcpHelp?: string;
}

/** A command of the command line, with what it takes. */
export interface CommandSpec {
  readonly name: string;
  /** one line, for the command list */
  readonly summary: string;
  readonly description: string;
  readonly args: readonly ArgSpec[];
  readonly options: readonly OptionSpec[];
  /**
   * option keys that cannot be given together: each pair refused, on every surface; a third
   * element is the message (with `{key}` names, rendered in each surface's words), else
   * commander's on the command line and "give A or B, not both" elsewhere
   */
  readonly conflicts: readonly (readonly [string, readonly string[], string?])[];
  /** pairs of flags where the last one given wins (grep's -H and -h, as in grep and rg) */
  readonly lastWins?: readonly (readonly [string, string])[];
}

/** An MCP tool: a view of one command, naming the arguments it offers. */
export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  /** the command whose options it offers */
  readonly command: string;
  readonly description: string;
  /** the command's arguments and option keys it takes, in order; `!` after a key: required */
  readonly takes: readonly string[];
  /** arguments of the tool alone (the edits of a batch, what to list): `schema` when not a plain kind */
  readonly own?: readonly (OptionSpec & { readonly required?: boolean; readonly schema?: Readonly<Record<string, unknown>> })[];
  /** a tool that writes: not listed under --read-only */
  readonly writes: boolean;
  /** defaults the server applies that the command line does not (bounds on an answer) */
  readonly defaults?: Readonly<Record<string, number>>;
}
