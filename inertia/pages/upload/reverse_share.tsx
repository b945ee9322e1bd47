import { Result } from 'antd'
import { Head } from '@inertiajs/react'
import { useTranslate } from '~/lib/i18n'
import { paths } from '~/lib/links'
import LinkButton from '~/components/link_button'
import UploadPage from '~/pages/upload/index'
import type { PublicReverseShare } from '#api/reverse_share'

/** Props of the page (see ReverseSharesPageController.upload). */
export interface ReverseShareUploadProps {
  token: string
  /** The live reverse share, or null when the link is unknown, expired or used up. */
  reverseShare: PublicReverseShare | null
}

/**
 * `/upload/:token`: the upload page of a reverse share, for people without
 * an account (the upload page in its reverse-share mode), or, when the link
 * is dead, a page saying so with no upload form.
 */
export default function ReverseShareUpload({ token, reverseShare }: ReverseShareUploadProps) {
  const t = useTranslate()
  if (reverseShare) return <UploadPage key={token} reverseShare={reverseShare} />
  return (
    <>
      <Head title={t('reverse_shares.upload.invalid.title')} />
      <Result
        status="404"
        title={<h1 className="tern-result-title">{t('reverse_shares.upload.invalid.title')}</h1>}
        subTitle={
          <span role="alert" data-testid="reverse-share-invalid">
            {t('reverse_shares.upload.invalid.description')}
          </span>
        }
        extra={
          <LinkButton type="primary" href={paths.home}>
            {t('reverse_shares.upload.invalid.home')}
          </LinkButton>
        }
      />
    </>
  )
}
