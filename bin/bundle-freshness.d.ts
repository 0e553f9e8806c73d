export declare const SOURCE_DIRS: readonly string[];
export declare function bundleIsFresh(root: string, entry?: string): boolean;
