/**
 * "Import from Pingvin Share" (`/admin/import/pingvin`): how an
 * administrator moves a Pingvin Share instance to Tern with the
 * `node ace pingvin:import` command (commands/pingvin_import.ts), its
 * options, what is carried over and what is not, and that the source is
 * never changed. Only text: the import runs on the server, not from here.
 * Commands wrap at any character, so a phone shows them whole.
 */
import type { CSSProperties } from 'react'
import { Alert, Card, Space, Typography, theme } from 'antd'
import { useTranslate } from '~/lib/i18n'

/** Where the panel shows this page (a route of the SPA, under `/admin`). */
export const PINGVIN_IMPORT_PATH = '/import/pingvin'

const COMMAND_STYLE: CSSProperties = {
  display: 'block',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  wordBreak: 'break-word',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
}

/** One command in a copyable block. */
function Command(props: { text: string; testId: string }) {
  const { token } = theme.useToken()
  return (
    <Typography.Paragraph
      copyable={{ text: props.text }}
      data-testid={props.testId}
      style={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: 8,
        margin: '8px 0 0',
        padding: '8px 12px',
        borderRadius: token.borderRadius,
        background: token.colorFillTertiary,
        minWidth: 0,
      }}
    >
      <code style={{ ...COMMAND_STYLE, flex: '1 1 auto', minWidth: 0 }}>{props.text}</code>
    </Typography.Paragraph>
  )
}

/** A titled list of short sentences. */
function Points(props: { title: string; items: string[]; testId: string }) {
  return (
    <Card title={props.title} size="small" data-testid={props.testId}>
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {props.items.map((item) => (
          <li key={item} style={{ marginBottom: 4 }}>
            {item}
          </li>
        ))}
      </ul>
    </Card>
  )
}

/** See the module comment. */
export function PingvinImportPage() {
  const t = useTranslate()
  const k = (key: string, values?: Record<string, string>) =>
    t(`admin.pingvin_import.${key}`, values)
  const folder = `<${k('dataFolder')}>`
  const command = `node ace pingvin:import ${folder}`
  return (
    <div style={{ maxWidth: 880, minWidth: 0 }} data-testid="pingvin-import-page">
      <Typography.Title level={2}>{k('title')}</Typography.Title>
      <Typography.Paragraph>{k('intro')}</Typography.Paragraph>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 24 }}
        data-testid="pingvin-import-source"
        message={k('sourceSafe')}
      />

      <Space direction="vertical" size={24} style={{ display: 'flex' }}>
        <Card title={k('steps.title')} size="small">
          <ol style={{ margin: 0, paddingInlineStart: 20 }}>
            <li style={{ marginBottom: 12 }}>{k('steps.stop')}</li>
            <li style={{ marginBottom: 12 }}>
              {k('steps.dryRun')}
              <Command text={`${command} --dry-run`} testId="pingvin-import-dry-run" />
            </li>
            <li style={{ marginBottom: 12 }}>
              {k('steps.run')}
              <Command text={command} testId="pingvin-import-command" />
            </li>
            <li>{k('steps.report')}</li>
          </ol>
        </Card>

        <Card title={k('options.title')} size="small">
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {k('options.folder')}
          </Typography.Paragraph>
          <Command
            text={`node ace pingvin:import --db <${k('dbFile')}> --uploads <${k('uploadsFolder')}>`}
            testId="pingvin-import-paths"
          />
          <dl style={{ margin: '16px 0 0' }}>
            <dt>
              <code>--dry-run</code>
            </dt>
            <dd style={{ marginInlineStart: 0, marginBottom: 8 }}>{k('options.dryRun')}</dd>
            <dt>
              <code>--merge</code>
            </dt>
            <dd style={{ marginInlineStart: 0, marginBottom: 0 }}>{k('options.merge')}</dd>
          </dl>
        </Card>

        <Points
          testId="pingvin-import-carried"
          title={k('carried.title')}
          items={[
            k('carried.users'),
            k('carried.signIn'),
            k('carried.shares'),
            k('carried.reverseShares'),
            k('carried.settings'),
          ]}
        />
        <Points
          testId="pingvin-import-not-carried"
          title={k('notCarried.title')}
          items={[k('notCarried.tokens'), k('notCarried.settings'), k('notCarried.plugins')]}
        />
      </Space>
    </div>
  )
}
