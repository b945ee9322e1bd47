import { useCallback, useState } from 'react'
import type { FormInstance } from 'antd'
import { useTranslate } from '~/lib/i18n'
import { isApiError } from '~/lib/api'
import { errorText, fieldOfServerMessage, translateServerMessage } from '~/lib/validation'

/** What `useApiForm` gives a form. */
export interface ApiFormState<Values> {
  /** True while the call runs (for the submit button's loading state). */
  loading: boolean
  /** The error to show above the form (already translated), or null. */
  error: string | null
  /** Pass to `<Form onFinish>`. */
  onFinish: (values: Values) => Promise<void>
  /** Clears the form-level error. */
  clearError: () => void
}

/**
 * Runs `submit` for a form and shows what the API refused: a message that
 * belongs to one of `fields` (e.g. 'A user with this email already exists' on
 * `email`) at that field, any other one above the form.
 */
export function useApiForm<Values>(
  form: FormInstance<Values>,
  submit: (values: Values) => Promise<void>,
  fields: readonly string[] = []
): ApiFormState<Values> {
  const t = useTranslate()
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const onFinish = useCallback(
    async (values: Values) => {
      setLoading(true)
      setError(null)
      try {
        await submit(values)
      } catch (caught) {
        const messages = isApiError(caught) && caught.statusCode < 500 ? caught.messages : []
        const field = messages.length === 1 ? fieldOfServerMessage(messages[0]) : undefined
        if (field && fields.includes(field)) {
          form.setFields([
            { name: field as never, errors: [translateServerMessage(t, messages[0])] },
          ])
        } else {
          setError(errorText(t, caught))
        }
      } finally {
        setLoading(false)
      }
    },
    [form, submit, fields, t]
  )

  return { loading, error, onFinish, clearError: useCallback(() => setError(null), []) }
}
