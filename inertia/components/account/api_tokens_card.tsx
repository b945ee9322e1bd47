import { useCallback, useEffect, useState } from 'react'
import { Alert, App, Button, Popconfirm, Table, Typography } from 'antd'
import { DeleteOutlined } from '@ant-design/icons'
import { useI18n } from '~/lib/i18n'
import type { ApiTokenInfo, CreatedApiToken } from '#api/api_token'
import { api, apiPaths } from '~/lib/api'
import { useErrorText } from '~/lib/validation'
import SectionCard from '~/components/account/section_card'
import CreateApiTokenForm from '~/components/account/create_api_token_form'
import { VISUALLY_HIDDEN } from '~/lib/a11y'
import { labelled, useStackedTable } from '~/lib/stacked_table'

/** Formats an ISO date for the table, or a dash. */
function useDateFormat() {
  const { locale } = useI18n()
  return (value: string | null | undefined, fallback = '—') => {
    if (!value) return fallback
    const date = new Date(value)
    return Number.isNaN(date.getTime())
      ? fallback
      : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
  }
}

/**
 * Personal API tokens: the list (name, prefix, created, last used, expiry),
 * a form to create one (shown once, with a copy button) and revoking with a
 * confirmation. On a phone each token is a block of labelled lines
 * (stacked_table).
 */
export default function ApiTokensCard() {
  const { t } = useI18n()
  const errorText = useErrorText()
  const formatDate = useDateFormat()
  const { notification } = App.useApp()
  const [tokens, setTokens] = useState<ApiTokenInfo[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [created, setCreated] = useState<CreatedApiToken | null>(null)
  const [revoking, setRevoking] = useState<string | null>(null)
  const stacked = useStackedTable()

  const load = useCallback(async () => {
    try {
      setTokens(await api.get<ApiTokenInfo[]>(apiPaths.apiTokens))
      setLoadError(null)
    } catch (error) {
      setTokens([])
      setLoadError(errorText(error))
    }
  }, [errorText])

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only once its request has answered
    void load()
  }, [load])

  const revoke = async (token: ApiTokenInfo) => {
    setRevoking(token.id)
    try {
      await api.delete(apiPaths.apiToken(token.id))
      notification.success({ message: t('account.apiTokens.revoked', { name: token.name }) })
      if (created?.id === token.id) setCreated(null)
      await load()
    } catch (error) {
      notification.error({ message: errorText(error) })
    } finally {
      setRevoking(null)
    }
  }

  return (
    <SectionCard
      id="apiTokens"
      title={t('account.apiTokens.title')}
      description={t('account.apiTokens.description')}
    >
      <div aria-live="polite">
        {created && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('account.apiTokens.createdTitle', { name: created.name })}
            description={
              <>
                <Typography.Paragraph>{t('account.apiTokens.createdWarning')}</Typography.Paragraph>
                <Typography.Paragraph
                  code
                  copyable={{
                    text: created.token,
                    tooltips: [t('account.copy'), t('account.copied')],
                  }}
                  style={{ wordBreak: 'break-all', marginBottom: 0 }}
                  data-testid="new-api-token"
                >
                  {created.token}
                </Typography.Paragraph>
              </>
            }
            closable
            onClose={() => setCreated(null)}
          />
        )}
        {loadError && (
          <Alert type="error" showIcon message={loadError} style={{ marginBottom: 16 }} />
        )}
      </div>
      <CreateApiTokenForm
        onCreated={(token) => {
          setCreated(token)
          void load()
        }}
      />
      <Table<ApiTokenInfo>
        rowKey="id"
        size="small"
        style={{ marginTop: 16 }}
        loading={tokens === null}
        dataSource={tokens ?? []}
        pagination={false}
        scroll={{ x: true }}
        className={stacked}
        locale={{ emptyText: t('account.apiTokens.empty') }}
        columns={[
          {
            key: 'name',
            title: t('account.apiTokens.name'),
            ...labelled(t('account.apiTokens.name')),
            dataIndex: 'name',
          },
          {
            key: 'prefix',
            title: t('account.apiTokens.prefix'),
            ...labelled(t('account.apiTokens.prefix')),
            dataIndex: 'prefix',
            render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
          },
          {
            key: 'createdAt',
            title: t('account.apiTokens.createdAt'),
            ...labelled(t('account.apiTokens.createdAt')),
            dataIndex: 'createdAt',
            render: (v: string) => formatDate(v),
          },
          {
            key: 'lastUsedAt',
            title: t('account.apiTokens.lastUsedAt'),
            ...labelled(t('account.apiTokens.lastUsedAt')),
            dataIndex: 'lastUsedAt',
            render: (v: string | null) => formatDate(v, t('account.apiTokens.never')),
          },
          {
            key: 'expiresAt',
            title: t('account.apiTokens.expiresAt'),
            ...labelled(t('account.apiTokens.expiresAt')),
            dataIndex: 'expiresAt',
            render: (v: string | null) => formatDate(v, t('account.apiTokens.noExpiry')),
          },
          {
            key: 'actions',
            title: <span style={VISUALLY_HIDDEN}>{t('account.apiTokens.actions')}</span>,
            align: 'end',
            render: (_: unknown, token: ApiTokenInfo) => (
              <Popconfirm
                title={t('account.apiTokens.revokeConfirmTitle')}
                description={t('account.apiTokens.revokeConfirm', { name: token.name })}
                okText={t('account.apiTokens.revoke')}
                cancelText={t('account.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => revoke(token)}
              >
                <Button
                  danger
                  type="text"
                  icon={<DeleteOutlined />}
                  loading={revoking === token.id}
                  aria-label={t('account.apiTokens.revokeNamed', { name: token.name })}
                >
                  {t('account.apiTokens.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </SectionCard>
  )
}
