import { useState } from 'react'
import type { FormInstance } from 'antd'
import { fieldOfServerMessage, translateServerMessage } from '~/lib/validation'
import { isApiError } from '~/lib/api'
import { useTranslate } from '~/lib/i18n'
import { useAdminErrorText } from '~/admin/lib/errors'

/**
 * Server refusals of a user form: messages that belong to a field ("A user
 * with this email already exists") are shown at it, the rest above the form.
 */
export function useFormErrors(form: FormInstance) {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const [message, setMessage] = useState<string | null>(null)
  return {
    message,
    clear: () => setMessage(null),
    show(error: unknown) {
      const messages = isApiError(error) ? error.messages : []
      const rest: string[] = []
      for (const text of messages) {
        const field = fieldOfServerMessage(text)
        if (field && field !== 'code' && form.getFieldInstance(field)) {
          form.setFields([{ name: field, errors: [translateServerMessage(t, text)] }])
        } else {
          rest.push(text)
        }
      }
      if (rest.length > 0 || messages.length === 0) setMessage(errorText(error))
    },
  }
}
