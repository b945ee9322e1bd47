import { useCallback, useEffect, useState } from 'react'
import { App, Button, Flex, List, Popconfirm, Tag, Typography } from 'antd'
import { useTranslate } from '~/lib/i18n'
import type { OauthStatus } from '#api/social_account'
import { api, apiPaths } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import SectionCard from '~/components/account/section_card'
import { useCurrentUser } from '~/components/account/use_current_user'
import { providerName, useAvailableProviders } from '~/components/auth/social_buttons'

/**
 * Social login: every enabled provider (and every linked one) with its
 * state. "Link" goes through the provider's sign-in and back to this page;
 * "Unlink" asks first, and warns that access may be lost when the account
 * has no password. Hidden when no provider is enabled or linked.
 */
export default function SocialAccountsCard() {
  const t = useTranslate()
  const errorText = useErrorText()
  const { notification } = App.useApp()
  const { user } = useCurrentUser()
  const available = useAvailableProviders()
  const [status, setStatus] = useState<OauthStatus>({})
  const [busy, setBusy] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      setStatus(await api.get<OauthStatus>(apiPaths.oauthStatus))
    } catch {
      setStatus({})
    }
  }, [])

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    void load()
  }, [load])

  const unlink = async (provider: string) => {
    setBusy(provider)
    try {
      await api.post(apiPaths.oauthUnlink(provider))
      notification.success({
        message: t('account.social.unlinked', { provider: providerName(provider) }),
      })
      await load()
    } catch (error) {
      notification.error({ message: errorText(error) })
    } finally {
      setBusy(null)
    }
  }

  const providers = [...new Set([...available, ...Object.keys(status)])]
  if (providers.length === 0) return null

  return (
    <SectionCard
      id="social"
      title={t('account.social.title')}
      description={t('account.social.description')}
    >
      <List
        dataSource={providers}
        renderItem={(provider) => {
          const linked = status[provider]
          const name = providerName(provider)
          return (
            <List.Item data-testid={`social-${provider}`}>
              <Flex justify="space-between" align="center" gap={12} style={{ width: '100%' }} wrap>
                <span>
                  <Typography.Text strong>{name}</Typography.Text>{' '}
                  {linked ? (
                    <Tag color="green">
                      {t('account.social.linkedAs', { name: linked.providerUsername })}
                    </Tag>
                  ) : (
                    <Tag>{t('account.social.notLinked')}</Tag>
                  )}
                </span>
                {linked ? (
                  <Popconfirm
                    title={t('account.social.unlinkConfirm', { provider: name })}
                    description={
                      user.hasPassword === false ? t('account.social.noPasswordWarning') : undefined
                    }
                    okText={t('account.social.unlink')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => unlink(provider)}
                  >
                    <Button danger loading={busy === provider}>
                      {t('account.social.unlink')}
                    </Button>
                  </Popconfirm>
                ) : available.includes(provider) ? (
                  <Button href={apiPaths.oauthAuth(provider)}>{t('account.social.link')}</Button>
                ) : null}
              </Flex>
            </List.Item>
          )
        }}
      />
    </SectionCard>
  )
}
