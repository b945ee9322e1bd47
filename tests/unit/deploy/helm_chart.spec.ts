import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { helm, renderChart, only, type K8sObject } from '#tests/helpers/helm'

/**
 * charts/tern through the real helm binary (tests/helpers/helm.ts): lint,
 * render with the default values (one replica, SQLite, local files), with
 * several replicas on S3 + MariaDB + Redis, and the values schema refusing
 * several replicas on local storage or SQLite.
 */
const SEVERAL = 'tests/fixtures/helm/several_replicas.yaml'
const LOCAL_SEVERAL = 'tests/fixtures/helm/local_several_replicas.yaml'
const EXISTING = 'tests/fixtures/helm/existing_secrets.yaml'

/** The Tern container of a Deployment or Job. */
function container(object: K8sObject) {
  return object.spec.template.spec.containers[0]
}

/** Where the container's env variable `name` comes from. */
function secretRef(object: K8sObject, name: string) {
  const entry = container(object).env.find((variable: any) => variable.name === name)
  return entry?.valueFrom?.secretKeyRef
}

test.group('Helm chart | charts/tern', () => {
  test('helm lint --strict passes with the default values and with several replicas', async ({
    assert,
  }) => {
    for (const args of [[], ['-f', SEVERAL]]) {
      const result = await helm(['lint', 'charts/tern', '--strict', ...args])
      assert.equal(result.code, 0, result.stdout + result.stderr)
      assert.include(result.stdout, '1 chart(s) linted, 0 chart(s) failed')
    }
  })

  test('default values: one pod, SQLite and uploads on a claim mounted as DATA_DIR, migrated at start', async ({
    assert,
  }) => {
    const objects = await renderChart()
    assert.sameMembers(
      objects.map((object) => object.kind),
      ['ConfigMap', 'Secret', 'PersistentVolumeClaim', 'Service', 'Deployment']
    )
    const deployment = only(objects, 'Deployment')
    assert.equal(deployment.spec.replicas, 1)
    assert.equal(deployment.spec.strategy.type, 'Recreate')
    const tern = container(deployment)
    assert.equal(tern.livenessProbe.httpGet.path, '/api/health/live')
    assert.equal(tern.readinessProbe.httpGet.path, '/api/health/ready')
    assert.deepEqual(secretRef(deployment, 'APP_KEY'), { name: 'tern', key: 'APP_KEY' })
    assert.isAbove(only(objects, 'Secret').stringData.APP_KEY.length, 31)

    const config = only(objects, 'ConfigMap').data
    assert.equal(config.DB_CONNECTION, 'sqlite')
    assert.equal(config.MIGRATE_ON_START, 'true')
    const claim = only(objects, 'PersistentVolumeClaim')
    assert.deepEqual(claim.spec.accessModes, ['ReadWriteOnce'])
    const dataVolume = deployment.spec.template.spec.volumes.find(
      (volume: any) => volume.name === 'data'
    )
    assert.equal(dataVolume.persistentVolumeClaim.claimName, claim.metadata.name)
    assert.deepInclude(tern.volumeMounts, { name: 'data', mountPath: config.DATA_DIR })

    assert.isTrue(deployment.spec.template.spec.securityContext.runAsNonRoot)
    assert.isTrue(tern.securityContext.readOnlyRootFilesystem)
    assert.deepInclude(tern.volumeMounts, { name: 'tmp', mountPath: '/tmp' })
  })

  test('several replicas: S3 plugin, MariaDB and Redis settings, credentials from the Secret, a migration Job hook', async ({
    assert,
  }) => {
    const objects = await renderChart([SEVERAL])
    assert.notInclude(
      objects.map((object) => object.kind),
      'PersistentVolumeClaim'
    )
    const deployment = only(objects, 'Deployment')
    assert.equal(deployment.spec.replicas, 3)
    assert.notProperty(deployment.spec, 'strategy')
    const dataVolume = deployment.spec.template.spec.volumes.find(
      (volume: any) => volume.name === 'data'
    )
    assert.deepEqual(dataVolume.emptyDir, {})

    const config = only(objects, 'ConfigMap').data
    assert.include(config, {
      DB_CONNECTION: 'mysql',
      DB_HOST: 'mariadb.tern.svc',
      DB_PORT: '3306',
      DB_USER: 'tern',
      MIGRATE_ON_START: 'false',
    })
    assert.include(config.TERN_PLUGINS.split(','), 's3-storage')
    assert.notProperty(config, 'DB_PASSWORD')
    const secret = only(objects, 'Secret')
    assert.include(secret.stringData, {
      DB_PASSWORD: 'db-password-from-values',
      REDIS_URL: 'redis://redis.tern.svc:6379/0',
      METRICS_TOKEN: 'metrics-token-from-values',
    })
    for (const name of ['APP_KEY', 'DB_PASSWORD', 'REDIS_URL', 'METRICS_TOKEN']) {
      assert.deepEqual(secretRef(deployment, name), { name: 'tern', key: name }, name)
    }

    const job = only(objects, 'Job')
    assert.equal(job.metadata.annotations!['helm.sh/hook'], 'pre-install,pre-upgrade')
    // The Service and the Deployment select the server pods, never the Job's pod.
    const selector = only(objects, 'Service').spec.selector
    assert.deepEqual(deployment.spec.selector.matchLabels, selector)
    assert.deepInclude(deployment.spec.template.metadata.labels, selector)
    assert.isFalse(
      Object.entries(selector).every(
        ([key, value]) => job.spec.template.metadata.labels[key] === value
      )
    )
    assert.deepEqual(only(objects, 'PodDisruptionBudget').spec, {
      maxUnavailable: 1,
      selector: { matchLabels: selector },
    })
    assert.include(container(job).command.join(' '), 'tern:migrate')
    assert.deepEqual(container(job).env, container(deployment).env)
    // The Job's Secret and ConfigMap exist before it: hooks with a lower weight.
    for (const kind of ['Secret', 'ConfigMap']) {
      const annotations = only(objects, kind).metadata.annotations!
      assert.equal(annotations['helm.sh/hook'], 'pre-install,pre-upgrade')
      assert.isBelow(
        Number(annotations['helm.sh/hook-weight']),
        Number(job.metadata.annotations!['helm.sh/hook-weight'])
      )
    }

    const ingress = only(objects, 'Ingress')
    assert.equal(ingress.spec.rules[0].host, 'files.example.com')
    assert.equal(
      ingress.spec.rules[0].http.paths[0].backend.service.name,
      only(objects, 'Service').metadata.name
    )
    // share.chunkSize is 10 MB by default: the ingress must accept a chunk.
    assert.equal(
      ingress.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-body-size'],
      '64m'
    )
  })

  test('the schema refuses several replicas on local storage, and on SQLite; S3 with a database server passes', async ({
    assert,
  }) => {
    const local = await helm(['template', 'tern', 'charts/tern', '-f', LOCAL_SEVERAL])
    assert.notEqual(local.code, 0)
    assert.include(local.stderr, "values don't meet the specifications of the schema")
    assert.include(local.stderr, "at '/replicaCount': maximum: got 2, want 1")

    const sqlite = await helm([
      'template',
      'tern',
      'charts/tern',
      '-f',
      SEVERAL,
      '--set',
      'database.type=sqlite',
    ])
    assert.notEqual(sqlite.code, 0)
    assert.include(sqlite.stderr, "at '/replicaCount': maximum: got 3, want 1")

    const shared = await helm([
      'template',
      'tern',
      'charts/tern',
      '-f',
      SEVERAL,
      '--set',
      'persistence.enabled=true',
    ])
    assert.notEqual(shared.code, 0)
    assert.include(shared.stderr, "at '/persistence/accessMode': value must be 'ReadWriteMany'")

    const s3 = await renderChart(
      [LOCAL_SEVERAL],
      ['storage.type=s3', 'persistence.accessMode=ReadWriteMany']
    )
    assert.equal(only(s3, 'Deployment').spec.replicas, 2)
    assert.deepEqual(only(s3, 'PersistentVolumeClaim').spec.accessModes, ['ReadWriteMany'])
  })

  test('the schema refuses a misspelled key, at the top and inside a closed group; free-form maps stay open', async ({
    assert,
  }) => {
    for (const [key, path] of [
      ['replicaCountt=3', "at '': additional properties 'replicaCountt' not allowed"],
      ['database.hots=db', "at '/database': additional properties 'hots' not allowed"],
      ['ingress.enable=true', "at '/ingress': additional properties 'enable' not allowed"],
      [
        'probes.liveness.periodSecond=5',
        "at '/probes/liveness': additional properties 'periodSecond' not allowed",
      ],
    ]) {
      const result = await helm(['template', 'tern', 'charts/tern', '--set', key])
      assert.notEqual(result.code, 0, key)
      assert.include(result.stderr, "values don't meet the specifications of the schema")
      assert.include(result.stderr, path)
    }

    const open = await renderChart(
      [],
      [
        'podAnnotations.example\\.org/team=files',
        'nodeSelector.disktype=ssd',
        'resources.limits.cpu=2',
        'securityContext.runAsUser=10001',
      ]
    )
    assert.equal(only(open, 'Deployment').spec.template.spec.nodeSelector.disktype, 'ssd')
  })

  test('appUrl states the public address as APP_URL; unset, the first admin confirms it; a path is refused', async ({
    assert,
  }) => {
    assert.notProperty(only(await renderChart(), 'ConfigMap').data, 'APP_URL')
    const stated = await renderChart([], ['appUrl=https://files.example.com'])
    assert.equal(only(stated, 'ConfigMap').data.APP_URL, 'https://files.example.com')
    const withPath = await helm([
      'template',
      'tern',
      'charts/tern',
      '--set',
      'appUrl=https://files.example.com/tern',
    ])
    assert.notEqual(withPath.code, 0)
    assert.include(withPath.stderr, '/appUrl')
  })

  test('existing Secrets: APP_KEY and the database password are read from them, none is generated', async ({
    assert,
  }) => {
    const objects = await renderChart([EXISTING])
    const deployment = only(objects, 'Deployment')
    assert.deepEqual(secretRef(deployment, 'APP_KEY'), { name: 'tern-app-key', key: 'key' })
    assert.deepEqual(secretRef(deployment, 'DB_PASSWORD'), { name: 'tern-db', key: 'password' })
    assert.notProperty(only(objects, 'Secret').stringData ?? {}, 'APP_KEY')
    assert.equal(only(objects, 'ConfigMap').data.DB_PORT, '5432')
  })

  test('the pods match the image: its user, its DATA_DIR volume, its working directory for tern:migrate', async ({
    assert,
  }) => {
    const image = readFileSync('Containerfile', 'utf8')
    const objects = await renderChart([SEVERAL])
    const pod = only(objects, 'Deployment').spec.template.spec
    assert.equal(pod.securityContext.runAsUser, Number(image.match(/--uid (\d+)/)![1]))
    assert.equal(only(objects, 'ConfigMap').data.DATA_DIR, image.match(/DATA_DIR=(\S+)/)![1])
    assert.match(image, new RegExp(`^VOLUME ${only(objects, 'ConfigMap').data.DATA_DIR}$`, 'm'))
    // The Job runs its command in the image's WORKDIR, where the build output's ace.js is.
    assert.match(image, /^WORKDIR \/app$/m)
    assert.match(image, /COPY --from=build \S* ?\/src\/build \/app/)
    assert.deepEqual(container(only(objects, 'Job')).command, ['node', 'ace.js', 'tern:migrate'])
  })

  test('every variable the chart sets is one Tern reads (start/env.ts)', async ({ assert }) => {
    const known = new Set(
      readFileSync('start/env.ts', 'utf8')
        .match(/^\s+([A-Z][A-Z0-9_]+):/gm)!
        .map((line) => line.trim().slice(0, -1))
    )
    const objects = await renderChart([SEVERAL])
    const names = [
      ...Object.keys(only(objects, 'ConfigMap').data),
      ...container(only(objects, 'Deployment')).env.map((variable: any) => variable.name),
    ]
    assert.isAbove(names.length, 10)
    for (const name of names)
      assert.isTrue(known.has(name), `${name} is not declared in start/env.ts`)
  })
})
