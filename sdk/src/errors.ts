// The one error the SDK throws (docs/api.md#errors): the API's `{ error, details? }` with the HTTP status,
// or status 0 when no HTTP answer decided it (the server unreachable, a transaction or a file read failing).

export interface TaskmarketErrorInit {
  status: number;
  error: string;
  details?: string[] | undefined;
  /** The escrow task a `fundAndCreateMission` funded before the mission could not be created. */
  onChainTaskId?: number | undefined;
  cause?: unknown;
}

export class TaskmarketError extends Error {
  override readonly name = 'TaskmarketError';
  /** The HTTP status; 0 when the server gave no answer (network, chain, local file). */
  readonly status: number;
  /** The API's message, e.g. "Mission not found". */
  readonly error: string;
  /** The API's list of problems (validation: one per field), when it gave one. */
  readonly details: string[] | undefined;
  /**
   * Set by `fundAndCreateMission` when the reward was escrowed but the mission was not created:
   * pass it to `missions.create({ …, onChainTaskId })` to try again without paying twice.
   */
  readonly onChainTaskId: number | undefined;

  constructor(init: TaskmarketErrorInit) {
    const details = init.details?.length ? `: ${init.details.join('; ')}` : '';
    super(`${init.error}${details}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.onChainTaskId = init.onChainTaskId;
  }
}

/** Anything thrown while no HTTP answer was involved, as a TaskmarketError (status 0). */
export function localFailure(what: string, cause: unknown): TaskmarketError {
  if (cause instanceof TaskmarketError) return cause;
  const reason =
    cause instanceof Error ? ((cause as { shortMessage?: string }).shortMessage ?? cause.message) : String(cause);
  return new TaskmarketError({ status: 0, error: `${what}: ${reason}`, cause });
}
