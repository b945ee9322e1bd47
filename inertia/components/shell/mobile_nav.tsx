/**
 * Small screens: the burger button of the header. Its drawer
 * (mobile_nav_drawer: Drawer, Select, Segmented) is loaded the first time the
 * visitor points at or opens the menu, so a page's first load does not carry
 * it; the server renders the button only (the drawer is closed).
 */
import { lazy, Suspense, useState } from 'react'
import { Button } from 'antd'
import { MenuOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'

const loadDrawer = () => import('~/components/shell/mobile_nav_drawer')
const MobileNavDrawer = lazy(loadDrawer)

export default function MobileNav() {
  const t = useTranslate()
  const [open, setOpen] = useState(false)
  // Mounted from the first opening on (it animates its own closing).
  const [wanted, setWanted] = useState(false)
  return (
    <>
      <Button
        type="text"
        icon={<MenuOutlined />}
        aria-label={t('shell.nav.openMenu')}
        aria-expanded={open}
        aria-controls="tern-mobile-nav"
        onPointerEnter={() => void loadDrawer()}
        onFocus={() => void loadDrawer()}
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
      />
      {wanted && (
        <Suspense fallback={null}>
          <MobileNavDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
