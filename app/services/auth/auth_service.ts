/**
 * The password sign-in flows (`/api/auth/*`): sign-up, sign-in (with the
 * TOTP second step), password change and the TOTP set-up of an account.
 * Controllers do HTTP (cookies, status codes, rate limits); the rules live here.
 */
import { inject } from '@adonisjs/core'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import {
  AuthenticationFailedException,
  BadRequestException,
  ForbiddenException,
} from '#services/auth/auth_errors'
import LoginTokenService from '#services/auth/login_token_service'
import { verifyUserPassword } from '#services/auth/password_hashes'
import SessionService from '#services/auth/session_service'
import TotpService from '#services/auth/totp_service'
import { configValue } from '#services/config/config_service'
import UserService from '#services/users/user_service'
import ExternalSignInService from '#services/auth/external_sign_in_service'
import type { TotpEnableResponse } from '#api/auth'

/**
 * The answer of a password check: the user to sign in (the `pingvin`
 * guard's `login` starts the session), or a login token when a TOTP code is needed.
 */
export type SignInResult =
  { kind: 'session'; user: User } | { kind: 'totp'; user: User; loginToken: string }

/** What `enableTotp` answers (the body of `POST /api/auth/totp/enable`). */
export type TotpSetup = TotpEnableResponse

/** Message of every failed password sign-in (unknown user or wrong password alike). */
export const WRONG_CREDENTIALS_MESSAGE = 'Wrong email or password'

let dummyHash: Promise<string> | undefined

/**
 * Verifies `password` against `user`'s hash, or against a throw-away hash
 * when there is no user or no password, so that unknown accounts take as
 * long to refuse as wrong passwords.
 */
async function verifyPasswordInConstantTime(user: User | null, password: string): Promise<boolean> {
  if (user?.password) return verifyUserPassword(user, password)
  dummyHash ??= hash.make('tern-dummy-password-for-timing')
  await hash.verify(await dummyHash, password)
  return false
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class AuthService {
  constructor(
    protected users: UserService,
    protected sessions: SessionService,
    protected loginTokens: LoginTokenService,
    protected totp: TotpService,
    protected external: ExternalSignInService
  ) {}

  /** 403 "Registration is not allowed" unless `share.allowRegistration`. */
  async ensureRegistrationAllowed(): Promise<void> {
    if (!(await configValue('share.allowRegistration'))) {
      throw new ForbiddenException('Registration is not allowed')
    }
  }

  /**
   * 403 `message` when `oauth.disablePassword` is on (password sign-in and
   * password reset are then refused; social login remains).
   */
  async ensurePasswordLoginAllowed(message = 'Password sign in is disabled'): Promise<void> {
    if (await configValue('oauth.disablePassword')) throw new ForbiddenException(message)
  }

  /** Creates an account (the first one becomes admin); the caller signs it in. */
  async signUp(fields: { email: string; username: string; password: string }): Promise<User> {
    const isAdmin = !(await this.users.hasUsers())
    return this.users.create({ ...fields, isAdmin })
  }

  /**
   * The account an identifier names: by e-mail when `email` is given or the
   * identifier contains "@", else by username (case ignored).
   */
  async findByIdentifier(fields: { email?: string; username?: string }): Promise<User | null> {
    if (fields.email) return this.users.findByEmail(fields.email)
    if (!fields.username) return null
    const byUsername = await this.users.findByUsername(fields.username)
    if (byUsername || !fields.username.includes('@')) return byUsername
    return this.users.findByEmail(fields.username)
  }

  /**
   * Checks the password of the account named by `email` or `username`.
   * 401 "Wrong email or password" for an unknown account, an account without
   * password, or a wrong password. With TOTP on, answers a login token
   * instead of a session. When the local password does not match (or is
   * not checked because `oauth.disablePassword` is on), the password
   * verifiers of plugins (LDAP) are asked with `username || email`
   * (ExternalSignInService; 503 when a directory cannot answer). 403
   * "Password sign in is disabled" when `oauth.disablePassword` is on and no
   * verifier is. `beforePassword` runs once the account is looked up (null
   * when unknown) and before the password is checked: the rate limit takes
   * its point there.
   */
  async signIn(
    fields: { email?: string; username?: string; password: string },
    hooks: { beforePassword?: (user: User | null) => Promise<void> } = {}
  ): Promise<SignInResult> {
    const localAllowed = !(await configValue('oauth.disablePassword'))
    if (!localAllowed && !(await this.external.anyEnabled()))
      throw new ForbiddenException('Password sign in is disabled')
    let user = await this.findByIdentifier(fields)
    await hooks.beforePassword?.(user)
    const valid = localAllowed && (await verifyPasswordInConstantTime(user, fields.password))
    if (!user || !valid) {
      user = await this.external.signIn(fields.username || fields.email || '', fields.password)
      if (!user) throw new AuthenticationFailedException(WRONG_CREDENTIALS_MESSAGE)
    }
    if (user.totpVerified) {
      return { kind: 'totp', user, loginToken: await this.loginTokens.issue(user) }
    }
    return { kind: 'session', user }
  }

  /**
   * The TOTP step: redeems `loginToken` with `code`. 401 "Invalid login
   * token" / "Login token expired" (`token_expired`); 400 "Invalid code" (the
   * token stays usable until it expires). Answers the user to sign in and
   * the OIDC id token of the sign-in the login token continues (null when
   * it came from a password). Hooks for rate limiting:
   * `beforeCode` runs once the user is known, `onWrongCode` before the 400.
   */
  async signInWithTotp(
    loginToken: string,
    code: string,
    hooks: {
      beforeCode?: (user: User) => Promise<void>
      onWrongCode?: (user: User) => Promise<void>
    } = {}
  ): Promise<{ user: User; oauthIdToken: string | null }> {
    const { row, user } = await this.loginTokens.find(loginToken)
    await hooks.beforeCode?.(user)
    if (!user.totpVerified || !(await this.totp.consume(user, code))) {
      await hooks.onWrongCode?.(user)
      throw new BadRequestException('Invalid code')
    }
    if (!(await this.loginTokens.redeem(row)))
      throw new AuthenticationFailedException('Invalid login token')
    return { user, oauthIdToken: row.oauthIdToken ?? null }
  }

  /**
   * Changes the password of `user`: `oldPassword` must match (403 "Invalid
   * password"); it may be omitted only by a user without a password. Every
   * session of the user ends; the caller signs the user in again.
   */
  async changePassword(user: User, password: string, oldPassword?: string): Promise<void> {
    if (user.password && !(await verifyUserPassword(user, oldPassword ?? ''))) {
      throw new ForbiddenException('Invalid password')
    }
    user.password = password
    await user.save()
    await this.sessions.revokeAllOf(user.id)
  }

  /** 403 "Invalid password" unless `password` is the user's password. */
  async ensurePassword(user: User, password: string): Promise<void> {
    if (!(await verifyUserPassword(user, password)))
      throw new ForbiddenException('Invalid password')
  }

  /**
   * Step 1 of TOTP set-up: checks the password (403), refuses when TOTP is
   * already on (400 "TOTP is already enabled"), stores a new secret (not yet
   * active) and answers its provisioning URI and QR code.
   */
  async enableTotp(user: User, password: string): Promise<TotpSetup> {
    await this.ensurePassword(user, password)
    if (user.totpVerified) throw new BadRequestException('TOTP is already enabled')
    const secret = this.totp.generateSecret()
    user.totpSecret = secret
    user.totpVerified = false
    user.totpLastStep = null
    await user.save()
    const totpAuthUrl = this.totp.authUrl(
      secret,
      await configValue('general.appName'),
      user.username
    )
    return { totpAuthUrl, totpSecret: secret, qrCode: await this.totp.qrCode(totpAuthUrl) }
  }

  /**
   * Step 2: a code from the new secret turns TOTP on. 403 "Invalid
   * password"; 400 "TOTP is already enabled", "TOTP is not in progress",
   * "Invalid code".
   */
  async verifyTotp(user: User, password: string, code: string): Promise<void> {
    await this.ensurePassword(user, password)
    if (user.totpVerified) throw new BadRequestException('TOTP is already enabled')
    if (!user.totpSecret) throw new BadRequestException('TOTP is not in progress')
    if (!(await this.totp.consume(user, code))) throw new BadRequestException('Invalid code')
    user.totpVerified = true
    await user.save()
  }

  /**
   * Turns TOTP off with the password and a current code. 403 "Invalid
   * password"; 400 "TOTP is not enabled", "Invalid code".
   */
  async disableTotp(user: User, password: string, code: string): Promise<void> {
    await this.ensurePassword(user, password)
    if (!user.totpVerified || !user.totpSecret) throw new BadRequestException('TOTP is not enabled')
    if (!(await this.totp.consume(user, code))) throw new BadRequestException('Invalid code')
    user.totpSecret = null
    user.totpVerified = false
    user.totpLastStep = null
    await user.save()
  }
}
