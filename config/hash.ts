import { defineConfig, drivers } from '@adonisjs/core/hash'

/**
 * Passwords and share passwords are hashed with scrypt (Node's crypto, no
 * native addon needed). `argon` only verifies the argon2id hashes of
 * accounts and shares imported from Pingvin Share (it reads m/t/p from each
 * hash); they are rehashed to scrypt on their first correct use
 * (#services/auth/password_hashes).
 */
const hashConfig = defineConfig({
  default: 'scrypt',
  list: {
    scrypt: drivers.scrypt({
      cost: 16384,
      blockSize: 8,
      parallelization: 1,
      maxMemory: 33554432,
    }),
    argon: drivers.argon2({ variant: 'id' }),
  },
})

export default hashConfig

declare module '@adonisjs/core/types' {
  export interface HashersList extends InferHashers<typeof hashConfig> {}
}
