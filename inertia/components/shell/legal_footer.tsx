/**
 * The footer of the app shell: links to the imprint and the privacy policy
 * while `legal.enabled` is on, each only when it has a text or a URL (the
 * URL, when set, is the link's target: the external page). Nothing at all
 * otherwise, as in Pingvin Share.
 */
import { theme } from 'antd'
import { useConfig } from '~/lib/config'
import { useTranslate } from '~/lib/i18n'

/** The target of a legal link: its URL, its page when only a text is set, or null. */
function legalHref(url: string, text: string, page: string): string | null {
  if (url.trim()) return url.trim()
  return text.trim() ? page : null
}

export default function LegalFooter() {
  const t = useTranslate()
  const config = useConfig()
  const { token } = theme.useToken()
  if (!config.boolean('legal.enabled')) return null
  const links = [
    {
      key: 'imprint',
      label: t('legal.footer.imprint'),
      href: legalHref(
        config.string('legal.imprintUrl'),
        config.string('legal.imprintText'),
        '/imprint'
      ),
    },
    {
      key: 'privacy',
      label: t('legal.footer.privacy'),
      href: legalHref(
        config.string('legal.privacyPolicyUrl'),
        config.string('legal.privacyPolicyText'),
        '/privacy'
      ),
    },
  ].filter((link): link is { key: string; label: string; href: string } => link.href !== null)
  if (links.length === 0) return null
  return (
    <footer
      style={{
        padding: '16px',
        borderTop: `1px solid ${token.colorSplit}`,
        textAlign: 'center',
        fontSize: token.fontSizeSM,
      }}
    >
      <nav aria-label={t('legal.footer.label')}>
        <ul
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            gap: '8px 24px',
            listStyle: 'none',
            margin: 0,
            padding: 0,
          }}
        >
          {links.map((link) => (
            <li key={link.key}>
              <a
                href={link.href}
                data-testid={`legal-link-${link.key}`}
                style={{ color: token.colorTextSecondary }}
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  )
}
