/**
 * The landing page (`/admin`): entries for users, configuration and shares,
 * and the version: the built-in version, plus a notice with a link when a
 * newer release is published (nothing when the release source is off or
 * unreachable: `latestVersion` null).
 */
import type { ReactNode } from 'react'
import { Alert, Card, Col, Row, Skeleton, Typography } from 'antd'
import {
  FileZipOutlined,
  InfoCircleOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons'
import { useCustom, useGo } from '@refinedev/core'
import { useTranslate } from '~/lib/i18n'
import { configPaths } from '~/admin/lib/config_api'
import type { VersionInfo } from '#api/system'
import { SetupNotice } from '~/admin/components/config/setup_notice'

function Entry(props: {
  icon: ReactNode
  title: string
  description: string
  to?: string
  testId: string
  children?: ReactNode
}) {
  const go = useGo()
  const open = props.to ? () => go({ to: props.to! }) : undefined
  return (
    <Card
      data-testid={props.testId}
      style={{ height: '100%' }}
      title={
        props.to ? (
          <a
            href={`/admin${props.to}`}
            onClick={(event) => {
              event.preventDefault()
              open?.()
            }}
          >
            {props.icon} {props.title}
          </a>
        ) : (
          <span>
            {props.icon} {props.title}
          </span>
        )
      }
    >
      <Typography.Paragraph style={{ marginBottom: props.children ? 12 : 0 }}>
        {props.description}
      </Typography.Paragraph>
      {props.children}
    </Card>
  )
}

function VersionDetails() {
  const t = useTranslate()
  const { query } = useCustom<VersionInfo & Record<string, unknown>>({
    url: configPaths.version,
    method: 'get',
    errorNotification: false,
  })
  if (query.isLoading) return <Skeleton active paragraph={{ rows: 1 }} />
  const info = query.data?.data as VersionInfo | undefined
  if (!info) return null
  return (
    <>
      <Typography.Text strong data-testid="admin-version">
        {t('admin.landing.version.current', { version: info.version })}
      </Typography.Text>
      {info.latestVersion && info.updateAvailable ? (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          data-testid="admin-update"
          message={t('admin.landing.version.updateAvailable', { version: info.latestVersion })}
          description={
            info.releaseUrl ? (
              <a href={info.releaseUrl} target="_blank" rel="noreferrer noopener">
                {t('admin.landing.version.releaseNotes')}
              </a>
            ) : null
          }
        />
      ) : null}
    </>
  )
}

/** See the module comment. */
export function LandingPage() {
  const t = useTranslate()
  return (
    <div>
      <Typography.Title level={2}>{t('admin.landing.title')}</Typography.Title>
      <SetupNotice />
      <Row gutter={[24, 24]}>
        <Col xs={24} md={12} xl={6}>
          <Entry
            testId="landing-users"
            icon={<TeamOutlined />}
            to="/users"
            title={t('admin.landing.users.title')}
            description={t('admin.landing.users.description')}
          />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Entry
            testId="landing-config"
            icon={<SettingOutlined />}
            to="/config/general"
            title={t('admin.landing.config.title')}
            description={t('admin.landing.config.description')}
          />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Entry
            testId="landing-shares"
            icon={<FileZipOutlined />}
            to="/shares"
            title={t('admin.landing.shares.title')}
            description={t('admin.landing.shares.description')}
          />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Entry
            testId="landing-version"
            icon={<InfoCircleOutlined />}
            title={t('admin.landing.version.title')}
            description={t('admin.landing.version.description')}
          >
            <VersionDetails />
          </Entry>
        </Col>
      </Row>
    </div>
  )
}
