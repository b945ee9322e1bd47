/**
 * Until an administrator sets general.appUrl, links use the
 * address the browser used (the Host, or X-Forwarded-Host/-Proto from a
 * trusted proxy: loopback here, the default TRUST_PROXY); once set, it wins.
 * GET /api/configs and the cross-site check keep the stored value.
 */
import { test } from '@japa/runner'
import http from 'node:http'
import app from '@adonisjs/core/services/app'
import MailService from '#services/mail/mail_service'
import { pageObject } from '#tests/helpers/pages'
import { startSmtpServer, type TestSmtpServer, mailTo } from '#tests/helpers/smtp_server'
import { createReverseShare, reverseShareCookie } from '#tests/helpers/reverse_shares'
import {
  api,
  createAndComplete,
  cleanupShareTests,
  newShareId,
  ownerCookieOf,
  setConfig,
  shareUser,
  uploadFile,
  setSmtpConfig,
} from '#tests/helpers/shares'

const mailService = await app.container.make(MailService)

const FORWARDED = { 'x-forwarded-host': 'files.example.org', 'x-forwarded-proto': 'https' }

/** general.appUrl as the page props of `/` carry it, for a request with `headers`. */
async function pageAppUrl(headers: Record<string, string>): Promise<string> {
  const response = await api('GET', '/', { headers: { accept: 'text/html', ...headers } })
  if (response.status !== 200) throw new Error(`GET /: ${response.status}`)
  const variables = pageObject(response.bytes.toString('utf8')).props.configVariables as {
    key: string
    value: string
  }[]
  return variables.find((variable) => variable.key === 'general.appUrl')!.value
}

/** GET `/` with a raw Host header (fetch does not send one of our choosing); resolves to the HTML. */
function getWithHost(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: process.env.HOST,
        port: Number(process.env.PORT),
        path: '/',
        headers: { host, accept: 'text/html' },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        response.on('error', reject)
      }
    )
    request.on('error', reject)
    request.end()
  })
}

/** A completed share with one recipient, created and completed with `headers`; resolves to its id. */
async function shareMailedTo(address: string, headers: Record<string, string>): Promise<string> {
  const { cookie } = await shareUser()
  const { id, completed } = await createAndComplete(cookie, { recipients: [address] }, headers)
  if (completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.bytes}`)
  return id
}

test.group('Links | the address the browser used until general.appUrl is set', (group) => {
  let smtp: TestSmtpServer

  group.setup(async () => {
    smtp = await startSmtpServer()
    return () => smtp.close()
  })
  group.each.setup(() => smtp.clear())
  group.each.teardown(async () => {
    await mailService.idle()
    await cleanupShareTests()
  })

  test('page props carry the forwarded origin while general.appUrl is unset; GET /api/configs keeps the default', async ({
    assert,
  }) => {
    assert.equal(await pageAppUrl(FORWARDED), 'https://files.example.org')
    assert.equal(await pageAppUrl({}), `http://${process.env.HOST}:${process.env.PORT}`)
    const configs = await api('GET', '/api/configs', { headers: FORWARDED })
    const appUrl = (configs.json as { key: string; value: string }[]).find(
      (variable) => variable.key === 'general.appUrl'
    )
    assert.equal(appUrl?.value, 'http://localhost:3000')
  })

  // An address the test server's Vite middleware lets through (it blocks unknown names).
  test('a raw Host header, without forwarding headers, is the origin of the page links', async ({
    assert,
  }) => {
    const page = pageObject(await getWithHost('127.0.0.2:8443'))
    const appUrl = page.props.configVariables.find(
      (variable: { key: string }) => variable.key === 'general.appUrl'
    )
    assert.equal(appUrl.value, 'http://127.0.0.2:8443')
  })

  test('once general.appUrl is set it wins over the request', async ({ assert }) => {
    await setConfig('general.appUrl', 'https://tern.example.com/')
    assert.equal(await pageAppUrl(FORWARDED), 'https://tern.example.com')
  })

  test('the recipients mail of a share made at the forwarded address links there', async ({
    assert,
  }) => {
    await setSmtpConfig(smtp.port)
    await setConfig('email.enableShareEmailRecipients', 'true')
    await setConfig('email.shareRecipientsMessage', 'url={shareUrl}')
    const id = await shareMailedTo('first@example.com', FORWARDED)
    await mailService.idle()
    const mail = await smtp.waitForMessage((m) => mailTo(m) === 'first@example.com')
    assert.include(mail.text ?? '', `url=https://files.example.org/s/${id}`)

    await setConfig('general.appUrl', 'https://tern.example.com')
    const second = await shareMailedTo('second@example.com', FORWARDED)
    await mailService.idle()
    const other = await smtp.waitForMessage((m) => mailTo(m) === 'second@example.com')
    assert.include(other.text ?? '', `url=https://tern.example.com/s/${second}`)
    assert.notInclude(other.text ?? '', 'files.example.org')
  })

  test("the reverse share owner's mail never takes the uploader's forwarded address: the share's path until an address is confirmed", async ({
    assert,
  }) => {
    await setSmtpConfig(smtp.port)
    await setConfig('email.reverseShareMessage', 'url={shareUrl}')
    const owner = await shareUser({ email: 'rs-owner@example.com' })
    const { token } = await createReverseShare(owner.cookie, { sendEmailNotification: true })
    const lookup = await api('GET', `/api/reverseShares/${token}`, { headers: FORWARDED })
    const cookie = reverseShareCookie(lookup.cookies.reverse_share_token)
    const id = newShareId('rs')
    const created = await api('POST', '/api/shares', {
      cookie,
      headers: FORWARDED,
      json: { id, expiration: '1-day', recipients: [] },
    })
    assert.equal(created.status, 201)
    const uploader = [cookie, ownerCookieOf(created)].filter(Boolean).join('; ')
    await uploadFile(id, 'a.txt', 'a', uploader)
    const completed = await api('POST', `/api/shares/${id}/complete`, {
      cookie: uploader,
      headers: FORWARDED,
    })
    assert.isTrue(completed.json.notifyReverseShareCreator)
    await mailService.idle()
    const mail = await smtp.waitForMessage((m) => mailTo(m) === 'rs-owner@example.com')
    assert.equal((mail.text ?? '').trim(), `url=/s/${id}`)
  })

  test('the cross-site check still refuses another site whatever address links use', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const refused = await api('POST', '/api/shares', {
      cookie,
      headers: { ...FORWARDED, origin: 'https://evil.example' },
      json: { id: newShareId(), expiration: 'never' },
    })
    assert.equal(refused.status, 403)
  })
})
