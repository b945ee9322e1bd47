import { MemoryStorageDriver } from '#extensions/storage/main'
import { storageDriverContract } from '#tests/contracts/storage_driver_contract'

storageDriverContract('memory (fake disks)', {
  capabilities: ['randomAccessWrite'],
  factory: () => new MemoryStorageDriver(),
})
