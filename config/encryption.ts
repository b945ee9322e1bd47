import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/core/encryption'

/**
 * AES-256-GCM with APP_KEY; more keys may be appended for rotation.
 */
const encryptionConfig = defineConfig({
  default: 'gcm',
  list: {
    gcm: drivers.aes256gcm({
      keys: [env.get('APP_KEY')],
      id: 'gcm',
    }),
  },
})

export default encryptionConfig

declare module '@adonisjs/core/types' {
  export interface EncryptorsList extends InferEncryptors<typeof encryptionConfig> {}
}
