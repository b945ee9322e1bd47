/**
 * The layer rule of docs/architecture.md ("What may import what") is enforced
 * by the layers block of eslint.config.js: each kind of violation planted
 * here is reported, and the legal imports are not. Only the planted text is
 * linted (with the layer rules alone), so this stays fast; the real tree is
 * checked by `npm run lint`.
 */
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { ESLint } from 'eslint'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const LAYER_RULES = new Set([
  'import-x/no-restricted-paths',
  'import-x/no-cycle',
  'no-restricted-imports',
])

let eslint: ESLint | undefined

/** The layer rules' messages for `code` linted as the file `filePath` (relative to the root). */
async function layerMessages(filePath: string, code: string) {
  eslint ??= new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId) })
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.map((message) => ({ ruleId: message.ruleId, line: message.line }))
}

/** Each planted violation: where it sits, the import, and the rule that must report it. */
const VIOLATIONS: { title: string; filePath: string; code: string; ruleId: string }[] = [
  {
    title: 'a service imports middleware',
    filePath: 'app/services/shares/planted.ts',
    code: "import AuthMiddleware from '#middleware/auth_middleware'\nexport { AuthMiddleware }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a service imports a controller helper (relative path, type only)',
    filePath: 'app/services/shares/planted.ts',
    code: "import type { MAX_SHARE_COOKIES } from '../../controllers/shares/share_token_cookie.js'\nexport type { MAX_SHARE_COOKIES }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a service imports a request helper of app/http',
    filePath: 'app/services/links/planted.ts',
    code: "import { requestOrigin } from '#http/request_origin'\nexport { requestOrigin }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a service imports a transformer',
    filePath: 'app/services/config/planted.ts',
    code: "import ConfigVariableTransformer from '#transformers/config_variable_transformer'\nexport { ConfigVariableTransformer }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a service reads the HttpContext',
    filePath: 'app/services/links/planted.ts',
    code: "import { HttpContext } from '@adonisjs/core/http'\nexport const current = () => HttpContext.get()\n",
    ruleId: 'no-restricted-imports',
  },
  {
    title: 'a model imports a service',
    filePath: 'app/models/planted.ts',
    code: "import { verifyPasswordHash } from '#services/auth/password_hashes'\nexport { verifyPasswordHash }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'middleware imports a controller helper',
    filePath: 'app/middleware/planted.ts',
    code: "import { shareTokenOf } from '#controllers/shares/share_token_cookie'\nexport { shareTokenOf }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a controller imports the routes',
    filePath: 'app/controllers/shares/planted.ts',
    code: "import '#start/routes'\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'the plugin SDK imports a service',
    filePath: 'app/extensions/config/planted.ts',
    code: "import { configValue } from '#services/config/config_service'\nexport { configValue }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a plugin imports a service',
    filePath: 'plugins/github/src/planted.ts',
    code: "import { configValue } from '#services/config/config_service'\nexport { configValue }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'a plugin imports a model',
    filePath: 'plugins/ldap/src/planted.ts',
    code: "import type User from '#models/user'\nexport type { User }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: "a plugin imports another plugin's internals",
    filePath: 'plugins/microsoft/src/planted.ts',
    code: "import { OidcDriver } from '#plugins/oidc/src/oidc_driver'\nexport { OidcDriver }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'an API type imports a model',
    filePath: 'types/api/planted.ts',
    code: "import type User from '#models/user'\nexport type { User }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'an API type imports a package',
    filePath: 'types/api/planted.ts',
    code: "import type { DateTime } from 'luxon'\nexport type { DateTime }\n",
    ruleId: 'no-restricted-imports',
  },
  {
    title: "a plugin's admin page imports the plugin's server code",
    filePath: 'plugins/webhook/admin/planted.tsx',
    code: "import { manifest } from '../index.js'\nexport { manifest }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'browser code imports a service',
    filePath: 'inertia/lib/planted.ts',
    code: "import { linkForOthers } from '../../app/services/links/link_base.js'\nexport { linkForOthers }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'browser code imports the environment',
    filePath: 'inertia/lib/planted.ts',
    code: "import env from '../../start/env'\nexport { env }\n",
    ruleId: 'import-x/no-restricted-paths',
  },
  {
    title: 'two services import each other',
    // link_base is imported by event_payloads: importing it back closes a cycle.
    filePath: 'app/services/links/link_base.ts',
    code: "import { notificationUser } from '#services/notifications/event_payloads'\nexport { notificationUser }\n",
    ruleId: 'import-x/no-cycle',
  },
]

test.group('Layers lint rule', () => {
  for (const violation of VIOLATIONS) {
    test(`reports ${violation.title}`, async ({ assert }) => {
      const messages = await layerMessages(violation.filePath, violation.code)
      // (An API type importing a model is also an import from outside types/api: two reports.)
      assert.isNotEmpty(messages)
      assert.includeDeepMembers(messages, [{ ruleId: violation.ruleId, line: 1 }])
      assert.isTrue(messages.every((message) => message.line === 1))
    })
  }

  test('reports nothing for the imports each layer may make', async ({ assert }) => {
    const legal: [string, string][] = [
      [
        'app/services/shares/planted.ts',
        [
          "import Share from '#models/share'",
          "import { configValue } from '#services/config/config_service'",
          "import { hooks } from '#extensions/hooks/main'",
          "import type { ShareViewInitialState } from '#api/share'",
          "import env from '#start/env'",
          'export { Share, configValue, hooks, env }',
          'export type { ShareViewInitialState }',
        ].join('\n'),
      ],
      [
        'app/controllers/shares/planted.ts',
        [
          "import { crossSiteRefusal } from '#auth/cross_site'",
          "import { requestOrigin } from '#http/request_origin'",
          "import ShareService from '#services/shares/share_service'",
          "import ShareTransformer from '#transformers/share_transformer'",
          'export { crossSiteRefusal, requestOrigin, ShareService, ShareTransformer }',
        ].join('\n'),
      ],
      [
        'app/middleware/planted.ts',
        [
          "import { secureCookies } from '#http/cookie_security'",
          "import { bearerTokenOf } from '#auth/guards/pingvin_guard'",
          "import User from '#models/user'",
          'export { secureCookies, bearerTokenOf, User }',
        ].join('\n'),
      ],
      [
        'plugins/microsoft/src/planted.ts',
        [
          "import { OidcDriver } from '#plugins/oidc/index'",
          "import type { PluginManifest } from '#extensions/plugins/define_plugin'",
          "import type { Delivery } from '#api/notifications'",
          "import manifest from '../manifest.js'",
          'export { OidcDriver, manifest }',
          'export type { Delivery, PluginManifest }',
        ].join('\n'),
      ],
      [
        'inertia/lib/planted.ts',
        [
          "import { LOCALES } from '../../start/locales'",
          "import type { PublicUser } from '#api/user'",
          "import { formatBytes } from '~/lib/format'",
          'export { LOCALES, formatBytes }',
          'export type { PublicUser }',
        ].join('\n'),
      ],
      [
        'plugins/webhook/admin/planted.tsx',
        [
          "import { useI18n } from '~/lib/i18n'",
          "import type { Delivery } from '#api/notifications'",
          "import { WebhookDeliveriesPage } from './deliveries_page'",
          'export { useI18n, WebhookDeliveriesPage }',
          'export type { Delivery }',
        ].join('\n'),
      ],
      [
        'types/api/planted.ts',
        ["import type { PublicUser } from './user.js'", 'export type { PublicUser }'].join('\n'),
      ],
    ]
    for (const [filePath, code] of legal) {
      assert.deepEqual(await layerMessages(filePath, code), [], filePath)
    }
  })
})
