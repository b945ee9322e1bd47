/**
 * The logo of the instance (General): the current logo, a PNG file chosen
 * here with its preview, and the upload. The server checks the file (PNG,
 * square) and derives the favicon and app icons; its refusal is shown.
 */
import { useEffect, useState } from 'react'
import { Alert, App, Button, Card, Space, Upload } from 'antd'
import { UploadOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { uploadLogo } from '~/admin/lib/config_api'
import { useAdminErrorText } from '~/admin/lib/errors'

const PREVIEW_SIZE = 96

/** See the module comment. */
export function LogoUpload() {
  const t = useTranslate()
  const errorText = useAdminErrorText()
  const { notification } = App.useApp()
  const [version, setVersion] = useState(() => Date.now())
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the object URL of the chosen file is made and revoked here
    if (!file) return setPreview(null)
    const url = URL.createObjectURL(file)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [file])

  const upload = async () => {
    if (!file) return
    setUploading(true)
    setError(null)
    try {
      await uploadLogo(file, file.name)
      setFile(null)
      setVersion(Date.now())
      notification.success({ message: t('admin.config.logo.uploaded') })
    } catch (cause) {
      setError(errorText(cause))
    } finally {
      setUploading(false)
    }
  }

  return (
    <Card
      title={t('admin.config.logo.title')}
      size="small"
      style={{ maxWidth: 720, marginBottom: 24 }}
      data-testid="logo-card"
    >
      <Space align="start" size={24} wrap>
        <figure style={{ margin: 0, textAlign: 'center' }}>
          <img
            src={`/img/logo.png?v=${version}`}
            alt={t('admin.config.logo.current')}
            width={PREVIEW_SIZE}
            height={PREVIEW_SIZE}
            style={{ objectFit: 'contain' }}
          />
          <figcaption>{t('admin.config.logo.current')}</figcaption>
        </figure>
        {preview ? (
          <figure style={{ margin: 0, textAlign: 'center' }}>
            <img
              src={preview}
              alt={t('admin.config.logo.preview')}
              width={PREVIEW_SIZE}
              height={PREVIEW_SIZE}
              style={{ objectFit: 'contain' }}
            />
            <figcaption>{t('admin.config.logo.preview')}</figcaption>
          </figure>
        ) : null}
        <Space direction="vertical">
          <span>{t('admin.config.logo.hint')}</span>
          <Upload
            accept="image/png"
            maxCount={1}
            showUploadList={false}
            beforeUpload={(chosen) => {
              setError(null)
              setFile(chosen)
              return false
            }}
          >
            <Button icon={<UploadOutlined />}>{t('admin.config.logo.choose')}</Button>
          </Upload>
          <Button type="primary" disabled={!file} loading={uploading} onClick={() => void upload()}>
            {t('admin.config.logo.upload')}
          </Button>
        </Space>
      </Space>
      {error ? (
        <Alert
          type="error"
          showIcon
          message={error}
          role="alert"
          style={{ marginTop: 16 }}
          data-testid="logo-error"
        />
      ) : null}
    </Card>
  )
}
