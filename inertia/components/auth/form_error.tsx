import { Alert } from 'antd'

/**
 * The error of a whole form, in a live region so screen readers announce it
 * when it appears.
 */
export default function FormError(props: { error: string | null; onClose?: () => void }) {
  return (
    <div aria-live="assertive" aria-atomic="true" data-testid="form-error">
      {props.error && (
        <Alert
          type="error"
          showIcon
          message={props.error}
          closable={Boolean(props.onClose)}
          onClose={props.onClose}
          style={{ marginBottom: 16 }}
        />
      )}
    </div>
  )
}
