/**
 * The one step between signing in (or up) and the app for an admin while the
 * public address is not confirmed (`appUrlConfirmed` of the shared props):
 * a card with the address the browser uses, changeable, which the admin
 * confirms (stored as `general.appUrl`) or leaves for later; either way the
 * app opens next. Everyone else, and every admin once an address is
 * confirmed, goes straight on.
 *
 * ```tsx
 * const { step, proceed } = useAddressStep(redirect)
 * // after signing in: proceed() (or proceed(user.isAdmin) when the answer named the user)
 * if (step) return <AddressStep onDone={() => enterApp(redirect)} />
 * ```
 */
import { useCallback, useState } from 'react'
import { Button, Typography } from 'antd'
import { usePage } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { api, apiPaths } from '~/lib/api'
import { errorText } from '~/lib/validation'
import type { PublicUser } from '~/types/page_props'
import AuthCard from '~/components/auth/auth_card'
import { enterApp } from '~/components/auth/auth_paths'
import { ConfirmAddressForm } from '~/components/public_address/confirm_address_form'

/** Whether the signed-in user is an admin (false when it cannot be told). */
async function signedInAdmin(): Promise<boolean> {
  try {
    const me = await api.get<PublicUser>(apiPaths.me)
    return me.isAdmin === true
  } catch {
    return false
  }
}

/** See the module comment: `proceed` after signing in; `step` tells whether to show `AddressStep`. */
export function useAddressStep(redirect: string) {
  const { appUrlConfirmed } = usePage().props
  const [step, setStep] = useState(false)
  const proceed = useCallback(
    async (isAdmin?: boolean) => {
      if (!appUrlConfirmed && (isAdmin ?? (await signedInAdmin()))) setStep(true)
      else enterApp(redirect)
    },
    [appUrlConfirmed, redirect]
  )
  return { step, proceed }
}

/** The card of the step (see the module comment). */
export function AddressStep(props: { onDone: () => void }) {
  const t = useTranslate()
  const confirm = async (address: string) => {
    await api.patch(apiPaths.adminConfig, [{ key: 'general.appUrl', value: address }])
    props.onDone()
  }
  return (
    <AuthCard
      title={t('public_address.step.title')}
      description={t('public_address.step.description')}
    >
      <div data-testid="address-step">
        <Typography.Paragraph>{t('public_address.waits')}</Typography.Paragraph>
        <ConfirmAddressForm
          name="publicAddress"
          large
          autoFocus
          onConfirm={confirm}
          describeError={(error) => errorText(t, error)}
          submitLabel={t('public_address.step.confirm')}
          secondary={
            <Button size="large" block onClick={props.onDone}>
              {t('public_address.step.later')}
            </Button>
          }
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          {t('public_address.step.changeLater')}
        </Typography.Paragraph>
      </div>
    </AuthCard>
  )
}
