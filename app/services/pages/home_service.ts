import { configService } from '#services/config/config_service'

/** What `/` does: show the home page, or send the visitor elsewhere. */
export type HomeOutcome = { page: 'home' } | { redirect: string }

/**
 * `/` shows the home page when `general.showHomePage` is on; otherwise it
 * sends signed-in users to the upload page and visitors to sign-in.
 */
export async function homeOutcome(signedIn: boolean): Promise<HomeOutcome> {
  if (await configService.get('general.showHomePage')) return { page: 'home' }
  return { redirect: signedIn ? '/upload' : '/auth/signIn' }
}
