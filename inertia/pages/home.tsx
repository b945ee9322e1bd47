import { Button, Flex, theme } from 'antd'
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
  // Plain elements in antd's colours: Typography brings its editing, copying
  // and ellipsis code (and Tooltip) to every visitor.
  const secondary = token.colorTextDescription

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
            <span style={{ color: secondary, fontSize: 18 }}>{appName}</span>
            <h1
              id="home-title"
              style={{
                marginTop: 8,
                marginBottom: '0.5em',
                fontSize: 44,
                lineHeight: 1.2,
                fontWeight: token.fontWeightStrong,
                color: token.colorTextHeading,
              }}
            >
              {t('home.hero.title')}
            </h1>
            <p style={{ color: secondary, fontSize: 18, marginTop: 0, marginBottom: '1em' }}>
              {t('home.hero.description', { appName })}
            </p>
          </div>
          <ul className="tern-points" aria-label={t('home.points.label', { appName })}>
            {POINTS.map((point) => (
              <li key={point}>
                <CheckCircleFilled
                  style={{ color: token.colorPrimary, fontSize: 20, marginTop: 3 }}
                  aria-hidden="true"
                />
                <div>
                  <strong style={{ fontWeight: token.fontWeightStrong }}>
                    {t(`home.points.${point}.title`)}
                  </strong>
                  <p style={{ color: secondary, margin: 0 }}>
                    {t(`home.points.${point}.description`, { appName })}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <Flex gap={12} wrap>
            <LinkButton type="primary" size="large" href={getStarted}>
              {t('home.getStarted')}
            </LinkButton>
            <Button
              size="large"
              href={SOURCE_CODE_URL}
              target="_blank"
              rel="noopener noreferrer"
              icon={<GithubOutlined />}
            >
              {t('home.sourceCode')}
            </Button>
          </Flex>
        </Flex>
      </section>
    </>
  )
}
