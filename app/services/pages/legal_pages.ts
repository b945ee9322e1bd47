/**
 * What the legal pages (`/imprint`, `/privacy`) show, from the `legal`
 * configuration category (Pingvin Share's): nothing while `legal.enabled`
 * is off (404), the external page when its URL is set (it wins over the
 * text, as in Pingvin), else the Markdown text (404 when empty).
 */
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'

/** The two legal pages. */
export type LegalPage = 'imprint' | 'privacy'

/** What a legal page does: render the text, send the visitor to the URL, or 404. */
export type LegalOutcome = { text: string } | { redirect: string } | { notFound: true }

const KEYS = {
  imprint: { text: 'legal.imprintText', url: 'legal.imprintUrl' },
  privacy: { text: 'legal.privacyPolicyText', url: 'legal.privacyPolicyUrl' },
} as const

/** See the module comment. */
@inject()
export default class LegalPageService {
  constructor(protected config: ConfigService) {}

  async outcome(page: LegalPage): Promise<LegalOutcome> {
    const config = await this.config.snapshot()
    if (!config.get('legal.enabled')) return { notFound: true }
    const url = String(config.get(KEYS[page].url)).trim()
    if (url) return { redirect: url }
    const text = String(config.get(KEYS[page].text))
    return text.trim() ? { text } : { notFound: true }
  }
}
