import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'
import { storageDriverContract } from '#tests/contracts/storage_driver_contract'

storageDriverContract('memory (fake disks)', {
  capabilities: ['randomAccessWrite'],
  factory: () => new MemoryStorageDriver(),
})
