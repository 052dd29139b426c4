/** The only way engines learn the time: passed in, so tests and replays are deterministic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
