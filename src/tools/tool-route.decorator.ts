import { ApiUuidParam } from '../common/validation/uuid';
import { applyDecorators, Get, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { BREAK_GLASS_HEADER } from '../access/break-glass';
import { AuditedAction, IdentityInRead, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { ToolEnvelopeDto } from './envelope.dto';
import { ToolName } from './tool-names';

export const TOOL_KEY = 'vigil:tool';

/**
 * The roles that care for patients read through the tools; what each sees is the projection's
 * business. Analysts read no patient's record at all: they get de-identified counts (issue 14).
 */
export const TOOL_ROLES = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];

/** A tool's REST route: GET, its roles, its audit tag, and its OpenAPI operation named after the tool. */
export function ToolRoute(name: ToolName, path: string, summary: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    SetMetadata(TOOL_KEY, name),
    AuditedAction(name),
    IdentityInRead(),
    Roles(...TOOL_ROLES),
    ApiBearerAuth(),
    ApiOperation({ operationId: name, summary }),
    ApiUuidParam('patientId'),
    ApiHeader({
      name: BREAK_GLASS_HEADER,
      required: false,
      schema: { type: 'string', minLength: 10, maxLength: 500 },
      description: 'Emergency access (clinicians only): the reason, 10–500 characters. Allowed, audited and flagged.',
    }),
    ApiOkResponse({ type: ToolEnvelopeDto }),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing, expired, wrongly signed or unknown-user token.' }),
    ApiForbiddenResponse({ type: ProblemDto, description: 'Role not allowed, or emergency access refused.' }),
    ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient, or not on your care teams (indistinguishable).' }),
    ApiProblemResponses(),
  );
}
