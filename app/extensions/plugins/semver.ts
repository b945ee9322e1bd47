/**
 * Semantic versions and ranges for the plugin loader, through the `semver`
 * package (npm's rules: `^`, `~`, comparators, x-ranges, `||`, prereleases
 * matching only their own major.minor.patch).
 *
 * A manifest's `engine` must say something: npm reads an empty range or an
 * empty `||` alternative (`''`, `^1 ||`) as `*`, and a range such as `>x` as
 * "nothing"; both are refused here, as are hyphen ranges (`1.0.0 - 2.0.0`),
 * which the manifest format does not document.
 */
import semver from 'semver'

/** What `semver.validRange` answers for a range no version satisfies (`>x`, `<x`). */
const UNSATISFIABLE = '<0.0.0-0'

/** True when `version` is a valid semantic version (`1.2.3`, `1.2.3-beta.1`, `1.2.3+build`). */
export function isValidVersion(version: string): boolean {
  return typeof version === 'string' && semver.valid(version) !== null
}

/**
 * Compares two versions (a leading `v` is allowed): negative when `a` is
 * older, zero when equal, positive when newer; undefined when either is not
 * a valid version.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const [va, vb] = [semver.valid(a), semver.valid(b)]
  return va && vb ? semver.compare(va, vb) : undefined
}

/** True when `range` is a valid engine range (see the module comment for what is refused). */
export function isValidRange(range: string): boolean {
  if (typeof range !== 'string' || /\s-\s/.test(range)) return false
  return range.split('||').every((alternative) => {
    const normalized = alternative.trim() === '' ? null : semver.validRange(alternative)
    return normalized !== null && normalized !== UNSATISFIABLE
  })
}

/** True when `version` satisfies `range` (false when either is invalid). */
export function satisfies(version: string, range: string): boolean {
  return isValidVersion(version) && isValidRange(range) && semver.satisfies(version, range)
}
