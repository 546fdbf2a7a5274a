import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../../auth/caller';
import { accessContextOf } from '../../access/rest-access';
import { ProposalEventStream, VisiblePatients } from './proposal-event-stream';

export interface SubscribingRequest extends AuthenticatedRequest {
  query: Record<string, unknown>;
  visiblePatients?: VisiblePatients;
}

/**
 * Opens a subscription to the live queue (checked and audited) before the stream starts. A guard,
 * because a server-sent events response commits its 200 headers on the next tick after its handler
 * runs: a refusal (a parameter, the audit trail unavailable) must be decided before that, or it could
 * only be told as an event inside a 200 stream.
 */
@Injectable()
export class EventSubscriptionGuard implements CanActivate {
  constructor(private readonly stream: ProposalEventStream) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SubscribingRequest>();
    // A query the HTTP edge refused never gets here: the global EdgeRefusalGuard raised it, and the problem filter audited it.
    request.visiblePatients = await this.stream.subscribe(accessContextOf(context), Object.keys(request.query ?? {}));
    return true;
  }
}
