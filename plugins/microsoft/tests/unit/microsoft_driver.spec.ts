/** The Microsoft driver's rules: tenant values, the `{tenantid}` issuer template, trusted e-mails. */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import {
  acceptMicrosoftIssuer,
  CONSUMERS_TENANT_ID,
  isValidTenant,
  MicrosoftDriver,
  microsoftEmailVerified,
} from '../../index.js'

const TID = '72f988bf-86f1-41af-91ab-2d7cd011db47'
const TEMPLATE = { issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0' } as any

test.group('Microsoft driver rules', () => {
  test('tenants: common, organizations, consumers, a domain or a GUID', async ({ assert }) => {
    for (const tenant of ['common', 'organizations', 'consumers', 'contoso.com', TID])
      assert.isTrue(isValidTenant(tenant), tenant)
    for (const tenant of ['', 'contoso', 'a b', 'x/../y', '72f988bf'])
      assert.isFalse(isValidTenant(tenant), tenant)
    const ctx = await testUtils.createHttpContext()
    const options = { clientId: 'c', clientSecret: 's', callbackUrl: 'http://x', nonce: 'n' }
    assert.throws(
      () => new MicrosoftDriver(ctx, { tenant: 'bad tenant', ...options }),
      /Invalid Microsoft tenant/
    )
    // An empty tenant is common: the driver reads common's discovery document.
    assert.include(
      (new MicrosoftDriver(ctx, { tenant: ' ', ...options }).config as { discoveryUri: string })
        .discoveryUri,
      '/common/v2.0/'
    )
  })

  test('a multi-tenant issuer must match the token tid', ({ assert }) => {
    assert.isTrue(
      acceptMicrosoftIssuer(
        { iss: `https://login.microsoftonline.com/${TID}/v2.0`, tid: TID },
        TEMPLATE
      )
    )
    assert.isFalse(
      acceptMicrosoftIssuer(
        { iss: `https://login.microsoftonline.com/${TID}/v2.0`, tid: CONSUMERS_TENANT_ID },
        TEMPLATE
      )
    )
    assert.isFalse(acceptMicrosoftIssuer({ iss: 'https://evil.example/v2.0' }, TEMPLATE))
    const single = { issuer: `https://login.microsoftonline.com/${TID}/v2.0` } as any
    assert.isTrue(acceptMicrosoftIssuer({ iss: single.issuer }, single))
    assert.isFalse(
      acceptMicrosoftIssuer({ iss: 'https://login.microsoftonline.com/other/v2.0' }, single)
    )
  })

  test('e-mails are trusted for personal accounts or with xms_edov only', ({ assert }) => {
    assert.isTrue(microsoftEmailVerified({ tid: CONSUMERS_TENANT_ID }))
    assert.isTrue(microsoftEmailVerified({ tid: TID, xms_edov: true }))
    assert.isFalse(microsoftEmailVerified({ tid: TID, email_verified: true }))
  })
})
