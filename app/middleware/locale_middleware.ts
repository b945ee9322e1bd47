import i18nManager from '@adonisjs/i18n/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { I18n } from '@adonisjs/i18n'
import { resolveLocale } from '#start/locales'

/**
 * Chooses the request's language (cookie `language`, else the browser
 * language, else English) and binds an I18n instance for it to the context.
 */
export default class LocaleMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const locale = resolveLocale(
      ctx.request.plainCookie('language', { encoded: false }) ?? undefined,
      ctx.request.header('accept-language')
    )
    ctx.i18n = i18nManager.locale(locale)
    ctx.containerResolver.bindValue('i18n', ctx.i18n)
    return next()
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    i18n: I18n
  }
}
