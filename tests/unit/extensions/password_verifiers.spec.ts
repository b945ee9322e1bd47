import { test } from '@japa/runner'
import {
  PasswordVerifierRegistry,
  type PasswordVerifier,
} from '#extensions/auth/password_verifiers'

/** A verifier switched on or off by `on`. */
function verifier(id: string, on: boolean): PasswordVerifier {
  return { id, enabled: async () => on, verify: async () => null }
}

test.group('Password verifiers | registry', () => {
  test('keeps registration order and lists only the enabled ones', async ({ assert }) => {
    const registry = new PasswordVerifierRegistry()
    registry
      .register(verifier('ldap', true))
      .register(verifier('radius', false))
      .register(verifier('other-dir', true))
    assert.deepEqual(
      registry.list().map((entry) => entry.id),
      ['ldap', 'radius', 'other-dir']
    )
    assert.deepEqual(
      (await registry.enabled()).map((entry) => entry.id),
      ['ldap', 'other-dir']
    )
    assert.isTrue(registry.has('radius'))
    assert.isFalse(registry.has('kerberos'))
  })

  test('refuses a bad id, a taken id and a verifier without its methods', ({ assert }) => {
    const registry = new PasswordVerifierRegistry()
    registry.register(verifier('ldap', true))
    assert.throws(() => registry.register(verifier('LDAP', true)), /id must match/)
    assert.throws(() => registry.register(verifier('ldap', true)), /the id is taken/)
    assert.throws(
      () =>
        registry.register({
          id: 'broken',
          enabled: async () => true,
        } as unknown as PasswordVerifier),
      /enabled and verify must be functions/
    )
  })
})
