/**
 * Types of the `virtual:tern-catalogues` module (the `tern-catalogues` plugin
 * of vite.config.ts): per locale, loaders of its flat catalogues.
 */
declare module 'virtual:tern-catalogues' {
  const catalogues: Record<
    string,
    Record<'app' | 'admin', () => Promise<{ default: Record<string, string> }>>
  >
  export default catalogues
}
