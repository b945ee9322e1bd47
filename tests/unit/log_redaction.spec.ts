/**
 * The redaction rules of #services/logging/redaction:
 * which path segments and query values are secrets, and what is left of a
 * database error. The real log output is tested in
 * tests/functional/faults/log_redaction.spec.ts.
 */
import { test } from '@japa/runner'
import { redactText, serializeError } from '#services/logging/redaction'

test.group('Log redaction | rules', () => {
  test('secret path segments become [redacted]; fixed routes and share ids stay', ({ assert }) => {
    const cases: [string, string][] = [
      ['/auth/resetPassword/abc123', '/auth/resetPassword/[redacted]'],
      ['/api/auth/resetPassword/a@b.c', '/api/auth/resetPassword/[redacted]'],
      ['/auth/totp/LOGIN', '/auth/totp/[redacted]'],
      ['/api/auth/totp/verify', '/api/auth/totp/verify'],
      ['/api/reverseShares/TOKEN/x', '/api/reverseShares/[redacted]/x'],
      ['/upload/TOKEN', '/upload/[redacted]'],
      ['/upload', '/upload'],
      ['/share/holiday/files', '/share/holiday/files'],
      [
        'Cannot GET:/api/oauth/callback/github?code=C0DE&state=S7&x=1',
        'Cannot GET:/api/oauth/callback/github?code=[redacted]&state=[redacted]&x=1',
      ],
      ['/api/x?token=T&accessToken=A', '/api/x?token=[redacted]&accessToken=[redacted]'],
    ]
    for (const [input, expected] of cases) assert.equal(redactText(input), expected, input)
  })

  test('a database error keeps its code and statement shape, not its values', ({ assert }) => {
    const error = Object.assign(
      new Error(
        "insert into `users` (`email`, `password`) values ('a@b.c', '$scrypt$n=16384,r=8,p=1$c2FsdA$aGFzaA') - Duplicate entry 'a@b.c' for key 'users_email_unique'"
      ),
      {
        code: 'ER_DUP_ENTRY',
        errno: 1062,
        sqlState: '23000',
        sql: "insert ... 'a@b.c'",
        sqlMessage: "Duplicate entry 'a@b.c'",
      }
    )
    const serialized = JSON.stringify(serializeError(error))
    assert.notInclude(serialized, 'a@b.c')
    assert.notInclude(serialized, '$scrypt')
    assert.include(serialized, 'ER_DUP_ENTRY')
    assert.include(serialized, 'insert into `users`')
  })
})
