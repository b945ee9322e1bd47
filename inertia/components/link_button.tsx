import type { MouseEvent } from 'react'
import { Button, type ButtonProps } from 'antd'
import { router } from '@inertiajs/react'

/**
 * An antd button that is a link (`<a href>`): a plain click navigates with
 * Inertia, modified clicks (new tab, ...) and `external` links load normally.
 */
export default function LinkButton(props: ButtonProps & { href: string; external?: boolean }) {
  const { external, onClick, ...rest } = props
  function handleClick(event: MouseEvent<HTMLElement>) {
    onClick?.(event)
    if (event.defaultPrevented || external || props.target) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0)
      return
    event.preventDefault()
    router.visit(props.href)
  }
  return <Button {...rest} onClick={handleClick} />
}
