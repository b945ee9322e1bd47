/**
 * Reading the public configuration variables (shared prop `configVariables`)
 * in pages: `useConfig().boolean('general.showHomePage')`.
 */
import { usePage } from '@inertiajs/react'
import type { ConfigVariable } from '~/types/page_props'

/** Typed readers over a list of public configuration variables. */
export interface ConfigReader {
  /** The raw value, or undefined when the variable is not public/known. */
  raw(key: string): ConfigVariable['value'] | undefined
  string(key: string, fallback?: string): string
  boolean(key: string, fallback?: boolean): boolean
  number(key: string, fallback?: number): number
}

/** Builds typed readers over `variables`. */
export function configReader(variables: readonly ConfigVariable[]): ConfigReader {
  const byKey = new Map(variables.map((variable) => [variable.key, variable.value]))
  return {
    raw: (key) => byKey.get(key),
    string(key, fallback = '') {
      const value = byKey.get(key)
      return value === undefined || value === null ? fallback : String(value)
    },
    boolean(key, fallback = false) {
      const value = byKey.get(key)
      if (typeof value === 'boolean') return value
      if (value === 'true') return true
      if (value === 'false') return false
      return fallback
    },
    number(key, fallback = 0) {
      const value = Number(byKey.get(key))
      return byKey.has(key) && Number.isFinite(value) ? value : fallback
    },
  }
}

/** Typed readers over the current page's public configuration variables. */
export function useConfig(): ConfigReader {
  return configReader(usePage().props.configVariables ?? [])
}

/** The application name (`general.appName`). */
export function useAppName(): string {
  return useConfig().string('general.appName', 'Tern') || 'Tern'
}
