import { useEffect, useState, type ReactNode } from 'react'
import { Button, Divider, Flex } from 'antd'
import {
  DiscordOutlined,
  GithubOutlined,
  GoogleOutlined,
  KeyOutlined,
  WindowsOutlined,
} from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths, isApiError } from '~/lib/api'

/** Display names of the built-in providers; a plugin's provider shows its id. */
export const PROVIDER_NAMES: Record<string, string> = {
  github: 'GitHub',
  google: 'Google',
  microsoft: 'Microsoft',
  discord: 'Discord',
  oidc: 'OpenID Connect',
}

const PROVIDER_ICONS: Record<string, ReactNode> = {
  github: <GithubOutlined />,
  google: <GoogleOutlined />,
  microsoft: <WindowsOutlined />,
  discord: <DiscordOutlined />,
}

/** The name of a provider for people. */
export function providerName(id: string): string {
  return PROVIDER_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1)
}

/**
 * The enabled social-login providers (`GET /api/oauth/available`); none while
 * loading, when the route does not exist (404) or when the call fails.
 */
export function useAvailableProviders(): string[] {
  const [providers, setProviders] = useState<string[]>([])
  useEffect(() => {
    let active = true
    api
      .get<unknown>(apiPaths.oauthAvailable)
      .then((list) => {
        if (active && Array.isArray(list))
          setProviders(list.filter((item): item is string => typeof item === 'string'))
      })
      .catch((error) => {
        if (!isApiError(error) || error.statusCode !== 404)
          console.info('Social login providers unavailable')
      })
    return () => {
      active = false
    }
  }, [])
  return providers
}

/** "Sign in with …" buttons, one per enabled provider, under an "or" divider (unless `divider` is false). */
export default function SocialButtons(props: { divider?: boolean }) {
  const t = useTranslate()
  const providers = useAvailableProviders()
  if (providers.length === 0) return null
  return (
    <section aria-label={t('auth.signIn.socialLabel')}>
      {props.divider !== false && <Divider plain>{t('auth.signIn.or')}</Divider>}
      <Flex vertical gap={8}>
        {providers.map((id) => (
          <Button
            key={id}
            block
            icon={PROVIDER_ICONS[id] ?? <KeyOutlined />}
            href={apiPaths.oauthAuth(id)}
          >
            {t('auth.signIn.withProvider', { provider: providerName(id) })}
          </Button>
        ))}
      </Flex>
    </section>
  )
}
