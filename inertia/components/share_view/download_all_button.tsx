import { useState } from 'react'
import { App, Button } from 'antd'
import { FileZipOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { api } from '~/lib/api'
import type { ShareMetaData } from '#api/share'
import { shareApiPaths } from '~/components/share_view/share_api'

/**
 * "Download all": asks `metaData` first; while the zip is not ready the
 * visitor is told 'The share is preparing. Try again in a few minutes.',
 * else the browser downloads the streamed zip.
 */
export default function DownloadAllButton({ shareId }: { shareId: string }) {
  const t = useTranslate()
  const { message } = App.useApp()
  const [loading, setLoading] = useState(false)

  const onClick = async () => {
    setLoading(true)
    try {
      const meta = await api.get<ShareMetaData>(shareApiPaths.metaData(shareId))
      if (!meta.isZipReady) {
        message.warning(t('share.downloadAll.preparing'))
        return
      }
      window.location.assign(shareApiPaths.zip(shareId))
    } catch {
      message.error(t('share.error.unknown'))
    } finally {
      setLoading(false)
    }
  }

  return (
    <Button
      type="primary"
      icon={<FileZipOutlined />}
      loading={loading}
      onClick={() => void onClick()}
    >
      {t('share.downloadAll.label')}
    </Button>
  )
}
