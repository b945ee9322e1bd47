/**
 * Validation of plugin manifests (VineJS). The first problem found becomes
 * `E_PLUGIN_INVALID_MANIFEST` naming the plugin and the field.
 */
import vine, { errors, SimpleMessagesProvider } from '@vinejs/vine'
import { ACTION_EVENTS, FILTER_HOOKS } from '#extensions/hooks/types'
import type { PluginManifest } from './define_plugin.js'
import { E_PLUGIN_INVALID_MANIFEST } from './errors.js'
import { isValidRange, isValidVersion } from './semver.js'

/** Plugin ids: kebab case, starting with a letter. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9-]*$/

const semverVersion = vine.createRule((value, _, field) => {
  if (typeof value === 'string' && !isValidVersion(value)) field.report('', 'semverVersion', field)
})
const semverRange = vine.createRule((value, _, field) => {
  if (typeof value === 'string' && !isValidRange(value)) field.report('', 'semverRange', field)
})

const names = () => vine.array(vine.string().trim().minLength(1)).distinct().optional()

const validator = vine.create({
  id: vine.string().regex(PLUGIN_ID_PATTERN),
  displayName: vine.string().trim().minLength(1),
  version: vine.string().use(semverVersion()),
  engine: vine.string().use(semverRange()),
  description: vine.string().optional(),
  provides: vine
    .object({
      storage: names(),
      auth: names(),
      notifications: names(),
      hooks: vine.array(vine.enum([...FILTER_HOOKS, ...ACTION_EVENTS])).optional(),
      admin: vine.boolean({ strict: true }).optional(),
    })
    .optional(),
  requires: vine.array(vine.string().regex(PLUGIN_ID_PATTERN)).distinct().optional(),
  config: vine.array(vine.object({ id: vine.string() }).allowUnknownProperties()).optional(),
  env: vine
    .array(
      vine.object({
        name: vine.string().regex(/^[A-Z][A-Z0-9_]*$/),
        required: vine.boolean({ strict: true }),
        description: vine.string().optional(),
      })
    )
    .optional(),
})

const messages = new SimpleMessagesProvider({
  'required': 'is required',
  'string': 'must be a string',
  'boolean': 'must be a boolean',
  'array': 'must be an array',
  'object': 'must be an object',
  'minLength': 'must not be empty',
  'enum': 'must be one of {{ choices }}',
  'distinct': 'must not repeat a value',
  'id.regex': 'must be kebab-case (^[a-z][a-z0-9-]*$)',
  'requires.*.regex': 'must be plugin ids (kebab-case)',
  'env.*.name.regex': 'must be UPPER_SNAKE_CASE',
  'semverVersion': 'must be a semantic version such as 1.0.0',
  'semverRange': 'must be a semver range such as ^1.0.0',
})

/**
 * Validates `candidate` as the manifest of plugin `folderId` (the folder it
 * was found in; the manifest id must equal it). Resolves to the manifest
 * (with the original `config` definitions). Throws `E_PLUGIN_INVALID_MANIFEST`
 * naming the plugin and the first bad field.
 */
export async function validateManifest(
  folderId: string,
  candidate: unknown
): Promise<PluginManifest> {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    throw new E_PLUGIN_INVALID_MANIFEST([
      folderId,
      'manifest.ts must export `manifest = definePlugin({...})`',
    ])
  }
  let manifest: PluginManifest
  try {
    manifest = (await validator.validate(candidate, {
      messagesProvider: messages,
    })) as PluginManifest
  } catch (error) {
    if (error instanceof errors.E_VALIDATION_ERROR) {
      const [first] = error.messages as Array<{ field: string; message: string }>
      throw new E_PLUGIN_INVALID_MANIFEST([folderId, `field "${first.field}" ${first.message}`], {
        cause: error,
      })
    }
    throw error
  }
  if (manifest.id !== folderId) {
    throw new E_PLUGIN_INVALID_MANIFEST([
      folderId,
      `field "id" must equal the folder name "${folderId}" (got "${manifest.id}")`,
    ])
  }
  const original = candidate as PluginManifest
  return { ...manifest, config: original.config }
}
