/** [start, end) byte range in the file a node was decoded from. */
export type Span = [start: number, end: number];
