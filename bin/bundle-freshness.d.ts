export declare const SOURCE_DIRS: readonly string[];
/** Whether each of `entries` (under dist/, default cli/main.js) exists and is newer than every source file. */
export declare function bundleIsFresh(root: string, entries?: string | readonly string[]): boolean;
