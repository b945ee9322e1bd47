/**
 * Accounts (`/api/users`): creation, updates and deletion, with the rules
 * that hold whoever asks: usernames and e-mail addresses are unique ignoring
 * case (the same answer on SQLite, MySQL and PostgreSQL), and there is always
 * at least one admin.
 */
import { randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import User from '#models/user'
import { BadRequestException, NotFoundException } from '#services/auth/auth_errors'
import SessionService from '#services/auth/session_service'
import DeleteSharesOfUser from '#services/users/delete_shares_of_user'

/** Message when the last admin would be deleted. */
export const LAST_ADMIN_DELETE_MESSAGE = 'Cannot delete the last admin user'
/** Message when the last admin would lose the admin flag. */
export const LAST_ADMIN_DEMOTE_MESSAGE = 'Cannot remove the admin rights of the last admin user'

/** Fields of a new account. */
export interface NewUser {
  username: string
  email: string
  /** Plain password (hashed by the model); null for accounts without one. */
  password: string | null
  isAdmin?: boolean
}

/** Changes to an account; absent fields are left alone. */
export interface UserChanges {
  username?: string
  email?: string
  /** A new plain password. */
  password?: string
  isAdmin?: boolean
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class UserService {
  constructor(
    protected sessions: SessionService,
    protected sharesOfUser: DeleteSharesOfUser
  ) {}

  /** Every user, oldest first. */
  list(): Promise<User[]> {
    return User.query().orderBy('createdAt', 'asc').orderBy('username', 'asc')
  }

  /** The user `id`; throws 404 "User not found" (or `message`, e.g. Pingvin's 400). */
  async findOrFail(id: string, error: 'not_found' | 'bad_request' = 'not_found'): Promise<User> {
    const user = typeof id === 'string' && id.length <= 36 ? await User.find(id) : null
    if (user) return user
    throw error === 'bad_request'
      ? new BadRequestException('User not found')
      : new NotFoundException('User not found')
  }

  /** The user whose username is `username` (ignoring case), or null. */
  findByUsername(username: string) {
    return User.query().whereRaw('LOWER(username) = ?', [username.trim().toLowerCase()]).first()
  }

  /** The user whose e-mail address is `email` (ignoring case), or null. */
  findByEmail(email: string) {
    return User.query().whereRaw('LOWER(email) = ?', [email.trim().toLowerCase()]).first()
  }

  /**
   * Throws 400 "A user with this email already exists" / "A user with this
   * username already exists" when another user (not `exceptId`) has them.
   */
  async assertUnique(
    fields: { email?: string; username?: string },
    exceptId?: string
  ): Promise<void> {
    if (fields.email !== undefined) {
      const other = await this.findByEmail(fields.email)
      if (other && other.id !== exceptId) {
        throw new BadRequestException('A user with this email already exists')
      }
    }
    if (fields.username !== undefined) {
      const other = await this.findByUsername(fields.username)
      if (other && other.id !== exceptId) {
        throw new BadRequestException('A user with this username already exists')
      }
    }
  }

  /** Whether any user exists (the first one to sign up becomes admin). */
  async hasUsers(): Promise<boolean> {
    return (await User.query().select('id').first()) !== null
  }

  /** Number of admins. */
  async adminCount(): Promise<number> {
    const row = await User.query().where('isAdmin', true).count('* as total').first()
    return Number(row?.$extras.total ?? 0)
  }

  /** Whether `user` is the only admin. */
  async isLastAdmin(user: User): Promise<boolean> {
    return Boolean(user.isAdmin) && (await this.adminCount()) <= 1
  }

  /**
   * Creates an account after the uniqueness checks. A concurrent insert of
   * the same name or address loses on the unique index and gets the same
   * 400 as the check.
   */
  async create(fields: NewUser): Promise<User> {
    await this.assertUnique(fields)
    try {
      return await User.create({
        username: fields.username,
        email: fields.email,
        password: fields.password,
        isAdmin: fields.isAdmin ?? false,
      })
    } catch (error) {
      await this.assertUnique(fields)
      throw error
    }
  }

  /**
   * Applies `changes` to `user`. The last admin cannot lose the admin flag
   * (400). A new password ends the user's sessions except `keepSessionId`
   * (the caller's own when they change their own password).
   */
  async update(user: User, changes: UserChanges, keepSessionId?: string | null): Promise<User> {
    await this.assertUnique({ email: changes.email, username: changes.username }, user.id)
    if (changes.isAdmin === false && (await this.isLastAdmin(user))) {
      throw new BadRequestException(LAST_ADMIN_DEMOTE_MESSAGE)
    }
    if (changes.username !== undefined) user.username = changes.username
    if (changes.email !== undefined) user.email = changes.email
    if (changes.isAdmin !== undefined) user.isAdmin = changes.isAdmin
    if (changes.password !== undefined) user.password = changes.password
    try {
      await user.save()
    } catch (error) {
      await this.assertUnique({ email: changes.email, username: changes.username }, user.id)
      throw error
    }
    if (changes.password !== undefined) await this.sessions.revokeAllOf(user.id, keepSessionId)
    return user
  }

  /**
   * Deletes `user` with their shares (rows and stored files); their
   * sessions, tokens and linked accounts go with them (database cascades).
   * 400 "Cannot delete the last admin user".
   */
  async delete(user: User): Promise<void> {
    if (await this.isLastAdmin(user)) throw new BadRequestException(LAST_ADMIN_DELETE_MESSAGE)
    await this.sharesOfUser.handle(user.id)
    await user.delete()
  }

  /** A random password for invited users (they are told to change it). */
  randomPassword(): string {
    return randomBytes(12).toString('base64url')
  }
}
