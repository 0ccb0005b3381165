/** An exported name of a toolkit entry, and the first sentence of its docstring. */
export type ToolkitExport = { name: string; kind: 'function' | 'class' | 'type' | 'value'; summary: string };
/** The toolkit's entries in package order, each with its exported names. */
export function toolkitExports(): { entry: string; exports: ToolkitExport[] }[];
