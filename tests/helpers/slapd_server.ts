/**
 * A throw-away OpenLDAP server (Debian's `slapd`, /usr/sbin/slapd) on a free
 * loopback port, with its own slapd.conf and mdb data folder in a temporary
 * directory, and the memberof overlay (groupOfNames members get `memberOf`).
 * It starts empty but for the base entries; tests add people and groups with
 * the helpers below (through ldapts, as the directory manager) and stop it
 * at the end.
 *
 * ```ts
 * const ldap = await SlapdServer.start()
 * await ldap.addPerson({ uid: 'alice', password: 'pw', mail: 'alice@example.com' })
 * await ldap.stop()
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Attribute, Change, Client } from 'ldapts'
import { waitFor } from '#tests/helpers/redis_server'
import { freePort } from '#tests/helpers/test_database'

/** The binary (Debian's `slapd` package; scripts/test.js installs it when missing). */
export const SLAPD = process.env.SLAPD_PATH || '/usr/sbin/slapd'

/** The directory's suffix. */
export const BASE_DN = 'dc=tern,dc=test'

const ROOT_DN = `cn=manager,${BASE_DN}`
const ROOT_PASSWORD = 'manager-secret'

function slapdConf(folder: string): string {
  return [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    'include /etc/ldap/schema/nis.schema',
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'moduleload memberof',
    `pidfile ${join(folder, 'slapd.pid')}`,
    `argsfile ${join(folder, 'slapd.args')}`,
    'database mdb',
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    `directory ${join(folder, 'data')}`,
    'maxsize 10485760',
    'overlay memberof',
    // Passwords: usable to bind, never readable; everything else readable by anyone (anonymous search works).
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n')
}

/** A person to add under ou=people. */
export interface PersonFields {
  uid: string
  password: string
  /** The `mail` attribute; omitted when undefined. */
  mail?: string
  /** Defaults to the uid. */
  cn?: string
}

/** A running slapd the test controls. */
export class SlapdServer {
  #child: ChildProcess | null
  #stderr = ''

  private constructor(
    readonly port: number,
    readonly folder: string,
    child: ChildProcess
  ) {
    this.#child = child
    child.stderr?.on(
      'data',
      (chunk) => (this.#stderr = (this.#stderr + chunk.toString()).slice(-4000))
    )
  }

  /** Starts a server on a free port, waits until it answers a bind and adds the base entries. */
  static async start(): Promise<SlapdServer> {
    if (!existsSync(SLAPD))
      throw new Error(`${SLAPD} is missing: apt-get install -y slapd (scripts/test.js does it)`)
    const folder = await mkdtemp(join(tmpdir(), 'tern-slapd-'))
    await mkdir(join(folder, 'data'))
    await writeFile(join(folder, 'slapd.conf'), slapdConf(folder))
    const port = await freePort()
    // -d 0: stays in the foreground (the test owns the process), no debug output.
    const child = spawn(
      SLAPD,
      ['-d', '0', '-h', `ldap://127.0.0.1:${port}/`, '-f', join(folder, 'slapd.conf')],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      }
    )
    const server = new SlapdServer(port, folder, child)
    try {
      await waitFor(() => server.#answers(), 15_000, `slapd on port ${port}`)
      await server.#seed()
    } catch (error) {
      await server.stop()
      throw new Error(`slapd did not start: ${(error as Error).message}\n${server.#stderr}`, {
        cause: error,
      })
    }
    return server
  }

  /** `ldap://127.0.0.1:<port>`. */
  get url(): string {
    return `ldap://127.0.0.1:${this.port}`
  }

  /** The DN of the people folder (the search base of the tests). */
  get peopleDn(): string {
    return `ou=people,${BASE_DN}`
  }

  /** DN of person `uid`. */
  personDn(uid: string): string {
    return `uid=${uid},${this.peopleDn}`
  }

  /** DN of group `cn`. */
  groupDn(cn: string): string {
    return `cn=${cn},ou=groups,${BASE_DN}`
  }

  /** The service account the tests bind with (it exists after start). */
  get service(): { dn: string; password: string } {
    return { dn: `cn=reader,ou=services,${BASE_DN}`, password: 'reader-secret' }
  }

  async #answers(): Promise<boolean> {
    if (this.#child?.exitCode !== null)
      throw new Error(`slapd exited with ${this.#child?.exitCode}`)
    try {
      await this.#asManager(async () => {})
      return true
    } catch {
      return false
    }
  }

  /** Runs `fn` with a client bound as the directory manager. */
  async #asManager<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ url: this.url, timeout: 5000, connectTimeout: 1000 })
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD)
      return await fn(client)
    } finally {
      await client.unbind().catch(() => {})
    }
  }

  async #seed() {
    await this.#asManager(async (client) => {
      await client.add(BASE_DN, {
        objectClass: ['top', 'dcObject', 'organization'],
        dc: 'tern',
        o: 'Tern tests',
      })
      for (const ou of ['people', 'groups', 'services']) {
        await client.add(`ou=${ou},${BASE_DN}`, { objectClass: ['organizationalUnit'], ou })
      }
      await client.add(this.service.dn, {
        objectClass: ['organizationalRole', 'simpleSecurityObject'],
        cn: 'reader',
        userPassword: this.service.password,
      })
    })
  }

  /** Adds an inetOrgPerson `uid=<uid>,ou=people,...` with a (plain) password; answers its DN. */
  async addPerson(fields: PersonFields): Promise<string> {
    const dn = this.personDn(fields.uid)
    await this.#asManager((client) =>
      client.add(dn, {
        objectClass: ['inetOrgPerson'],
        uid: fields.uid,
        cn: fields.cn ?? fields.uid,
        sn: fields.uid,
        userPassword: fields.password,
        ...(fields.mail === undefined ? {} : { mail: fields.mail }),
      })
    )
    return dn
  }

  /** Adds a groupOfNames `cn=<cn>,ou=groups,...` with `members` (DNs; at least one); answers its DN. */
  async addGroup(cn: string, members: string[]): Promise<string> {
    const dn = this.groupDn(cn)
    await this.#asManager((client) =>
      client.add(dn, { objectClass: ['groupOfNames'], cn, member: members })
    )
    return dn
  }

  /** Adds (`add`) or removes (`delete`) `member` in group `groupDn` (the overlay updates its memberOf). */
  async changeMember(groupDn: string, operation: 'add' | 'delete', member: string): Promise<void> {
    await this.#asManager((client) =>
      client.modify(
        groupDn,
        new Change({ operation, modification: new Attribute({ type: 'member', values: [member] }) })
      )
    )
  }

  /** Stops the server, waits until it exited and removes its folder. */
  async stop(): Promise<void> {
    const child = this.#child
    this.#child = null
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    await rm(this.folder, { recursive: true, force: true })
  }
}
