/**
 * Configuration (`/admin/config/:category`): the categories in the server's
 * order (core ones, then those of plugins) and the chosen category's
 * variables. General also has the logo upload, SMTP the test e-mail, and
 * every category the first-run "setup finished" action until it is done.
 */
import { Card, Col, Menu, Result, Row, Select, Skeleton } from 'antd'
import { useCustom, useGo } from '@refinedev/core'
import { List } from '@refinedev/antd'
import { useParams } from 'react-router'
import { useI18n } from '~/lib/i18n'
import { isApiError } from '~/lib/api'
import { configPaths } from '~/admin/lib/config_api'
import type { AdminConfigCategory, AdminConfigVariable } from '#api/config'
import { ConfigForm } from '~/admin/components/config/config_form'
import { LogoUpload } from '~/admin/components/config/logo_upload'
import { TestEmailCard } from '~/admin/components/config/test_email_card'
import { SetupNotice } from '~/admin/components/config/setup_notice'
import { categoryLabel } from '~/admin/components/config/variable_text'
import { PHONE, useAdminStyles } from '~/admin/lib/styles'

/** The default category of `/admin/config`. */
export const DEFAULT_CATEGORY = 'general'

function CategoryVariables(props: { category: string }) {
  const { t } = useI18n()
  const { query } = useCustom<AdminConfigVariable[] & Record<string, unknown>>({
    url: configPaths.category(props.category),
    method: 'get',
    errorNotification: false,
  })
  if (query.isLoading) return <Skeleton active />
  if (query.error) {
    const notFound = isApiError(query.error) && query.error.statusCode === 404
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? t('admin.config.unknownCategory') : t('admin.access.unavailable')}
      />
    )
  }
  return <ConfigForm variables={(query.data?.data ?? []) as AdminConfigVariable[]} />
}

/**
 * The configuration page. On phones the category menu (a column of its own
 * on wider screens, stacked above the form there) gives way to a "Category"
 * select (CSS).
 */
export function ConfigList() {
  useAdminStyles('config', () => ({
    '.tern-config-category-select': { display: 'none' },
    [PHONE]: {
      '.tern-config-category-menu': { display: 'none' },
      '.tern-config-category-select': { display: 'flex' },
    },
  }))
  const { t, messages } = useI18n()
  const go = useGo()
  const category = useParams().category ?? DEFAULT_CATEGORY
  const { query } = useCustom<AdminConfigCategory[] & Record<string, unknown>>({
    url: configPaths.categories,
    method: 'get',
    errorNotification: false,
  })
  const categories = (query.data?.data ?? []) as AdminConfigCategory[]
  const current = categories.find((entry) => entry.category === category)

  return (
    <List title={t('admin.config.title')} breadcrumb={false}>
      <SetupNotice />
      <div
        className="tern-config-category-select"
        style={{ flexDirection: 'column', gap: 8, marginBottom: 24 }}
      >
        <label htmlFor="config-category">{t('admin.config.category')}</label>
        <Select
          id="config-category"
          value={current ? category : undefined}
          loading={query.isLoading}
          options={categories.map((entry) => ({
            value: entry.category,
            label: categoryLabel(t, messages, entry),
          }))}
          onChange={(key: string) => go({ to: `/config/${encodeURIComponent(key)}` })}
        />
      </div>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={6} className="tern-config-category-menu">
          <Card size="small" styles={{ body: { padding: 4 } }}>
            <nav aria-label={t('admin.config.categoriesLabel')}>
              <Menu
                mode="inline"
                style={{ border: 'none' }}
                selectedKeys={[category]}
                items={categories.map((entry) => ({
                  key: entry.category,
                  label: categoryLabel(t, messages, entry),
                }))}
                onClick={({ key }) => go({ to: `/config/${encodeURIComponent(key)}` })}
              />
            </nav>
          </Card>
        </Col>
        <Col xs={24} md={18}>
          <h2 style={{ marginTop: 0 }} data-testid="config-category-title">
            {current ? categoryLabel(t, messages, current) : category}
          </h2>
          {category === 'general' ? <LogoUpload /> : null}
          {category === 'smtp' ? <TestEmailCard /> : null}
          <CategoryVariables key={category} category={category} />
        </Col>
      </Row>
    </List>
  )
}
