/** The ODOL codec and its model-level edits. */
export { odolCodec, type OdolDocument } from './codec.ts';
export { setResolution, setNamedProperty, removeNamedProperty, replacePaths, setProxy } from './edits.ts';
