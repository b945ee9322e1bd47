import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, targets } from '@adonisjs/core/logger'

/**
 * Structured JSON logs (pino) with the request id of each HTTP request.
 * Pretty-printed in development, silent by default in tests.
 */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'tern',
      level: env.get('LOG_LEVEL') ?? (app.inTest ? 'silent' : 'info'),
      transport: {
        targets: targets()
          .pushIf(app.inDev, targets.pretty())
          .pushIf(!app.inDev, targets.file({ destination: 1 }))
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
