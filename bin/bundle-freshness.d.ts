export declare const SOURCE_DIRS: readonly string[];
export declare function bundleIsFresh(root: string): boolean;
