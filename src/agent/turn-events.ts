import { channel } from 'node:diagnostics_channel';
import type { TurnStatus } from './answer/final-answer';

/** An agent turn that ended, as the metrics see it: its status word, nothing of the question or answer. */
export interface TurnFinishedEvent {
  status: TurnStatus;
}

/**
 * Where the agent announces each finished turn (see `jobFinishedChannel` for why a diagnostics
 * channel): with nobody subscribed, a publish costs one boolean check.
 */
export const turnFinishedChannel = channel('vigil:agent-turn-finished');

export function announceTurnFinished(status: TurnStatus): void {
  if (turnFinishedChannel.hasSubscribers) turnFinishedChannel.publish({ status } satisfies TurnFinishedEvent);
}
