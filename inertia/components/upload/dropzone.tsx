import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import { Button, Flex, Typography, theme } from 'antd'
import { CloudUploadOutlined, FolderOpenOutlined } from '@ant-design/icons'
import { useTranslate } from '~/lib/i18n'
import { filesFromDataTransfer, filesFromInput } from '~/components/upload/read_drop'

/** Props of {@link Dropzone}. */
export interface DropzoneProps {
  /** Called with the files dropped or chosen (folders expanded). */
  onFiles: (files: File[]) => void
  /** The formatted `share.maxSize`, shown in the description. */
  maxSizeText: string
  disabled?: boolean
}

/**
 * The drop area of the upload page: drag and drop files or folders, or
 * choose files (several at once) or a folder with the buttons. The area
 * itself is focusable; Enter or Space opens the file picker.
 */
export default function Dropzone({ onFiles, maxSizeText, disabled }: DropzoneProps) {
  const t = useTranslate()
  const { token } = theme.useToken()
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  // Keyboard focus draws antd's focus outline (theme colours, light and dark), not the browser's black box.
  const [focusVisible, setFocusVisible] = useState(false)

  // `webkitdirectory` is not a React prop: set it on the element.
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '')
    folderInput.current?.setAttribute('directory', '')
  }, [])

  const chooseFiles = () => {
    if (!disabled) filesInput.current?.click()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      chooseFiles()
    }
  }

  const onDrop = async (event: DragEvent<HTMLElement>) => {
    event.preventDefault()
    setDragging(false)
    if (disabled) return
    const files = await filesFromDataTransfer(event.dataTransfer)
    if (files.length) onFiles(files)
  }

  const fromInput = (input: HTMLInputElement | null) => {
    if (!input?.files) return
    const files = filesFromInput(input.files)
    input.value = ''
    if (files.length) onFiles(files)
  }

  return (
    <section
      aria-label={t('upload.dropzone.title')}
      data-testid="dropzone"
      onDragOver={(event) => {
        event.preventDefault()
        if (!disabled) setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => void onDrop(event)}
      style={{
        border: `2px dashed ${dragging ? token.colorPrimary : token.colorBorder}`,
        borderRadius: token.borderRadiusLG,
        background: dragging ? token.colorPrimaryBg : token.colorFillAlter,
        padding: '32px 24px',
        textAlign: 'center',
      }}
    >
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled || undefined}
        aria-label={t('upload.dropzone.label')}
        onClick={chooseFiles}
        onKeyDown={onKeyDown}
        onFocus={(event) => setFocusVisible(event.currentTarget.matches(':focus-visible'))}
        onBlur={() => setFocusVisible(false)}
        data-focus-visible={focusVisible || undefined}
        style={{
          cursor: disabled ? 'not-allowed' : 'pointer',
          borderRadius: token.borderRadius,
          padding: 8,
          outline: focusVisible
            ? `${token.lineWidthFocus}px solid ${token.colorPrimaryBorder}`
            : 'none',
          outlineOffset: 1,
          transition: `outline-offset 0s, outline ${token.motionDurationMid}`,
        }}
      >
        <Flex vertical align="center" gap={8}>
          <CloudUploadOutlined style={{ fontSize: 48, color: token.colorPrimary }} aria-hidden />
          <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
            {t('upload.dropzone.title')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('upload.dropzone.description', { maxSize: maxSizeText })}
          </Typography.Text>
        </Flex>
      </div>
      {/* The icons are decoration: antd names them ("cloud-upload"), and a screen reader would read that before the label. */}
      <Flex gap={8} justify="center" wrap style={{ marginTop: 16 }}>
        <Button
          type="primary"
          icon={<CloudUploadOutlined aria-hidden />}
          onClick={chooseFiles}
          disabled={disabled}
        >
          {t('upload.dropzone.chooseFiles')}
        </Button>
        <Button
          icon={<FolderOpenOutlined aria-hidden />}
          onClick={() => !disabled && folderInput.current?.click()}
          disabled={disabled}
        >
          {t('upload.dropzone.chooseFolder')}
        </Button>
      </Flex>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        data-testid="file-input"
        aria-label={t('upload.dropzone.chooseFiles')}
        onChange={(event) => fromInput(event.currentTarget)}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        data-testid="folder-input"
        aria-label={t('upload.dropzone.chooseFolder')}
        onChange={(event) => fromInput(event.currentTarget)}
      />
    </section>
  )
}
