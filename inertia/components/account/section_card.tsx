import type { ReactNode } from 'react'
import { Card, Typography } from 'antd'

/**
 * One section of the account page: a card headed by an h2 (a landmark for
 * screen readers through `aria-labelledby`).
 */
export default function SectionCard(props: {
  id: string
  title: string
  description?: ReactNode
  children: ReactNode
  danger?: boolean
}) {
  const headingId = `account-${props.id}-title`
  return (
    <Card
      id={`account-${props.id}`}
      role="region"
      aria-labelledby={headingId}
      style={props.danger ? { borderColor: '#ff4d4f' } : undefined}
      title={
        <Typography.Title
          id={headingId}
          level={2}
          style={{ fontSize: 18, margin: 0 }}
          type={props.danger ? 'danger' : undefined}
        >
          {props.title}
        </Typography.Title>
      }
    >
      {props.description && (
        <Typography.Paragraph type="secondary">{props.description}</Typography.Paragraph>
      )}
      {props.children}
    </Card>
  )
}
