import vine from '@vinejs/vine'

/**
 * Body of `PATCH /api/configs/admin`: `[{key, value}]`. `value` may be any
 * JSON value (its type is checked against the variable by the config
 * service) or null (= reset, like `""`). Unknown properties are dropped.
 */
export const updateConfigVariablesValidator = vine.create(
  vine.array(
    vine.object({
      key: vine.string().trim().minLength(1),
      value: vine.any().nullable(),
    })
  )
)
