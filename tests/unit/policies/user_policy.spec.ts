/**
 * The account rules of UserPolicy and ApiTokenPolicy, through Bouncer as the
 * controllers use them: admins manage every account, users their own; a
 * token is revoked by its owner only.
 */
import { test } from '@japa/runner'
import { Bouncer } from '@adonisjs/bouncer'
import User from '#models/user'
import ApiToken from '#models/api_token'
import { policies } from '#policies/main'

function user(id: string, isAdmin = false): User {
  const account = new User()
  account.id = id
  account.isAdmin = isAdmin
  return account
}

function bouncerOf(actor: User) {
  return new Bouncer(actor, {}, policies)
}

test.group('Policies | users and API tokens', () => {
  test('an admin manages every account; a user only their own', async ({ assert }) => {
    const admin = user('a', true)
    const alice = user('b')
    const bob = user('c')
    assert.isTrue(await bouncerOf(admin).with('UserPolicy').allows('manage'))
    assert.isTrue(await bouncerOf(admin).with('UserPolicy').allows('update', bob))
    assert.isTrue(await bouncerOf(admin).with('UserPolicy').allows('delete', bob))

    assert.isTrue(await bouncerOf(alice).with('UserPolicy').denies('manage'))
    assert.isTrue(await bouncerOf(alice).with('UserPolicy').allows('update', alice))
    assert.isTrue(await bouncerOf(alice).with('UserPolicy').allows('delete', alice))
    assert.isTrue(await bouncerOf(alice).with('UserPolicy').denies('update', bob))
    assert.isTrue(await bouncerOf(alice).with('UserPolicy').denies('delete', bob))
  })

  test('a token is revoked by its owner only, admins included', async ({ assert }) => {
    const token = new ApiToken()
    token.userId = 'b'
    assert.isTrue(await bouncerOf(user('b')).with('ApiTokenPolicy').allows('delete', token))
    assert.isTrue(await bouncerOf(user('c')).with('ApiTokenPolicy').denies('delete', token))
    assert.isTrue(await bouncerOf(user('a', true)).with('ApiTokenPolicy').denies('delete', token))
  })

  test('a visitor is denied without reaching the policy', async ({ assert }) => {
    const token = new ApiToken()
    token.userId = 'b'
    const visitor = new Bouncer<User, {}, typeof policies>(null, {}, policies)
    assert.isTrue(await visitor.with('UserPolicy').denies('manage'))
    assert.isTrue(await visitor.with('ApiTokenPolicy').denies('delete', token))
  })
})
