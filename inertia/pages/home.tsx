import { Button, Flex, Typography, theme } from 'antd'
import { CheckCircleFilled, GithubOutlined } from '@ant-design/icons'
import { Head, usePage } from '@inertiajs/react'
import LinkButton from '~/components/link_button'
import { useTranslate } from '~/lib/i18n'
import { useAppName, useConfig } from '~/lib/config'
import { paths, SOURCE_CODE_URL } from '~/lib/links'

const POINTS = ['selfHosted', 'privacy', 'noLimit'] as const

/**
 * The home page: hero, the three points (self-hosted, privacy, no file size
 * limit), "Get started" and "Source code".
 */
export default function Home() {
  const t = useTranslate()
  const appName = useAppName()
  const config = useConfig()
  const { user } = usePage().props
  const { token } = theme.useToken()

  const getStarted = user
    ? paths.upload
    : config.boolean('share.allowRegistration', true)
      ? paths.signUp
      : paths.signIn

  return (
    <>
      <Head title={t('home.title')} />
      <section className="tern-hero" aria-labelledby="home-title">
        <Flex vertical gap={24} style={{ maxWidth: 720 }}>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 18 }}>
              {appName}
            </Typography.Text>
            <Typography.Title id="home-title" level={1} style={{ marginTop: 8, fontSize: 44, lineHeight: 1.2 }}>
              {t('home.hero.title')}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ fontSize: 18 }}>
              {t('home.hero.description', { appName })}
            </Typography.Paragraph>
          </div>
          <ul className="tern-points" aria-label={t('home.points.label', { appName })}>
            {POINTS.map((point) => (
              <li key={point}>
                <CheckCircleFilled style={{ color: token.colorPrimary, fontSize: 20, marginTop: 3 }} aria-hidden="true" />
                <div>
                  <Typography.Text strong>{t(`home.points.${point}.title`)}</Typography.Text>
                  <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                    {t(`home.points.${point}.description`, { appName })}
                  </Typography.Paragraph>
                </div>
              </li>
            ))}
          </ul>
          <Flex gap={12} wrap>
            <LinkButton type="primary" size="large" href={getStarted}>
              {t('home.getStarted')}
            </LinkButton>
            <Button size="large" href={SOURCE_CODE_URL} target="_blank" rel="noopener noreferrer" icon={<GithubOutlined />}>
              {t('home.sourceCode')}
            </Button>
          </Flex>
        </Flex>
      </section>
    </>
  )
}
