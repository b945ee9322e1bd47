/**
 * The modal both create dialogs share (a share from the upload page, a
 * reverse share from its account page): an antd form in a modal with Cancel
 * and Submit, reset each time it opens, a busy Submit while `onSubmit` runs,
 * and its refusal shown at a field (`FormFieldError`) or above the form.
 * Keyboard: the first field has the focus when it opens (not the dialog
 * frame, whose next stop would be Close), and Enter in a one-line field
 * submits (the submit button sits in the footer, outside the form).
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { Alert, Button, Form, Modal, type FormInstance } from 'antd'
import { focusLoop } from '~/components/focus_loop'

/** A refusal of `onSubmit` that belongs to one field: its message is shown there. */
export class FormFieldError<Field extends string = string> extends Error {
  constructor(
    readonly field: Field,
    message: string
  ) {
    super(message)
  }
}

/** Props of {@link FormModal}. */
export interface FormModalProps<Values> {
  open: boolean
  onCancel: () => void
  title: ReactNode
  cancelText: ReactNode
  submitText: ReactNode
  /** The form's name (prefix of its fields' ids). */
  name: string
  form: FormInstance<Values>
  initialValues: Partial<Values>
  /**
   * Called with the validated values. A `FormFieldError` rejection shows its
   * message at its field; any other rejection's message above the form.
   */
  onSubmit: (values: Values) => Promise<void>
  /** Shown above the form's error, e.g. a warning. */
  notice?: ReactNode
  /** A red submit button (an irreversible action). */
  submitDanger?: boolean
  children: ReactNode
}

/** The fields the focus may start on: enabled, visible form controls. */
const FIELD_SELECTOR =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled])'

/**
 * Whether Enter in `target` should submit the form: one-line text fields
 * only; not a textarea (new line), a select or a date picker (Enter picks an
 * option there), a button or a text being composed (IME).
 */
export function enterSubmits(target: EventTarget | null, composing: boolean): boolean {
  if (composing || !(target instanceof HTMLInputElement)) return false
  if (target.getAttribute('role') === 'combobox' || target.closest('.ant-picker, .ant-select'))
    return false
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(
    target.type
  )
}

/** A create dialog: see the file comment. */
export default function FormModal<Values>(props: FormModalProps<Values>) {
  const { open, onCancel, form, onSubmit } = props
  const [submitting, setSubmitting] = useState(false)
  // Counts the openings: each one gets a Form of its own (see OnContentMount).
  const [opening, setOpening] = useState(open ? 1 : 0)
  const [wasOpen, setWasOpen] = useState(open)
  const [formError, setFormError] = useState<string | null>(null)
  if (open !== wasOpen) {
    setWasOpen(open)
    if (open) {
      setOpening(opening + 1)
      setFormError(null)
    }
  }
  const body = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    // The dialog renders its content in a portal, possibly a frame later: focus the first field once it is there.
    let frame = 0
    let tries = 0
    const focusFirstField = () => {
      const first = body.current?.querySelector<HTMLElement>(FIELD_SELECTOR)
      if (first) first.focus()
      else if (tries++ < 30) frame = requestAnimationFrame(focusFirstField)
    }
    frame = requestAnimationFrame(focusFirstField)
    return () => cancelAnimationFrame(frame)
  }, [open, form])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.defaultPrevented || submitting) return
    if (!enterSubmits(event.target, event.nativeEvent.isComposing)) return
    event.preventDefault()
    form.submit()
  }

  const submit = async (values: Values) => {
    setSubmitting(true)
    setFormError(null)
    try {
      await onSubmit(values)
    } catch (error) {
      if (error instanceof FormFieldError)
        form.setFields([{ name: error.field, errors: [error.message] }])
      else setFormError(error instanceof Error ? error.message : String(error))
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Modal
      open={open}
      title={props.title}
      onCancel={onCancel}
      destroyOnHidden
      // No dead Tab stops at the dialog's ends (see focus_loop.tsx).
      modalRender={focusLoop}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {props.cancelText}
        </Button>,
        <Button
          key="submit"
          type="primary"
          danger={props.submitDanger}
          loading={submitting}
          onClick={() => form.submit()}
        >
          {props.submitText}
        </Button>,
      ]}
    >
      <div ref={body} onKeyDown={onKeyDown}>
        <Form<Values>
          key={opening}
          form={form}
          name={props.name}
          layout="vertical"
          initialValues={props.initialValues}
          onFinish={(values) => void submit(values)}
          requiredMark={false}
        >
          {props.notice}
          {formError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              style={{ marginBottom: 16 }}
              message={formError}
            />
          )}
          {props.children}
          {/* Last: the fields above have registered with the form when it is reset, so they show the reset values. */}
          <OnContentMount onMount={() => form.resetFields()} />
        </Form>
      </div>
    </Modal>
  )
}

/**
 * Runs `onMount` once the dialog's content is there: at every opening, as
 * the Form it sits in is keyed by the opening (the content alone is kept by
 * a dialog opened again before its closing animation has ended). The form
 * instance outlives its Form, so a new Form's fields first render the last
 * opening's values (its link); the reset then gives every field, registered
 * by then, its initial value. From inside the Form, the form instance is
 * connected when it is reset: called from the dialog's open effect, the
 * content could still be a frame away in its portal, and antd then logged
 * "Instance created by useForm is not connected" (seen on a loaded machine).
 * A layout effect: the fields hold their initial values from the first frame
 * the dialog is painted in, so a Submit clicked at once on a busy device
 * never sends the values of the previous opening.
 */
function OnContentMount({ onMount }: { onMount: () => void }) {
  const run = useRef(onMount)
  useLayoutEffect(() => run.current(), [])
  return null
}
