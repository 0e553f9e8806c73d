/** What `npm test` runs vitest with: inside a tmpfs /tmp of its own where the machine allows it (suite-tmpfs.mjs). */
export interface SuiteRun {
  argv: string[];
  inMemory: boolean;
  /** Why the run stays on the machine's /tmp, when that is worth saying. */
  why?: string;
}
/** `root`: the checkout (default: the real path of the working directory). */
export function inSuiteTmpfs(argv: string[], root?: string): SuiteRun;
