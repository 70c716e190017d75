export declare const STAMP: string;
export declare function bundleIsCurrent(repoRoot: string, dir: string): boolean;
export declare function canRunSources(version?: string): boolean;
