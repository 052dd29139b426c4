/**
 * The control-flow signal behind `ctx.interrupt()`. The executor does not rely on catching it (a vertex might swallow
 * it): the context records the interrupt before throwing, and the executor reads that record.
 */
export class FlowInterrupt extends Error {
  override readonly name = 'FlowInterrupt';
  readonly interruptMessage: string | undefined;

  constructor(message: string | undefined) {
    super('flow interrupted awaiting input');
    this.interruptMessage = message;
  }
}
