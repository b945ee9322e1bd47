/**
 * The states an account list page (my shares, reverse shares) shows around
 * its table: the load error with a retry button (announced politely), the
 * loading skeleton, and the empty state with its call to action.
 */
import type { ReactNode } from 'react'
import { Alert, Button, Empty, Flex, Skeleton, Typography } from 'antd'

/** The load error, if any, with a retry button; the live region exists always so screen readers hear it appear. */
export function LoadErrorAlert({
  error,
  retryLabel,
  onRetry,
}: {
  error: string | null
  retryLabel: string
  onRetry: () => void
}) {
  return (
    <div aria-live="polite">
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          action={
            <Button size="small" onClick={onRetry}>
              {retryLabel}
            </Button>
          }
        />
      )}
    </div>
  )
}

/** The placeholder while the list loads (`label` names what is loading). */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <div aria-busy="true" aria-label={label}>
      <Skeleton active paragraph={{ rows: 4 }} />
    </div>
  )
}

/** The empty state: a heading, a line of text and the action (`children`). */
export function EmptyList(props: {
  testId: string
  title: string
  text: string
  children: ReactNode
}) {
  return (
    <Empty
      data-testid={props.testId}
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical gap={4}>
          <Typography.Title level={2} style={{ fontSize: 20, margin: 0 }}>
            {props.title}
          </Typography.Title>
          <Typography.Text type="secondary">{props.text}</Typography.Text>
        </Flex>
      }
    >
      {props.children}
    </Empty>
  )
}
