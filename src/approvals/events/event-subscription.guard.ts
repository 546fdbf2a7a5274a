import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../../auth/caller';
import { accessContextOf } from '../../access/rest-access';
import { heldEdgeRefusal } from '../../common/http/request-body';
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
    // Guards run before interceptors: a query the HTTP edge refused is raised here, as this route's one audited access.
    request.visiblePatients = await this.stream.subscribe(accessContextOf(context), Object.keys(request.query ?? {}), heldEdgeRefusal(request));
    return true;
  }
}
