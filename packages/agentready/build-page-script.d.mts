/** Where the built page script is written. */
export declare const PAGE_SCRIPT: string;
/** Builds the page script; resolves when dist/browser/agentready-webmcp.js is written. */
export declare function buildPageScript(): Promise<void>;
