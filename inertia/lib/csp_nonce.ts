/**
 * The Content-Security-Policy nonce that styles and scripts created at run
 * time need (antd's CSS-in-JS, Inertia's progress bar). In the browser it is
 * read from `<meta property="csp-nonce">` (the `nonce` property: browsers
 * hide the attribute from the DOM). While rendering on the server it is the
 * placeholder the server swaps for the request's nonce
 * (app/services/security/content_security_policy.ts).
 */
export function cspNonce(): string | undefined {
  if (typeof document !== 'undefined') {
    return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined
  }
  const placeholder = (globalThis as Record<symbol, unknown>)[
    Symbol.for('tern.cspNoncePlaceholder')
  ]
  return typeof placeholder === 'string' ? placeholder : undefined
}

/** Adds `nonce="…"` to every <style> tag of server-extracted CSS that has none. */
export function withStyleNonce(html: string, nonce: string | undefined): string {
  if (!nonce) return html
  return html.replace(/<style\b([^>]*)>/g, (tag, attributes: string) =>
    /\snonce=/.test(attributes) ? tag : `<style${attributes} nonce="${nonce}">`
  )
}

/**
 * Gives the page's nonce to every <style> element that scripts insert
 * without one. Only scripts carrying the nonce run, so what they insert is
 * trusted; markup injected into the HTML never passes through here. Needed
 * for libraries with no nonce option (rc-util measures scrollbars with a
 * temporary <style>; Refine bundles its own copy of antd's icons).
 */
export function nonceScriptStyles() {
  const nonce = cspNonce()
  if (!nonce || typeof Node === 'undefined') return
  for (const method of ['appendChild', 'insertBefore'] as const) {
    const original = Node.prototype[method] as (...args: unknown[]) => unknown
    Object.defineProperty(Node.prototype, method, {
      configurable: true,
      writable: true,
      value(this: Node, node: unknown, ...rest: unknown[]) {
        if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce
        return original.call(this, node, ...rest)
      },
    })
  }
}
