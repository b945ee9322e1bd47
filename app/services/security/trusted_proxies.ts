/**
 * TRUST_PROXY as a list. The http server hands a string setting to
 * proxy-addr as ONE address, so "10.0.0.0/8,192.168.0.0/16" (the list the
 * README documents and the Helm chart sets) stopped every start with
 * "invalid IP address". This compiles the list itself, with proxy-addr's
 * keywords, into the trust function the server also accepts.
 */
import ipaddr from 'ipaddr.js'

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** proxy-addr's named ranges. */
const KEYWORDS: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/** One address or subnet (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`, `fd00::/8`); throws on anything else. */
function parseRange(entry: string): Range {
  const [text, bitsText] = entry.split('/', 2)
  let address: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(text)
  const max = address.kind() === 'ipv4' ? 32 : 128
  let bits = max
  if (bitsText !== undefined) {
    bits = /^\d+$/.test(bitsText)
      ? Number(bitsText)
      : (ipaddr.IPv4.parse(bitsText).prefixLengthFromSubnetMask() ?? -1)
    if (bits < 0 || bits > max) throw new Error(`bad prefix length in "${entry}"`)
  }
  // A client's IPv4-mapped IPv6 address is compared as IPv4 (see below): so are such ranges.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address()
    bits -= 96
  }
  return [address, bits]
}

/**
 * Compiles a comma-separated TRUST_PROXY value (addresses, subnets and the
 * keywords loopback, linklocal, uniquelocal) into `(address) => trusted`.
 * Throws an error naming the variable and the entry when one is not valid.
 */
export function trustedProxies(value: string): (address: string) => boolean {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const ranges = entries.flatMap((entry) =>
    (KEYWORDS[entry] ?? [entry]).map((range) => {
      try {
        return parseRange(range)
      } catch {
        throw new Error(
          `Value for environment variable "TRUST_PROXY" must be true, false, or addresses, subnets and the keywords loopback, linklocal, uniquelocal, comma separated; "${entry}" is none of them`
        )
      }
    })
  )
  return (address) => {
    let ip: ipaddr.IPv4 | ipaddr.IPv6
    try {
      ip = ipaddr.process(address)
    } catch {
      return false
    }
    return ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))
  }
}
