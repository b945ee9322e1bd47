/**
 * The hook runner: filter hooks on top of `@poppinss/hooks`, action events
 * on top of the AdonisJS emitter (see the catalog in `types.ts`).
 */
import Hooks from '@poppinss/hooks'
import type { EmitterService, LoggerService } from '@adonisjs/core/types'
import type {
  ActionEventName,
  ActionEvents,
  ActionListener,
  FilterHandler,
  FilterHookName,
  FilterHooks,
} from './types.js'

/** The envelope handlers run on, so each one sees the previous one's result. */
interface Envelope<Name extends FilterHookName> {
  payload: FilterHooks[Name]
}
type FilterEvents = { [Name in FilterHookName]: [[Envelope<Name>], []] }
type WrappedHandler = (envelope: Envelope<any>) => Promise<void>

/** Minimal logger surface the runner needs. */
export type HookLogger = Pick<LoggerService, 'error'>

/** Runs filter hooks and delivers action events. */
export class HookRunner {
  #filters = new Hooks<FilterEvents>()
  #wrapped = new Map<Function, WrappedHandler>()
  #emitter?: EmitterService
  #logger?: HookLogger

  /**
   * Connects the runner to the application's emitter and logger; called by
   * the plugin provider before any plugin boots. Listeners cannot be added
   * before.
   */
  attach(emitter: EmitterService, logger: HookLogger): this {
    this.#emitter = emitter
    this.#logger = logger
    return this
  }

  /**
   * Adds a filter handler (runs after the ones added before it). Adding the
   * same function twice is a no-op.
   */
  addFilter<Name extends FilterHookName>(name: Name, handler: FilterHandler<Name>): this {
    if (this.#wrapped.has(handler)) return this
    const wrapped: WrappedHandler = async (envelope) => {
      const result = await handler(envelope.payload)
      if (result !== undefined) envelope.payload = result
    }
    this.#wrapped.set(handler, wrapped)
    this.#filters.add(name, wrapped)
    return this
  }

  /** Removes a filter handler; returns whether it was registered. */
  removeFilter<Name extends FilterHookName>(name: Name, handler: FilterHandler<Name>): boolean {
    const wrapped = this.#wrapped.get(handler)
    if (!wrapped) return false
    this.#wrapped.delete(handler)
    return this.#filters.remove(name, wrapped)
  }

  /** True when `name` has at least one filter handler. */
  hasFilters(name: FilterHookName): boolean {
    return this.#filters.has(name)
  }

  /**
   * Runs the handlers of `name` in order and resolves to the final payload
   * (the input when there are none). The first handler that throws stops the
   * chain; its error propagates unchanged (a `HookRefusedException` for a
   * refusal).
   */
  async filter<Name extends FilterHookName>(
    name: Name,
    payload: FilterHooks[Name]
  ): Promise<FilterHooks[Name]> {
    const envelope: Envelope<Name> = { payload }
    await this.#filters.runner(name).run(envelope as never)
    return envelope.payload
  }

  #attached(): { emitter: EmitterService; logger: HookLogger } {
    if (!this.#emitter || !this.#logger) {
      throw new Error(
        'The hook runner is not attached to the emitter yet (plugin provider not booted)'
      )
    }
    return { emitter: this.#emitter, logger: this.#logger }
  }

  /**
   * Listens to action event `name`. The listener's errors are logged (with
   * the event name) and never reach the emitter. Returns an unsubscribe
   * function. Throws when the runner is not attached yet.
   */
  on<Name extends ActionEventName>(name: Name, listener: ActionListener<Name>): () => void {
    const { emitter, logger } = this.#attached()
    return emitter.on(name, async (payload: ActionEvents[Name]) => {
      try {
        await listener(payload as ActionEvents[Name])
      } catch (error) {
        logger.error({ err: error, event: name }, `Listener of "${name}" failed`)
      }
    }) as () => void
  }

  /**
   * Emits action event `name`; resolves when every listener settled. Never
   * rejects: failures are logged. Callers that must not wait may skip the
   * `await`.
   */
  async emit<Name extends ActionEventName>(name: Name, payload: ActionEvents[Name]): Promise<void> {
    const { emitter, logger } = this.#attached()
    try {
      await emitter.emit(name, payload as never)
    } catch (error) {
      logger.error({ err: error, event: name }, `Emitting "${name}" failed`)
    }
  }
}
