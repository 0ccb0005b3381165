/** The export condition that points the workspace's packages at their sources. */
export declare const SOURCE_CONDITION: 'agentready-source';
/** Adds the source condition to every later import of this process; calling it again does nothing. */
export declare function resolveWorkspaceSources(): void;
