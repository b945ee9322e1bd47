/**
 * The Social Login category (`oauth`) grouped by provider: the general keys
 * (allowRegistration, ignoreTotp, disablePassword) first, then one card per
 * provider (`oauth.<provider>-*`) saying whether it is enabled and showing
 * the callback URL to register at the provider
 * (`<general.appUrl>/api/oauth/callback/<provider>`, the redirect URI the
 * server sends) with a copy button; while no public address is confirmed,
 * that it waits for one (the server refuses social sign-in until then).
 */
import { Fragment, type ReactNode } from 'react'
import { Card, Space, Tag, Typography } from 'antd'
import { useI18n } from '~/lib/i18n'
import { apiUrl } from '~/lib/api_url'
import { useAppUrl } from '~/admin/lib/app_url'
import type { AdminConfigVariable } from '#api/config'

/** Variables of one group: `provider` is null for the general keys. */
export interface OAuthGroup {
  provider: string | null
  variables: AdminConfigVariable[]
}

/** Splits the `oauth` variables by the provider prefix of their name (`github-clientId` → github), keeping their order. */
export function groupOAuthVariables(variables: readonly AdminConfigVariable[]): OAuthGroup[] {
  const general: OAuthGroup = { provider: null, variables: [] }
  const byProvider = new Map<string, OAuthGroup>()
  for (const variable of variables) {
    const dash = variable.name.indexOf('-')
    if (dash <= 0) {
      general.variables.push(variable)
      continue
    }
    const provider = variable.name.slice(0, dash)
    const group = byProvider.get(provider) ?? { provider, variables: [] }
    group.variables.push(variable)
    byProvider.set(provider, group)
  }
  return [...(general.variables.length > 0 ? [general] : []), ...byProvider.values()]
}

/** `url` with a line-break opportunity after each `/` (a phone wraps it between its parts, not inside a word). */
function breakableUrl(url: string): ReactNode[] {
  return url.split(/(?<=\/)(?!\/)/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ))
}

/**
 * One provider's card around its fields; `enabled` is the saved value of
 * `oauth.<provider>-enabled`, `appUrl` the confirmed public address (null
 * while there is none).
 */
export function OAuthProviderCard(props: {
  provider: string
  enabled: boolean
  appUrl: string | null
  children: ReactNode
}) {
  const { t, messages } = useI18n()
  const nameKey = `admin.config.oauthProviders.${props.provider}`
  const name = messages[nameKey] !== undefined ? t(nameKey) : props.provider
  const callbackUrl =
    props.appUrl === null
      ? null
      : `${props.appUrl}${apiUrl('oauth.callback', { provider: props.provider })}`
  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      data-testid={`oauth-provider-${props.provider}`}
      title={
        <Space wrap>
          <span>{name}</span>
          <Tag color={props.enabled ? 'success' : 'default'}>
            {props.enabled ? t('admin.config.oauthEnabled') : t('admin.config.oauthDisabled')}
          </Tag>
        </Space>
      }
    >
      <div style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('admin.config.oauthCallbackUrl')}</Typography.Text>
        <div>
          {callbackUrl === null ? (
            <Typography.Text strong data-testid="oauth-callback-unconfirmed">
              {t('public_address.oauthCallback')}
            </Typography.Text>
          ) : (
            <Typography.Text
              code
              data-testid="oauth-callback-url"
              style={{ overflowWrap: 'anywhere' }}
              copyable={{
                text: callbackUrl,
                tooltips: [t('admin.config.oauthCopy'), t('admin.config.oauthCopied')],
              }}
            >
              {breakableUrl(callbackUrl)}
            </Typography.Text>
          )}
        </div>
      </div>
      {props.children}
    </Card>
  )
}

/** Renders the grouped fields: `field` draws one variable's form item. */
export function OAuthGroups(props: {
  variables: readonly AdminConfigVariable[]
  field: (variable: AdminConfigVariable) => ReactNode
}) {
  const { t } = useI18n()
  const { appUrl } = useAppUrl()
  return (
    <>
      {groupOAuthVariables(props.variables).map((group) =>
        group.provider === null ? (
          <Card
            key="general"
            size="small"
            style={{ marginBottom: 16 }}
            title={t('admin.config.oauthGeneral')}
            data-testid="oauth-general"
          >
            {group.variables.map(props.field)}
          </Card>
        ) : (
          <OAuthProviderCard
            key={group.provider}
            provider={group.provider}
            appUrl={appUrl}
            enabled={group.variables.some(
              (variable) =>
                variable.name === `${group.provider}-enabled` && variable.value === 'true'
            )}
          >
            {group.variables.map(props.field)}
          </OAuthProviderCard>
        )
      )}
    </>
  )
}
