import type { ReactNode } from 'react'
import { Card, Flex, Typography } from 'antd'

/**
 * The frame of the sign-in, sign-up and password pages: a centred card with
 * the page's heading (h1) and an optional line under it.
 */
export default function AuthCard(props: {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <Flex justify="center">
      <Card style={{ width: '100%', maxWidth: 440 }} styles={{ body: { padding: 32 } }}>
        <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0, textAlign: 'center' }}>
          {props.title}
        </Typography.Title>
        {props.description && (
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
            {props.description}
          </Typography.Paragraph>
        )}
        {props.children}
        {props.footer && (
          <Typography.Paragraph
            type="secondary"
            style={{ textAlign: 'center', marginTop: 24, marginBottom: 0 }}
          >
            {props.footer}
          </Typography.Paragraph>
        )}
      </Card>
    </Flex>
  )
}
