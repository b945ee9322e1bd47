/**
 * antd's own texts (empty states, pagination, modal buttons) in the page's
 * language, loaded on demand so a page only downloads its own locale.
 */
import type { ConfigProviderProps } from 'antd'

/** antd's locale object. */
export type AntdLocale = NonNullable<ConfigProviderProps['locale']>

const loaders: Record<string, () => Promise<{ default: unknown }>> = {
  'en-US': () => import('antd/locale/en_US'),
  'de-DE': () => import('antd/locale/de_DE'),
  'fr-FR': () => import('antd/locale/fr_FR'),
  'pt-BR': () => import('antd/locale/pt_BR'),
  'da-DK': () => import('antd/locale/da_DK'),
  'es-ES': () => import('antd/locale/es_ES'),
  'zh-CN': () => import('antd/locale/zh_CN'),
  'zh-TW': () => import('antd/locale/zh_TW'),
  'fi-FI': () => import('antd/locale/fi_FI'),
  'ru-RU': () => import('antd/locale/ru_RU'),
  'uk-UA': () => import('antd/locale/uk_UA'),
  'th-TH': () => import('antd/locale/th_TH'),
  'sr-SP': () => import('antd/locale/sr_RS'),
  'nl-BE': () => import('antd/locale/nl_BE'),
  'ja-JP': () => import('antd/locale/ja_JP'),
  'pl-PL': () => import('antd/locale/pl_PL'),
  'sv-SE': () => import('antd/locale/sv_SE'),
  'it-IT': () => import('antd/locale/it_IT'),
  'el-GR': () => import('antd/locale/el_GR'),
  'sl-SI': () => import('antd/locale/sl_SI'),
  'ar-EG': () => import('antd/locale/ar_EG'),
  'hu-HU': () => import('antd/locale/hu_HU'),
}

/** antd's locale object for a Tern locale code (English when unknown). */
export async function loadAntdLocale(locale: string): Promise<AntdLocale> {
  const load = loaders[locale] ?? loaders['en-US']
  const localeModule = await load()
  const loaded = localeModule.default as AntdLocale | { default: AntdLocale }
  // Node (server rendering) sees the CommonJS module object, Vite the locale.
  return 'locale' in loaded ? loaded : loaded.default
}
