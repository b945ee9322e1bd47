import type { Assert } from '@japa/assert'
import { configValues } from '#extensions/config/config_values'

/** Asserts each `[key, value]`, saved alone through `configValues.update`, is refused with a 400. */
export async function assertConfigRefused(assert: Assert, updates: [key: string, value: string][]) {
  for (const [key, value] of updates) {
    try {
      await configValues.update([{ key, value }])
    } catch (error) {
      assert.equal((error as { status?: number }).status, 400, `${key} = ${value}`)
      continue
    }
    assert.fail(`${key} = ${value} was accepted`)
  }
}
