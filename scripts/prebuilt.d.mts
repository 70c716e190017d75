export declare const STAMP: string;
export declare const MODULES: string;
export declare const STAMP_FORM: number;
export declare function wrapCommonJs(code: string): string;
export declare function bundleIsCurrent(repoRoot: string, dir: string): boolean;
export declare function canRunSources(version?: string): boolean;
