/**
 * A minimal browser for the social-login flows over real HTTP: a cookie
 * jar per origin and manual redirect following, so a test can walk
 * Tern → provider login form → Tern callback and look at each answer.
 *
 * ```ts
 * const browser = new OauthBrowser()
 * const form = await browser.follow(`${ternUrl}/api/oauth/auth/oidc`)   // the provider's login page
 * const callback = await browser.submitLogin(form, 'alice')            // Tern's callback answer (302)
 * callback.headers.get('location')                                      // "/", "/account", "/error?..."
 * ```
 */

/** One page or redirect the browser reached. */
export interface Visited {
  url: URL
  status: number
  headers: Headers
  body: string
}

/** See the module comment. */
export class OauthBrowser {
  /** origin → cookie name → value. */
  readonly cookies = new Map<string, Map<string, string>>()

  /** Stores a cookie for `origin` (e.g. Tern's `access_token`). */
  setCookie(origin: string, name: string, value: string) {
    const jar = this.cookies.get(origin) ?? new Map<string, string>()
    jar.set(name, value)
    this.cookies.set(origin, jar)
  }

  /** The cookie `name` of `origin`, or undefined. */
  cookie(origin: string, name: string): string | undefined {
    return this.cookies.get(origin)?.get(name)
  }

  #absorb(url: URL, headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim())
      const at = pair.indexOf('=')
      const name = pair.slice(0, at)
      const value = pair.slice(at + 1)
      const expired = attributes.some((attribute) => {
        const [key, val] = attribute.split('=')
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0
        if (key.toLowerCase() === 'expires') return new Date(val).getTime() <= Date.now()
        return false
      })
      if (expired || value === '') this.cookies.get(url.origin)?.delete(name)
      else this.setCookie(url.origin, name, value)
    }
  }

  /** One request, no redirect followed; cookies are sent and stored. */
  async request(
    url: string | URL,
    init: { method?: string; form?: Record<string, string> } = {}
  ): Promise<Visited> {
    const target = new URL(url)
    const jar = this.cookies.get(target.origin)
    const headers: Record<string, string> = {}
    if (jar?.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    const response = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: 'manual',
    })
    this.#absorb(target, response.headers)
    return {
      url: target,
      status: response.status,
      headers: response.headers,
      body: await response.text(),
    }
  }

  /**
   * Follows redirects from `url` until a non-redirect answer, or until the
   * answer of a URL for which `stop` is true (Tern's callback by default),
   * which is returned unfollowed.
   */
  async follow(
    url: string | URL,
    options: { form?: Record<string, string>; stop?: (url: URL) => boolean } = {}
  ): Promise<Visited> {
    const stop = options.stop ?? ((next: URL) => next.pathname.startsWith('/api/oauth/callback/'))
    let visited = await this.request(url, { form: options.form })
    for (let hop = 0; hop < 20; hop++) {
      const location = visited.headers.get('location')
      if (visited.status < 300 || visited.status >= 400 || !location || stop(visited.url))
        return visited
      visited = await this.request(new URL(location, visited.url))
    }
    throw new Error(`too many redirects from ${url}`)
  }

  /**
   * Fills the oidc-provider development login form (`page` is the form page
   * `follow` reached) as `login` and follows to Tern's callback.
   */
  submitLogin(page: Visited, login: string): Promise<Visited> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1]
    if (!action || !page.body.includes('name="login"'))
      throw new Error(`not a login form: ${page.url}\n${page.body.slice(0, 500)}`)
    return this.follow(new URL(action.replace(/&amp;/g, '&'), page.url), {
      form: { prompt: 'login', login, password: 'any-password' },
    })
  }

  /** Presses "cancel" on the development login form and follows to Tern's callback. */
  cancelLogin(page: Visited): Promise<Visited> {
    const uid = /\/interaction\/([^/"?]+)/.exec(page.url.pathname)?.[1]
    if (!uid) throw new Error(`not an interaction page: ${page.url}`)
    return this.follow(new URL(`/interaction/${uid}/abort`, page.url))
  }
}
