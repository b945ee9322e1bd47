/** Decides what the home page (`/`) does. */
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'

/** What `/` does: show the home page, or send the visitor elsewhere. */
export type HomeOutcome = { page: 'home' } | { redirect: string }

/** See the module comment. */
@inject()
export default class HomeService {
  constructor(protected config: ConfigService) {}

  /**
   * `/` shows the home page when `general.showHomePage` is on; otherwise it
   * sends signed-in users to the upload page and visitors to sign-in.
   */
  async outcome(signedIn: boolean): Promise<HomeOutcome> {
    if (await this.config.get('general.showHomePage')) return { page: 'home' }
    return { redirect: signedIn ? '/upload' : '/auth/signIn' }
  }
}
