/**
 * The small part of semver the plugin loader needs: versions
 * (`1.2.3`, `1.2.3-beta.1`) and ranges made of `||`-separated sets of
 * space-separated comparators: `1.2.3`, `=`, `>`, `>=`, `<`, `<=`, `^`, `~`,
 * x-ranges (`1`, `1.x`, `1.2.*`, `*`). Prerelease versions sort before their
 * release and only match comparators on the same major.minor.patch.
 */

/** A parsed version. */
interface Version {
  major: number
  minor: number
  patch: number
  prerelease: string[]
}

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/
const COMPARATOR = /^(\^|~|>=|<=|>|<|=)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/

/** Parses a full version; undefined when invalid. */
function parse(version: string): Version | undefined {
  const match = VERSION.exec(version.trim())
  if (!match) return undefined
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] ? match[4].split('.') : [],
  }
}

/** True when `version` is a valid semantic version. */
export function isValidVersion(version: string): boolean {
  return parse(version) !== undefined
}

/**
 * Compares two versions (a leading `v` is allowed): negative when `a` is
 * older, zero when equal, positive when newer; undefined when either is not
 * a valid version.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const [pa, pb] = [parse(a), parse(b)]
  return pa && pb ? compare(pa, pb) : undefined
}

function compareIdentifiers(a: string, b: string): number {
  const [na, nb] = [Number(a), Number(b)]
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb
  if (Number.isInteger(na)) return -1
  if (Number.isInteger(nb)) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** Compares two parsed versions: negative, zero or positive. */
function compare(a: Version, b: Version): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch
  if (core) return core
  if (!a.prerelease.length || !b.prerelease.length) return b.prerelease.length - a.prerelease.length
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    if (a.prerelease[i] === undefined) return -1
    if (b.prerelease[i] === undefined) return 1
    const diff = compareIdentifiers(a.prerelease[i], b.prerelease[i])
    if (diff) return diff
  }
  return 0
}

type Test = (v: Version) => boolean
const isWild = (part?: string) => part === undefined || /^[xX*]$/.test(part)

/** Turns one comparator into a test; undefined when it is not valid. */
function comparator(text: string): { test: Test; base?: Version } | undefined {
  const m = COMPARATOR.exec(text)
  if (!m) return undefined
  const [, op = '', maj, min, pat, pre] = m
  if (isWild(maj)) return op === '' || op === '=' || op === '>=' ? { test: () => true } : undefined
  const major = Number(maj)
  const minor = isWild(min) ? undefined : Number(min)
  const patch = isWild(pat) ? undefined : Number(pat)
  if (minor === undefined && !isWild(pat)) return undefined
  const base: Version = { major, minor: minor ?? 0, patch: patch ?? 0, prerelease: pre ? pre.split('.') : [] }
  const ge: Test = (v) => compare(v, base) >= 0
  const lt = (upper: Version): Test => (v) => compare(v, upper) < 0
  const bump = (level: 'major' | 'minor' | 'patch'): Version => ({
    major: level === 'major' ? major + 1 : major,
    minor: level === 'minor' ? (minor ?? 0) + 1 : level === 'major' ? 0 : (minor ?? 0),
    patch: level === 'patch' ? (patch ?? 0) + 1 : 0,
    prerelease: ['0'],
  })
  const partial = minor === undefined ? 'major' : patch === undefined ? 'minor' : undefined
  const between = (upper: Version): Test => (v) => ge(v) && lt(upper)(v)
  switch (op) {
    case '^': {
      // ^ allows changes right of the first non-zero part (npm semantics).
      let level: 'major' | 'minor' | 'patch' = 'patch'
      if (major > 0 || minor === undefined) level = 'major'
      else if (minor > 0 || patch === undefined) level = 'minor'
      return { test: between(bump(level)), base }
    }
    case '~':
      return { test: between(bump(minor === undefined ? 'major' : 'minor')), base }
    case '>=':
      return { test: ge, base }
    case '<':
      return { test: lt(base), base }
    case '>':
      if (partial) return { test: (v) => !between(bump(partial))(v) && !lt(base)(v), base }
      return { test: (v) => compare(v, base) > 0, base }
    case '<=':
      return { test: partial ? lt(bump(partial)) : (v) => compare(v, base) <= 0, base }
    default:
      return { test: partial ? between(bump(partial)) : (v) => compare(v, base) === 0, base }
  }
}

/** Parses a range into alternative sets of comparators; undefined when invalid. */
function parseRange(range: string) {
  const sets = range.split('||').map((set) => set.trim().split(/\s+/).filter(Boolean))
  if (sets.some((set) => set.length === 0)) return undefined
  const parsed = sets.map((set) => set.map(comparator))
  if (parsed.some((set) => set.some((c) => c === undefined))) return undefined
  return parsed as Array<Array<{ test: Test; base?: Version }>>
}

/** True when `range` is a valid range of the supported syntax. */
export function isValidRange(range: string): boolean {
  return parseRange(range) !== undefined
}

/** True when `version` satisfies `range` (false when either is invalid). */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version)
  const sets = parseRange(range)
  if (!v || !sets) return false
  // A prerelease only matches a set naming the same major.minor.patch with a prerelease.
  const allowsPrerelease = (c: { base?: Version }) =>
    !!c.base?.prerelease.length &&
    c.base.major === v.major &&
    c.base.minor === v.minor &&
    c.base.patch === v.patch
  return sets.some(
    (set) => set.every((c) => c.test(v)) && (!v.prerelease.length || set.some(allowsPrerelease))
  )
}
