/**
 * What the `object.entries` package gives node-polyglot (react-admin's translations) in every
 * browser this app is built for: the native Object.entries (ES2017). The build puts this module in
 * the package's place (vite.config.ts), which leaves out its polyfill machinery (get-intrinsic,
 * call-bind, define-properties, object-keys…: ~6 KB gzip in the entry chunk), only ever used by
 * browsers without Object.entries. node-polyglot only calls it: entries(object).
 */
const entries: typeof Object.entries = Object.entries;
export default entries;
