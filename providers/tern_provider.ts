import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Tern's own start-up work (placeholder until the configuration registry lands).
 */
export default class TernProvider {
  constructor(protected app: ApplicationService) {}
}
