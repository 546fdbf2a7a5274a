import { applyDecorators, createParamDecorator, ExecutionContext, Get, HttpStatus, Param, ParseUUIDPipe, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AuthenticatedRequest, Caller } from '../auth/caller';
import { BREAK_GLASS_HEADER } from '../auth/patient-access.service';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../cohort/enum';
import { ProblemException } from '../common/http/problem';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { isSingleLineText } from '../common/validation/text';
import { ToolEnvelopeDto } from './envelope.dto';
import { ToolName } from './tool-names';

export const TOOL_KEY = 'vigil:tool';

/** Every staff role may read through the tools; what each sees is the projection's business. */
export const TOOL_ROLES = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer, StaffRole.Analyst];

/** A tool's REST route: GET, its roles, its audit tag, and its OpenAPI operation named after the tool. */
export function ToolRoute(name: ToolName, path: string, summary: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    SetMetadata(TOOL_KEY, name),
    AuditedAction(name),
    Roles(...TOOL_ROLES),
    ApiBearerAuth(),
    ApiOperation({ operationId: name, summary }),
    ApiParam({ name: 'patientId', format: 'uuid' }),
    ApiHeader({
      name: BREAK_GLASS_HEADER,
      required: false,
      description: 'Emergency access (clinicians only): the reason, 10–500 characters. Allowed, audited and flagged.',
    }),
    ApiOkResponse({ type: ToolEnvelopeDto }),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing, expired, wrongly signed or unknown-user token.' }),
    ApiForbiddenResponse({ type: ProblemDto, description: 'Role not allowed, or emergency access refused.' }),
    ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient, or not on your care teams (indistinguishable).' }),
    ApiProblemResponses(),
  );
}

export const PatientIdParam = () =>
  Param(
    'patientId',
    new ParseUUIDPipe({
      exceptionFactory: () =>
        new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'patientId must be a UUID.', [
          { field: 'patientId', reason: 'isUuid', message: 'patientId must be a UUID' },
        ]),
    }),
  );

export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without authentication');
  return caller;
});

/**
 * The break-glass reason as sent. A reason holding any control character (C0, DEL, or C1 such as
 * U+0085 or U+009B, which Node reads from latin-1 header bytes) is malformed input, refused here
 * before access is decided, so it can neither forge a log line nor be stored in the audit trail.
 */
export const BreakGlassReason = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<AuthenticatedRequest>().headers[BREAK_GLASS_HEADER];
  if (typeof value !== 'string') return undefined;
  if (!isSingleLineText(value)) {
    const message = `${BREAK_GLASS_HEADER} must not contain control characters`;
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `${message}.`, [
      { field: BREAK_GLASS_HEADER, reason: 'isSingleLineText', message },
    ]);
  }
  return value;
});
