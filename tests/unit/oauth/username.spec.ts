/** Usernames derived from a provider's name for social sign-ups. */
import { test } from '@japa/runner'
import { sanitizeUsername } from '#services/oauth/username'

test.group('Social login | username derivation', () => {
  test('keeps letters, digits, "." and "_", at most 32 characters', ({ assert }) => {
    assert.equal(sanitizeUsername('new person!'), 'newperson')
    assert.equal(sanitizeUsername('Zoë.Ünal_42'), 'Zoe.Unal_42')
    assert.equal(sanitizeUsername('x'.repeat(40)), 'x'.repeat(32))
  })

  test('an e-mail-like name keeps its local part; too short names are padded', ({ assert }) => {
    assert.equal(sanitizeUsername('mia@contoso.example'), 'mia')
    assert.equal(sanitizeUsername('é'), 'usere')
    assert.equal(sanitizeUsername('日本'), 'user')
  })
})
